// StreamTestSupport.swift — a scripted stream transport, a message
// recorder and a log capture for the stream tests.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import LiveFirebase
import LiveModel
import Logging

/// A ``StreamTransport`` whose connections follow scripts; a connection
/// without a script (or whose script is done) stays open until the test
/// pushes more or finishes it, or the stream closes it.
///
/// It counts what the stream took from each connection, so a test can wait
/// until an event was handled (the stream asks for the next one only after
/// handling the last), and whether it was closed.
final class StreamFakeTransport: StreamTransport, @unchecked Sendable {
    // @unchecked: `scripts` is guarded by `lock`; `connections` is a
    // WatchedState, which has its own.
    enum Step: Sendable {
        case event(TransportEvent)
        /// The server closes the connection.
        case end
        /// The connection fails.
        case fail(any Error)
    }

    /// What a test can see of one connection.
    struct Connection {
        let request: URLRequest
        let continuation: AsyncThrowingStream<TransportEvent, any Error>.Continuation
        /// How many events the stream asked for.
        var asked = 0
        /// Closed by its consumer, or finished.
        var closed = false
    }

    private let lock = NSLock()
    private var scripts: [[Step]]
    private let fallback: [Step]
    private let connections = WatchedState<[Connection]>([])

    /// - Parameters:
    ///   - scripts: One per connection, in order.
    ///   - fallback: The script of every connection after those.
    init(_ scripts: [[Step]], fallback: [Step] = []) {
        self.scripts = scripts
        self.fallback = fallback
    }

    func open(_ request: URLRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        let (events, continuation) = AsyncThrowingStream.makeStream(of: TransportEvent.self)
        let script = lock.withLock { scripts.isEmpty ? fallback : scripts.removeFirst() }
        let index = connections.update { all in
            all.append(Connection(request: request, continuation: continuation))
            return all.count - 1
        }
        continuation.onTermination = { [connections] _ in connections.update { $0[index].closed = true } }
        play(script, on: continuation)
        // Hand the events out one by one, counting the asks; the source
        // goes (and counts as closed) when the stream drops the sequence.
        let source = Source(events.makeAsyncIterator()) { [connections] in
            connections.update { $0[index].closed = true }
        }
        return AsyncThrowingStream(unfolding: { [connections] in
            connections.update { $0[index].asked += 1 }
            return try await source.next()
        })
    }

    /// The iterator of a connection's events, telling when it is let go.
    private final class Source: @unchecked Sendable {
        // @unchecked: one consumer at a time, as for any async iterator.
        private var iterator: AsyncThrowingStream<TransportEvent, any Error>.Iterator
        private let released: @Sendable () -> Void

        init(_ iterator: AsyncThrowingStream<TransportEvent, any Error>.Iterator, released: @escaping @Sendable () -> Void) {
            self.iterator = iterator
            self.released = released
        }

        func next() async throws -> TransportEvent? { try await iterator.next() }

        deinit { released() }
    }

    private func play(_ script: [Step], on continuation: AsyncThrowingStream<TransportEvent, any Error>.Continuation) {
        for step in script {
            switch step {
            case .event(let event): continuation.yield(event)
            case .end: continuation.finish()
            case .fail(let error): continuation.finish(throwing: error)
            }
        }
    }

    /// The requests, in order.
    var requests: [URLRequest] { connections.read { $0.map(\.request) } }
    /// How many connections were opened.
    var count: Int { connections.read { $0.count } }
    /// Whether connection `index` was opened and then closed by its
    /// consumer or finished.
    func isClosed(_ index: Int) -> Bool { connections.read { $0.indices.contains(index) && $0[index].closed } }

    /// Waits until connection `index` is opened and closed.
    func waitUntilClosed(_ index: Int) async -> Bool {
        await connections.wait { $0.indices.contains(index) && $0[index].closed }
    }

    /// Waits until `count` connections were opened.
    func waitForConnections(_ count: Int) async -> Bool {
        await connections.wait { $0.count >= count }
    }

    /// Waits until the stream handled `events` events of connection
    /// `index` (it asks for one more than it handled); false if the
    /// connection closes first.
    func waitUntilHandled(_ events: Int, of index: Int) async -> Bool {
        await connections.wait { $0.indices.contains(index) && ($0[index].asked > events || $0[index].closed) }
            && !isClosed(index)
    }

    /// Plays `steps` on the latest connection.
    func push(_ steps: [Step]) {
        guard let continuation = connections.read({ $0.last?.continuation }) else { return }
        play(steps, on: continuation)
    }
}

extension StreamFakeTransport.Step {
    /// A `200 text/event-stream` response.
    static let ok = Self.event(.response(status: 200, headers: ["content-type": "text/event-stream"]))

    /// An event as bytes.
    static func sse(_ name: String, _ data: String) -> Self {
        .event(.bytes(Array("event: \(name)\ndata: \(data)\n\n".utf8)))
    }

    /// A `put` at `path`.
    static func put(_ path: String, _ data: String) -> Self {
        sse("put", #"{"path":"\#(path)","data":\#(data)}"#)
    }
}

/// Collects the messages of a stream in the background.
final class StreamRecorder: @unchecked Sendable {
    // @unchecked: `recorded` has its own lock; `task` is set once in init.
    private let recorded = WatchedState<[StreamMessage]>([])
    private var task: Task<Void, Never>?

    init(_ stream: IsolatedStream<StreamMessage>) {
        task = Task { [recorded] in
            for await message in stream {
                // Progress of a first put is checked on its own (StreamProgressTests).
                if case .receiving = message { continue }
                recorded.update { $0.append(message) }
            }
            recorded.finish()
        }
    }

    /// The messages so far.
    var messages: [StreamMessage] { recorded.value }

    /// Stops consuming (ending the iteration).
    func cancel() {
        task?.cancel()
    }

    /// The messages, summarised.
    var summaries: [String] { messages.map(\.summary) }

    /// Waits until the summaries satisfy `condition`: false if the stream
    /// ends first (or the test's time limit cancels the wait).
    func waitFor(_ condition: @escaping @Sendable ([String]) -> Bool) async -> Bool {
        await recorded.wait { condition($0.map(\.summary)) }
    }

    /// Waits until a summary starting with `prefix` arrived (at least
    /// `count` of them).
    func waitFor(_ prefix: String, count: Int = 1) async -> Bool {
        await waitFor { $0.filter { $0.hasPrefix(prefix) }.count >= count }
    }
}

extension StreamRecorder {
    /// Waits for a summary starting with `prefix` (at least `count` of
    /// them), advancing `clock` by the delay of each disconnection told
    /// meanwhile, so the stream reconnects without real time passing.
    ///
    /// The stream arms its reconnect timer before it tells of the
    /// disconnection, so the advance always reaches it.
    func waitFor(_ prefix: String, count: Int = 1, reconnectingOn clock: TestClock) async -> Bool {
        let reached: @Sendable ([String]) -> Bool = { $0.filter { $0.hasPrefix(prefix) }.count >= count }
        var advanced = 0
        while true {
            let seen = advanced
            guard await waitFor({ reached($0) || $0.filter { $0.hasPrefix("disconnected") }.count > seen }) else {
                return false
            }
            let messages = self.messages
            if reached(messages.map(\.summary)) { return true }
            let delays = messages.compactMap { message -> Duration? in
                if case .disconnected(_, let delay) = message { delay } else { nil }
            }
            for delay in delays[advanced...] { clock.advance(by: delay) }
            advanced = delays.count
        }
    }
}

extension StreamMessage {
    /// A short, comparable form: `connected`, `put /a {"x":1}`,
    /// `patch / b=1,c/d=null`, `disconnected: <error>`, `renewing`, `ended`,
    /// `ended: <error>`.
    var summary: String {
        switch self {
        case .connected: return "connected"
        case .put(let p): return "put \(p.path) \(p.data.value.jsonText(sortedKeys: true))"
        case .patch(let p):
            let updates = p.updates.map { update in
                update.path.relativeText + "=" + (update.value.exists ? update.value.value.jsonText(sortedKeys: true) : "null")
            }
            return "patch \(p.path) " + updates.sorted().joined(separator: ",")
        case .disconnected(let error, _): return "disconnected: \(error)"
        case .renewingCredential: return "renewing"
        case .receiving(let progress): return "receiving \(progress.bytes)"
        case .ended(nil): return "ended"
        case .ended(let error?): return "ended: \(error)"
        }
    }

    /// The error the message carries.
    var error: DatabaseError? {
        switch self {
        case .disconnected(let error, _), .ended(let error?): return error
        default: return nil
        }
    }
}

/// A log handler that keeps every line (message and metadata) it is given.
struct StreamLogCapture: LogHandler {
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    let lines: Lines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let error = event.error.map { " error=\($0)" } ?? ""
        lines.append("\(event.level) \(event.message) \(all.map { "\($0)=\($1)" }.sorted().joined(separator: " "))\(error)")
    }

    /// A logger at trace level writing into `lines`.
    static func logger(_ lines: Lines) -> Logger {
        Logger(label: "LiveFirebase.stream") { _ in StreamLogCapture(lines: lines) }
    }
}

/// A logger that drops everything, for tests that do not read the logs.
let streamQuietLogger = Logger(label: "LiveFirebase.stream") { _ in SwiftLogNoOpLogHandler() }
