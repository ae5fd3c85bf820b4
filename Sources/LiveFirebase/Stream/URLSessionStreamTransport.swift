// URLSessionStreamTransport.swift — the stream transport on Foundation's
// URLSession, delivering the body as it arrives.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``StreamTransport`` on one `URLSession` (FoundationNetworking on
/// Linux) whose delegate routes each task's response and data to the
/// sequence that opened it.
///
/// It hands the body over chunk by chunk as it arrives, refuses to follow
/// redirects (the redirect response itself is reported, so the stream
/// follows it with its credential), disables caching, and leaves silence
/// to the stream's keep-alive timer: its own timeouts are a day long.
/// Stopping the iteration cancels the task. The session lives as long as
/// the transport and is invalidated with it.
///
/// On Linux, FoundationNetworking can stop the process when a task is
/// cancelled just as it completes (its task registry no longer holds the
/// task). The transport never cancels a task it has seen complete, which
/// leaves that window small but open; ``HTTPClientStreamTransport`` is the
/// default there.
public final class URLSessionStreamTransport: StreamTransport, @unchecked Sendable {
    // @unchecked: `session` is immutable and URLSession is thread-safe; the
    // router guards its own state.
    private let session: URLSession
    private let router: Router

    /// How long a request may wait for its next byte before the session
    /// itself gives up; the stream's keep-alive timeout is much shorter.
    private static let idleTimeout: TimeInterval = 24 * 3600

    /// A transport with its own session, configured from `configuration`
    /// (proxies, TLS and headers are kept; caching and short timeouts are
    /// turned off).
    public init(configuration: URLSessionConfiguration = .default) {
        let settings = (configuration.copy() as? URLSessionConfiguration) ?? .default
        settings.timeoutIntervalForRequest = Self.idleTimeout
        settings.timeoutIntervalForResource = 7 * Self.idleTimeout
        settings.requestCachePolicy = .reloadIgnoringLocalCacheData
        settings.urlCache = nil
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "LiveFirebase.stream"
        router = Router()
        session = URLSession(configuration: settings, delegate: router, delegateQueue: queue)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Starts a data task for `request` and reports its response and body.
    /// - Complexity: O(1); the body is copied once per chunk.
    public func open(_ request: URLRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        var request = request
        request.timeoutInterval = Self.idleTimeout
        request.cachePolicy = .reloadIgnoringLocalCacheData
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: TransportEvent.self)
        let task = session.dataTask(with: request)
        let id = task.taskIdentifier
        router.add(id, continuation)
        let cancel = TaskCanceller(task: task)
        continuation.onTermination = { [router] _ in
            // A task that has completed is not cancelled: FoundationNetworking
            // traps when a task is cancelled as it completes (its task
            // registry no longer holds it), so the window is kept small.
            if router.remove(id) { cancel.cancel() }
        }
        task.resume()
        return stream
    }
}

/// Lets a task be cancelled from a `@Sendable` closure.
private struct TaskCanceller: @unchecked Sendable {
    // @unchecked: URLSessionTask.cancel() may be called from any thread.
    let task: URLSessionTask
    func cancel() { task.cancel() }
}

/// The session's delegate: routes each task's events to its continuation.
private final class Router: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: `continuations` is only touched under `lock`.
    private let lock = NSLock()
    private var continuations: [Int: AsyncThrowingStream<TransportEvent, any Error>.Continuation] = [:]

    func add(_ id: Int, _ continuation: AsyncThrowingStream<TransportEvent, any Error>.Continuation) {
        lock.withLock { continuations[id] = continuation }
    }

    /// Forgets task `id`; whether it had not completed yet.
    func remove(_ id: Int) -> Bool {
        lock.withLock { continuations.removeValue(forKey: id) != nil }
    }

    private func continuation(_ id: Int) -> AsyncThrowingStream<TransportEvent, any Error>.Continuation? {
        lock.withLock { continuations[id] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        continuation(dataTask.taskIdentifier)?.yield(Self.event(response))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard !data.isEmpty else { return }
        continuation(dataTask.taskIdentifier)?.yield(.bytes([UInt8](data)))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let continuation = lock.withLock { continuations.removeValue(forKey: task.taskIdentifier) }
        if let error {
            continuation?.finish(throwing: error)
        } else {
            continuation?.finish()
        }
    }

    /// The response head as a transport event, header names lowercased.
    private static func event(_ response: URLResponse) -> TransportEvent {
        guard let http = response as? HTTPURLResponse else { return .response(status: 0, headers: [:]) }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            guard let name = name as? String else { continue }
            headers[name.lowercased()] = value as? String ?? String(describing: value)
        }
        return .response(status: http.statusCode, headers: headers)
    }
}
