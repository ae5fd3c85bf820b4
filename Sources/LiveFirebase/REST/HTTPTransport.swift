// HTTPTransport.swift — how the REST client sends one HTTP request, the
// transport over URLSession, and the platform's default.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request and returns the whole response.
///
/// A transport must *not* follow redirects: ``DatabaseClient`` follows `307`
/// and `308` itself, so that the method, the body and the credential are
/// kept. Give your own transport to add headers, route through a proxy, or
/// answer requests in tests.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response body and head, whatever the
    /// status (a `4xx` or `5xx` is a response, not an error).
    /// - Throws: Any error when no response arrives (the client reports it
    ///   as ``DatabaseError/transport(_:)``, without the request's token).
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// An ``HTTPTransport`` on a `URLSession` that returns redirects to the
/// caller instead of following them: the default on Apple platforms (see
/// ``PlatformHTTPTransport``).
public final class URLSessionHTTPTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: both properties are immutable, and URLSession is safe to
    // use from any thread.
    private let session: URLSession
    private let delegate: RedirectRefusingDelegate

    /// A transport shared by clients that do not give one.
    public static let shared = URLSessionHTTPTransport()

    /// A transport over a new session with `configuration` (the default one
    /// when not given).
    public init(configuration: URLSessionConfiguration = .default) {
        let delegate = RedirectRefusingDelegate()
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` over the session; a redirect comes back as the
    /// response it is.
    /// - Throws: The session's `URLError` when no response arrives.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        return (data, http)
    }
}

/// Refuses every redirection, so that the `3xx` response itself reaches the
/// client.
private final class RedirectRefusingDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    // @unchecked: no state.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}

#if canImport(AsyncHTTPClient)
/// The transport a ``DatabaseClient`` sends with unless it is given another:
/// ``HTTPClientHTTPTransport`` here, the same stack as the streams'.
public typealias PlatformHTTPTransport = HTTPClientHTTPTransport
#else
/// The transport a ``DatabaseClient`` sends with unless it is given
/// another: ``URLSessionHTTPTransport``, the system's own.
public typealias PlatformHTTPTransport = URLSessionHTTPTransport
#endif
