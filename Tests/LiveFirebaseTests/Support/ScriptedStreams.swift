// ScriptedStreams.swift — a stream opener whose streams a test feeds.

import Foundation
import LiveFirebase
import LiveModel

/// Opens streams that send what the test tells them, by location path.
final class ScriptedStreams: @unchecked Sendable {
    private let lock = NSLock()
    private var open: [String: IsolatedStream<StreamMessage>.Continuation] = [:]
    private(set) var opened: [String] = []

    var opener: StreamOpener {
        StreamOpener { [self] reference, _ in
            let (messages, continuation) = IsolatedStream.makeStream(of: StreamMessage.self)
            lock.withLock {
                open[reference.path.description] = continuation
                opened.append(reference.path.description)
            }
            return OpenedStream(messages: messages) { continuation.finish() }
        }
    }

    var openPaths: Set<String> { lock.withLock { Set(open.keys) } }

    /// Sends a `put` (or `patch`) of `json` at `at` on the stream of `location`.
    func send(_ location: String, _ json: String, at: String = "/", kind: StreamPayload.Kind = .put,
              order: QueryOrder = .priority) throws {
        let text = #"{"path":"# + JSONValue.string(at).jsonText() + #","data":"# + json + "}"
        let payload = try StreamPayload.parse(json: text, kind: kind, order: order)
        let continuation = lock.withLock { open[location] }
        continuation?.yield(kind == .put ? .put(payload) : .patch(payload))
    }
}
