// StreamMachine.swift — the rules of a database stream, without I/O or
// clocks: inputs in, actions out.
import Foundation
import LiveModel

/// The state machine of a ``DatabaseStream``.
///
/// It owns no connection, task or clock: its driver feeds it what
/// happened (``Input``) and performs what it answers (``Action``), so every
/// rule — redirects, credential renewal, backoff, the keep-alive timeout,
/// the events and their payloads — is exercised without a network.
///
/// - `start` connects to the query URL.
/// - A `200` with `text/event-stream` opens the stream. A redirect (`301`,
///   `302`, `303`, `307`, `308`) is followed to its `Location` (absolute or
///   relative), keeping the credential, at most
///   ``StreamConfiguration/maxRedirects`` times in a row; a reconnect starts
///   from the query URL again.
/// - `401` renews a refreshable credential once, otherwise ends with
///   ``DatabaseError/permissionDenied(_:)``, as does `403`; another `4xx`
///   ends with ``DatabaseError/http(status:message:url:)``. `408`, `429`,
///   `5xx`, transport failures, a closed stream, a malformed payload and a
///   keep-alive timeout reconnect after an exponential backoff, whose
///   attempts start over once a `put` arrives.
/// - `put` and `patch` are parsed and delivered; `keep-alive` only shows
///   the connection is alive; `cancel` ends with
///   ``DatabaseError/permissionDenied(_:)``; `auth_revoked` renews a
///   refreshable credential or ends with ``DatabaseError/authRevoked``;
///   other events are ignored.
struct StreamMachine: Sendable {
    /// What happened.
    enum Input: Sendable {
        /// Begin: connect to the query URL.
        case start
        /// The answer to the current request (header names in lower case).
        case response(status: Int, headers: [String: String])
        /// Bytes of the current response's body.
        case bytes([UInt8])
        /// A parsed event (``bytes(_:)`` produces them itself).
        case event(ServerSentEvent)
        /// The server's `retry:` reconnection time.
        case retry(milliseconds: Int)
        /// The keep-alive timer ran out.
        case keepAliveTimeout
        /// The connection ended: cleanly (nil) or with this description.
        case transportEnded(error: String?)
        /// The reconnect timer fired.
        case reconnectTimerFired
        /// No credential could be had for the connection.
        case credentialFailed(DatabaseError)
        /// The consumer stops the stream.
        case stop
    }

    /// What the driver must do, in order.
    enum Action: Sendable {
        /// Close any current connection and open a request to `url` (nil:
        /// the query URL), with a credential asked with `forceRefresh`.
        case connect(url: URL?, forceRefresh: Bool)
        /// (Re)start the keep-alive timer; ``Input/keepAliveTimeout`` when
        /// it runs out.
        case armKeepAlive(Duration)
        /// Fire ``Input/reconnectTimerFired`` after this delay.
        case scheduleReconnect(after: Duration)
        /// Close the current connection and stop the keep-alive timer.
        case closeConnection
        /// Tell the consumer.
        case deliver(StreamMessage)
    }

    /// Where the stream stands.
    enum Phase: Sendable, Hashable {
        /// Not started.
        case idle
        /// A request is out, no answer yet.
        case connecting
        /// Events are flowing.
        case open
        /// An error status came; its body is being read for the message.
        case readingError
        /// Waiting for the reconnect timer.
        case waiting
        /// Over; every input is ignored.
        case ended
    }

    /// How many bytes of an error response's body are read for its message.
    static let errorBodyLimit = 4096

    /// The query URL (without credential).
    let url: URL
    /// The order whose sort values the payloads carry.
    let order: QueryOrder
    let configuration: StreamConfiguration
    /// Whether the credential can be renewed (a provider).
    let canRefresh: Bool

    /// Where the stream stands.
    var phase = Phase.idle
    /// The URL of the current request: the query URL or a redirect target.
    var currentURL: URL
    /// Failures since the last `put`: the next backoff attempt.
    private(set) var failures = 0
    /// Redirects followed in a row.
    var redirects = 0

    var parser: SSEParser
    var backoff: StreamBackoff
    /// A renewal was tried since the stream last opened.
    var renewed = false
    /// The current connect asked for a fresh credential (kept for a retry
    /// when getting it failed).
    var forceRefresh = false
    var errorStatus = 0
    var errorContentType = ""
    var errorBody: [UInt8] = []

    /// - Parameter seed: Seeds the jitter, so a run can be replayed.
    init(url: URL, order: QueryOrder = .priority, configuration: StreamConfiguration = .init(),
         canRefresh: Bool, seed: UInt64) {
        self.url = url
        self.order = order
        self.configuration = configuration
        self.canRefresh = canRefresh
        currentURL = url
        parser = SSEParser(maxEventBytes: configuration.maxEventBytes)
        backoff = StreamBackoff(base: configuration.initialBackoff, cap: configuration.maxBackoff,
                                jitter: configuration.jitter, seed: seed)
    }

    /// Whether a connection is in use (requested, open or being read).
    var isConnected: Bool { phase == .connecting || phase == .open || phase == .readingError }

    /// Applies `input` and returns what to do.
    /// - Complexity: O(size of the input): bytes are parsed, and events'
    ///   payloads with them.
    mutating func handle(_ input: Input) -> [Action] {
        var actions: [Action] = []
        switch input {
        case .start:
            if phase == .idle { connect(nil, forceRefresh: false, &actions) }
        case .response(let status, let headers):
            if phase == .connecting { respond(status: status, headers: headers, &actions) }
        case .bytes(let bytes):
            receive(bytes, &actions)
        case .event(let event):
            if phase == .open { handle(event, &actions) }
        case .retry(let milliseconds):
            serverRetry(milliseconds)
        case .keepAliveTimeout:
            if isConnected {
                fail(.transport("no data from the server for \(configuration.keepAliveTimeout)"), &actions)
            }
        case .transportEnded(let error):
            transportEnded(error, &actions)
        case .reconnectTimerFired:
            if phase == .waiting { connect(nil, forceRefresh: forceRefresh, &actions) }
        case .credentialFailed(let error):
            if phase == .connecting { fail(error, &actions) }
        case .stop:
            if phase != .ended { end(nil, &actions) }
        }
        return actions
    }

    // MARK: Transitions

    /// Opens a request to `target` (nil: the query URL).
    mutating func connect(_ target: URL?, forceRefresh: Bool, _ actions: inout [Action]) {
        phase = .connecting
        currentURL = target ?? url
        self.forceRefresh = forceRefresh
        parser = SSEParser(maxEventBytes: configuration.maxEventBytes)
        actions.append(.connect(url: target, forceRefresh: forceRefresh))
        actions.append(.armKeepAlive(configuration.keepAliveTimeout))
    }

    /// Closes the connection and reconnects after the next backoff delay.
    /// The reconnect is scheduled before the consumer is told, so the
    /// delay it is told runs from before it hears of it.
    mutating func fail(_ error: DatabaseError, _ actions: inout [Action]) {
        let delay = backoff.delay(attempt: failures)
        failures += 1
        redirects = 0
        phase = .waiting
        actions.append(.closeConnection)
        actions.append(.scheduleReconnect(after: delay))
        actions.append(.deliver(.disconnected(error, retryAfter: delay)))
    }

    /// Closes the connection and reconnects at once with a fresh credential.
    mutating func renewCredential(_ actions: inout [Action]) {
        renewed = true
        redirects = 0
        actions.append(.closeConnection)
        actions.append(.deliver(.renewingCredential))
        connect(nil, forceRefresh: true, &actions)
    }

    /// Closes the connection and ends the stream.
    mutating func end(_ error: DatabaseError?, _ actions: inout [Action]) {
        phase = .ended
        actions.append(.closeConnection)
        actions.append(.deliver(.ended(error)))
    }

    private mutating func transportEnded(_ error: String?, _ actions: inout [Action]) {
        switch phase {
        case .connecting:
            fail(.transport(error ?? "the connection closed before the server answered"), &actions)
        case .open:
            fail(.transport(error ?? "the server closed the stream"), &actions)
        case .readingError:
            concludeError(&actions)
        case .idle, .waiting, .ended:
            break
        }
    }

    /// The current URL as it may appear in errors and logs.
    var redactedURL: String { QueryEncoding.redact(currentURL.absoluteString) }

    /// The server's `retry:` time becomes the initial backoff, kept
    /// between ``minimumServerRetry`` and the longest backoff so a server
    /// cannot make the stream reconnect in a tight loop.
    mutating func serverRetry(_ milliseconds: Int) {
        backoff.base = min(max(.milliseconds(milliseconds), Self.minimumServerRetry), configuration.maxBackoff)
    }

    /// The shortest initial backoff a server's `retry:` can ask for.
    static let minimumServerRetry = Duration.milliseconds(100)

    /// Records that a `put` arrived: the next failure backs off from the
    /// start again.
    mutating func resetBackoff() { failures = 0 }
}
