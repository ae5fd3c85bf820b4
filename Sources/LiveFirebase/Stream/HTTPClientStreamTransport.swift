// HTTPClientStreamTransport.swift — the stream transport on AsyncHTTPClient
// (SwiftNIO), the default where Foundation's URLSession runs on libcurl.
#if canImport(AsyncHTTPClient)
import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1

/// A ``StreamTransport`` on one AsyncHTTPClient `HTTPClient` (SwiftNIO, with
/// TLS by swift-nio-ssl), sharing NIO's singleton event loops.
///
/// It is the default on Linux: there, FoundationNetworking's `URLSession`
/// keeps a core busy for as long as a streaming request waits for its next
/// byte, which an open database stream does nearly all the time. Here an
/// idle stream costs no CPU: its socket waits in the event loop's `epoll`.
///
/// Like ``URLSessionStreamTransport``, it hands the body over chunk by chunk
/// as it arrives, does not follow redirects (the redirect response itself is
/// reported, so the stream follows it with its credential), does not
/// decompress, and leaves silence to the stream's keep-alive timer: it has
/// no read timeout. Connecting times out after ``connectTimeout``, and a
/// failed connection is reported at once: the stream retries with its own
/// backoff, not the client's connection pool. Stopping
/// the iteration, or cancelling the iterating task, closes the connection.
/// The client is shut down when the transport is released.
public final class HTTPClientStreamTransport: StreamTransport {
    /// How long connecting to the server (and the TLS handshake) may take.
    public static var connectTimeout: Duration { HTTPClientSettings.connectTimeout }

    private let client: HTTPClient

    /// A transport with a client of its own on NIO's shared event loops.
    public init() {
        client = HTTPClientSettings.client(readTimeout: nil)
    }

    deinit {
        // The client stays alive until its shutdown completes.
        client.shutdown { _ in }
    }

    /// Sends `request` and reports its response head, then its body chunk by
    /// chunk.
    /// - Complexity: O(1); each chunk is copied once.
    public func open(_ request: URLRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: TransportEvent.self)
        let outgoing: HTTPClientRequest
        do {
            // A stream's connection is its own: never taken from the pool
            // (where the server may just have closed it) nor given back to it.
            outgoing = try HTTPClientSettings.request(request, ownConnection: true)
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        let task = Task { [client] in
            do {
                let response = try await client.execute(outgoing, deadline: .distantFuture)
                continuation.yield(.response(status: Int(response.status.code), headers: Self.headers(response.headers)))
                for try await buffer in response.body where buffer.readableBytes > 0 {
                    continuation.yield(.bytes(Array(buffer.readableBytesView)))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// The response's headers, names in lower case; repeated names joined
    /// by commas as HTTP allows.
    static func headers(_ headers: HTTPHeaders) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in headers {
            let name = name.lowercased()
            if let earlier = result[name] {
                result[name] = earlier + ", " + value
            } else {
                result[name] = value
            }
        }
        return result
    }
}

/// A request a transport cannot send: it has no URL, or its URL is not
/// `http` or `https`.
public struct TransportRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request's URL, if it had one.
    public let url: URL?

    /// The error in words, with the URL's tokens removed.
    public var description: String {
        "the request has no http or https URL (\(url.map { QueryEncoding.redact($0.absoluteString) } ?? "none"))"
    }
}
#endif
