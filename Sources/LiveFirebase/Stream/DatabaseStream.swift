// DatabaseStream.swift — a live stream of a location's changes: the
// state machine driven by a transport and timers.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import LiveModel

/// The server-sent event stream of a location (or a query's window),
/// reconnecting by itself.
///
/// ```swift
/// let stream = DatabaseStream(reference: try DatabaseReference(url: "https://x.firebaseio.com",
///                                                              path: "/rooms/lobby"))
/// for await message in await stream.start() {
///     switch message {
///     case .put(let payload), .patch(let payload): apply(payload)
///     case .ended(let error): report(error)
///     default: break
///     }
/// }
/// ```
///
/// The stream requests `GET <location>.json` with `Accept:
/// text/event-stream` and the query's parameters, follows redirects with
/// its credential, renews a provider's credential when the server revokes
/// or refuses it, reconnects with backoff after failures and after
/// ``StreamConfiguration/keepAliveTimeout`` of silence, and parses every
/// payload off the main actor. ``StreamMessage`` lists what it tells.
///
/// Logs go to the `LiveFirebase.stream` logger (connections at debug,
/// disconnections and ends at notice), and neither logs nor errors ever
/// contain a token.
///
/// Its timers (the keep-alive timeout and the reconnect backoff) run on
/// `StreamClock`: a ``DatabaseStream`` made without a clock uses
/// `ContinuousClock`; a test can pass a clock it advances by hand.
public actor DatabaseStream<StreamClock: Clock<Duration>> {
    /// The location streamed, with its credentials.
    public nonisolated let reference: DatabaseReference
    /// The query whose window is streamed.
    public nonisolated let query: DatabaseQuery
    /// Timing and limits.
    public nonisolated let configuration: StreamConfiguration
    let transport: any StreamTransport
    let logger: Logger
    /// Measures the keep-alive timeout and the backoff.
    let clock: StreamClock

    var machine: StreamMachine?
    var continuation: IsolatedStream<StreamMessage>.Continuation?
    /// Identifies the current ``start()``.
    var run = 0
    /// Identifies the current connection; stale events carry an older one.
    var connection = 0
    var connectionTask: Task<Void, Never>?
    var reconnectTask: Task<Void, Never>?
    var keepAliveDeadline: StreamClock.Instant?
    var keepAliveTask: Task<Void, Never>?
    var redactor = StreamRedactor()
    /// The first `put` of the current connection while it arrives (nil
    /// once it is delivered); see ``LoadProgress``.
    var firstPut: ChildTally?
    /// When the connection's first body byte came.
    var firstByteAt: StreamClock.Instant?
    /// When the chunk being handled came.
    var chunkAt: StreamClock.Instant?
    /// The tally at which the next ``StreamMessage/receiving(_:)`` is due.
    var nextProgressAt = 0

    /// Bytes between two ``StreamMessage/receiving(_:)`` messages while a
    /// first `put` arrives.
    public nonisolated var progressStep: Int { 1 << 20 }

    /// A stream of `reference` (and `query`) whose timers run on `clock`,
    /// not started yet.
    ///
    /// - Parameters:
    ///   - reference: The location streamed, with its credentials.
    ///   - query: The query whose window is streamed; every child by default.
    ///   - transport: Opens the connections; by default a
    ///     ``PlatformStreamTransport`` of the stream's own.
    ///   - configuration: Timing and limits.
    ///   - clock: Measures ``StreamConfiguration/keepAliveTimeout`` and the
    ///     backoff delays.
    ///   - logger: Where connections and failures are logged.
    public init(reference: DatabaseReference, query: DatabaseQuery = DatabaseQuery(),
                transport: any StreamTransport = PlatformStreamTransport(),
                configuration: StreamConfiguration = StreamConfiguration(),
                clock: StreamClock,
                logger: Logger = Logger(label: "LiveFirebase.stream")) {
        self.reference = reference
        self.query = query
        self.transport = transport
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
    }

    /// Connects, and returns the messages of this run (for one consumer,
    /// which reads them on its own actor: see ``IsolatedStream``).
    ///
    /// Calling it again stops the current run (its messages end with
    /// `.ended(nil)`) and starts afresh. Ending the iteration of the
    /// messages stops the stream. An invalid query ends at once with
    /// ``DatabaseError/invalidQuery(_:)``.
    public func start() -> IsolatedStream<StreamMessage> {
        let (messages, continuation) = IsolatedStream.makeStream(of: StreamMessage.self)
        start(delivering: continuation)
        let current = run
        continuation.onTermination = { [weak self] in
            Task { await self?.consumerLeft(run: current) }
        }
        return messages
    }

    /// Connects, and yields the messages of this run to `continuation`, as
    /// ``start()`` does with its own: the stream finishes it after
    /// `.ended`. The caller stops the stream when its consumer leaves. A
    /// consumer that made the continuation reads the messages with no task
    /// in between.
    package func start(delivering continuation: IsolatedStream<StreamMessage>.Continuation) {
        stop()
        run += 1
        self.continuation = continuation
        let valid: DatabaseQuery
        do { valid = try query.checked() } catch {
            deliver(.ended(error))
            return
        }
        let url = reference.database.restURL(for: reference.path, parameters: valid.streamParameters)
        machine = StreamMachine(url: url, order: valid.order, configuration: configuration,
                                canRefresh: reference.credentials.canRefresh, seed: UInt64.random(in: .min ... .max))
        handle(.start)
    }

    /// Closes the connection and ends the messages with `.ended(nil)`; does
    /// nothing when the stream is not running.
    public func stop() {
        handle(.stop)
    }

    /// Whether a run is going on (started, not ended).
    public var isRunning: Bool { machine != nil }

    // MARK: Driving the machine

    /// Feeds `input` to the machine and performs its actions.
    func handle(_ input: StreamMachine.Input) {
        guard var current = machine else { return }
        machine = nil  // the only reference while it changes: its buffers are not copied
        let actions = current.handle(input)
        machine = current
        for action in actions { perform(action) }
    }

    /// Feeds `input` if it comes from the current connection; tallies the
    /// bytes of a first `put` on the way.
    func handle(_ input: StreamMachine.Input, connection id: Int) {
        guard id == connection else { return }
        guard case .bytes(let bytes) = input, firstPut != nil else {
            handle(input)
            return
        }
        let now = clock.now
        if firstByteAt == nil { firstByteAt = now }
        chunkAt = now
        firstPut?.feed(bytes)
        handle(input)
        chunkAt = nil
        guard let tally = firstPut, tally.bytes >= nextProgressAt, let start = firstByteAt else { return }
        nextProgressAt = tally.bytes + progressStep
        continuation?.yield(.receiving(LoadProgress(bytes: tally.bytes, children: tally.children,
                                                    transfer: start.duration(to: now))))
    }

    /// The last ``StreamMessage/receiving(_:)`` of a first `put`, with its
    /// transfer and parse times, sent just before the `put`.
    private func finishFirstPut() {
        guard let tally = firstPut else { return }
        firstPut = nil
        let now = clock.now
        let arrived = chunkAt ?? now
        let start = firstByteAt ?? arrived
        continuation?.yield(.receiving(LoadProgress(bytes: tally.bytes, children: tally.children,
                                                    transfer: start.duration(to: arrived),
                                                    parse: arrived.duration(to: now))))
    }

    private func perform(_ action: StreamMachine.Action) {
        switch action {
        case .connect(let url, let forceRefresh): openConnection(url, forceRefresh: forceRefresh)
        case .armKeepAlive(let timeout): armKeepAlive(timeout)
        case .scheduleReconnect(let delay): scheduleReconnect(after: delay)
        case .closeConnection: closeConnection()
        case .deliver(let message): deliver(message)
        }
    }

    /// Hands `message` (scrubbed) to the consumer; after `.ended`, stops
    /// everything.
    func deliver(_ message: StreamMessage) {
        let message = redactor.scrub(message)
        switch message {
        case .connected:
            logger.debug("stream open", metadata: ["location": "\(reference.path)"])
            firstPut = ChildTally()
            firstByteAt = nil
            nextProgressAt = progressStep
        case .put:
            logger.trace("\(message)", metadata: ["location": "\(reference.path)"])
            finishFirstPut()
        case .patch, .receiving:
            logger.trace("\(message)", metadata: ["location": "\(reference.path)"])
        case .disconnected, .renewingCredential, .ended:
            logger.notice("\(message)", metadata: ["location": "\(reference.path)"])
        }
        continuation?.yield(message)
        guard case .ended = message else { return }
        continuation?.finish()
        continuation = nil
        machine = nil
        closeConnection()
        reconnectTask?.cancel()
        reconnectTask = nil
    }

    private func consumerLeft(run ended: Int) {
        if ended == run { stop() }
    }
}

extension DatabaseStream where StreamClock == ContinuousClock {
    /// A stream of `reference` (and `query`) whose timers run on the
    /// `ContinuousClock`, not started yet.
    ///
    /// - Parameters:
    ///   - reference: The location streamed, with its credentials.
    ///   - query: The query whose window is streamed; every child by default.
    ///   - transport: Opens the connections; by default a
    ///     ``PlatformStreamTransport`` of the stream's own.
    ///   - configuration: Timing and limits.
    ///   - logger: Where connections and failures are logged.
    public init(reference: DatabaseReference, query: DatabaseQuery = DatabaseQuery(),
                transport: any StreamTransport = PlatformStreamTransport(),
                configuration: StreamConfiguration = StreamConfiguration(),
                logger: Logger = Logger(label: "LiveFirebase.stream")) {
        self.init(reference: reference, query: query, transport: transport, configuration: configuration,
                  clock: ContinuousClock(), logger: logger)
    }
}
