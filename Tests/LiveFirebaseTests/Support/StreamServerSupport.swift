// StreamServerSupport.swift — writes to a LiveServer and a transport that
// watches the real one, for the stream tests.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import LiveFirebase
import LiveModel
import LiveServer

/// Writes `body` (JSON) at `path` of `server` with `method`, as `owner`,
/// which it first makes an accepted token (a server with tokens accepts
/// only those it is given).
func streamWrite(_ server: LiveServer, _ method: String, _ path: String, _ body: String) async throws {
    server.addToken("owner")
    var request = URLRequest(url: URL(string: "\(server.url)\(path).json?auth=owner")!)
    request.httpMethod = method
    // A write of megabytes can keep a debug server on a loaded machine
    // busy past URLRequest's default 60 s: wait for it.
    request.timeoutInterval = 600
    // One connection per write, closed after it: the shared session would
    // otherwise keep it for the next write, which may come after the
    // server closed it as idle (a stalled test) or from a later server
    // given the same port; a write sent on such a connection is reset,
    // and a request with a body is not retried.
    request.setValue("close", forHTTPHeaderField: "Connection")
    request.httpBody = Data(body.utf8)
    let (_, response) = try await URLSession.shared.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard status == 200 else { throw StreamWriteError(status: status) }
}

struct StreamWriteError: Error { let status: Int }

/// A reference to `path` of `server`.
func streamReference(_ server: LiveServer, _ path: String, _ credentials: Credentials = .none) throws -> DatabaseReference {
    try DatabaseReference(url: server.url, path: path, credentials: credentials)
}

/// Wraps a transport: records each request and lets a test act when a
/// connection opens or an event passes.
final class StreamWatchingTransport: StreamTransport, @unchecked Sendable {
    private let inner: any StreamTransport
    private let lock = NSLock()
    private var recorded: [URLRequest] = []
    private let onOpen: @Sendable (Int) -> Void
    private let onEvent: @Sendable (TransportEvent) -> Void

    init(_ inner: any StreamTransport = PlatformStreamTransport(), onOpen: @escaping @Sendable (Int) -> Void = { _ in },
         onEvent: @escaping @Sendable (TransportEvent) -> Void = { _ in }) {
        self.inner = inner
        self.onOpen = onOpen
        self.onEvent = onEvent
    }

    var requests: [URLRequest] { lock.withLock { recorded } }

    func open(_ request: URLRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        let index = lock.withLock {
            recorded.append(request)
            return recorded.count - 1
        }
        onOpen(index)
        let upstream = inner.open(request)
        let onEvent = onEvent
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await event in upstream {
                        onEvent(event)
                        continuation.yield(event)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
