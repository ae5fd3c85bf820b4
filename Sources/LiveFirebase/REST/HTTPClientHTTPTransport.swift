// HTTPClientHTTPTransport.swift — the REST transport on AsyncHTTPClient
// (SwiftNIO), the default where Foundation's URLSession runs on libcurl.
#if canImport(AsyncHTTPClient)
import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore

/// An ``HTTPTransport`` on one AsyncHTTPClient `HTTPClient` (SwiftNIO, with
/// TLS by swift-nio-ssl) on NIO's shared event loops: the default on Linux,
/// where the streams use the same stack (``HTTPClientStreamTransport``).
///
/// It does not follow redirects (``DatabaseClient`` does, keeping the
/// method, body and credential), does not decompress, keeps connections
/// alive between requests, fails at once when the server cannot be reached,
/// and fails a request when the server sends nothing for ``idleTimeout`` (as
/// `URLSession`'s request timeout does).
public final class HTTPClientHTTPTransport: HTTPTransport {
    /// How long a request may wait for its next byte.
    public static let idleTimeout: Duration = .seconds(60)

    /// A transport shared by clients that do not give one. It lives as long
    /// as the process.
    public static let shared = HTTPClientHTTPTransport()

    private let client: HTTPClient
    /// The largest response body taken; a larger one fails the request.
    public let maxResponseBytes: Int

    /// A transport with a client of its own; it is shut down when the
    /// transport is released.
    /// - Parameter maxResponseBytes: The largest response body taken (256
    ///   MiB by default, the most a Realtime Database serves in one
    ///   response); a larger one fails the request rather than fill memory.
    public init(maxResponseBytes: Int = 256 << 20) {
        client = HTTPClientSettings.client(readTimeout: Self.idleTimeout)
        self.maxResponseBytes = max(0, maxResponseBytes)
    }

    deinit {
        // The client stays alive until its shutdown completes.
        client.shutdown { _ in }
    }

    /// Sends `request` and collects the whole response body; a redirect
    /// comes back as the response it is.
    /// - Throws: The client's error when no complete response arrives;
    ///   ``ResponseTooLarge`` past ``maxResponseBytes``.
    /// - Complexity: O(size of the body), copied once.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        // REST requests share kept-alive connections.
        let outgoing = try HTTPClientSettings.request(request, ownConnection: false)
        let response = try await client.execute(outgoing, deadline: .distantFuture)
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: maxResponseBytes)
        } catch is NIOTooManyBytesError {
            throw ResponseTooLarge(limit: maxResponseBytes)
        }
        let data = Data(body.readableBytesView)
        guard let url = request.url,
              let head = HTTPURLResponse(url: url, statusCode: Int(response.status.code), httpVersion: "HTTP/1.1",
                                         headerFields: HTTPClientStreamTransport.headers(response.headers)) else {
            throw URLError(.badServerResponse)
        }
        return (data, head)
    }
}

/// A response body larger than the transport takes.
public struct ResponseTooLarge: Error, CustomStringConvertible {
    /// The most bytes taken.
    public let limit: Int
    /// What went wrong, with the limit.
    public var description: String { "the response is larger than \(limit) bytes, the most this transport takes" }
}
#endif
