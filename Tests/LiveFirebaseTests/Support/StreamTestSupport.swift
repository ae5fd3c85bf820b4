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
final class StreamFakeTransport: StreamTransport, @unchecked Sendable {
    enum Step: Sendable {
        case event(TransportEvent)
        /// The server closes the connection.
        case end
        /// The connection fails.
        case fail(any Error)
    }

    private struct Connection {
        let request: URLRequest
        let continuation: AsyncThrowingStream<TransportEvent, any Error>.Continuation
        var closed = false
    }

    private let lock = NSLock()
    private var scripts: [[Step]]
    private let fallback: [Step]
    private var connections: [Connection] = []

    /// - Parameters:
    ///   - scripts: One per connection, in order.
    ///   - fallback: The script of every connection after those.
    init(_ scripts: [[Step]], fallback: [Step] = []) {
        self.scripts = scripts
        self.fallback = fallback
    }

    func open(_ request: URLRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: TransportEvent.self)
        let (index, script) = lock.withLock {
            connections.append(Connection(request: request, continuation: continuation))
            return (connections.count - 1, scripts.isEmpty ? fallback : scripts.removeFirst())
        }
        continuation.onTermination = { [weak self] _ in
            self?.lock.withLock { self?.connections[index].closed = true }
        }
        play(script, on: continuation)
        return stream
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
    var requests: [URLRequest] { lock.withLock { connections.map(\.request) } }
    /// How many connections were opened.
    var count: Int { lock.withLock { connections.count } }
    /// Whether connection `index` was closed by its consumer or finished.
    func isClosed(_ index: Int) -> Bool { lock.withLock { connections[index].closed } }

    /// Plays `steps` on the latest connection.
    func push(_ steps: [Step]) {
        guard let continuation = lock.withLock({ connections.last?.continuation }) else { return }
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
    // @unchecked: `recorded` is guarded by `lock`; `task` is set once in init.
    private let lock = NSLock()
    private var recorded: [StreamMessage] = []
    private var task: Task<Void, Never>?

    init(_ stream: AsyncStream<StreamMessage>) {
        task = Task { [self] in
            for await message in stream { lock.withLock { recorded.append(message) } }
        }
    }

    /// The messages so far.
    var messages: [StreamMessage] { lock.withLock { recorded } }

    /// Stops consuming (ending the iteration).
    func cancel() {
        task?.cancel()
    }

    /// The messages, summarised.
    var summaries: [String] { messages.map(\.summary) }

    /// Waits until the summaries satisfy `condition`.
    func waitFor(_ seconds: Double = 10, _ condition: @Sendable ([String]) -> Bool) async -> Bool {
        await eventually(seconds) { condition(summaries) }
    }

    /// Waits until a summary starting with `prefix` arrived (at least
    /// `count` of them).
    func waitFor(_ prefix: String, count: Int = 1, _ seconds: Double = 10) async -> Bool {
        await waitFor(seconds) { $0.filter { $0.hasPrefix(prefix) }.count >= count }
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
