// HTTPClientSettings.swift — how this package configures AsyncHTTPClient,
// for streams and for REST requests alike.
#if canImport(AsyncHTTPClient)
import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1

enum HTTPClientSettings {
    /// How long connecting to the server (and the TLS handshake) may take.
    static let connectTimeout: Duration = .seconds(30)

    /// A client on NIO's shared event loops that does not follow redirects
    /// (the callers do, keeping their credential), does not decompress, and
    /// reports a failed connection at once rather than retrying it until the
    /// connect timeout (a stream retries with its own backoff and tells its
    /// consumer; a request fails as it does with URLSession). `read` is how
    /// long a response may pause between bytes (nil: for ever).
    static func client(readTimeout read: Duration?) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: amount(connectTimeout),
                                                                 read: read.map(amount))
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// `request` as AsyncHTTPClient's request: its URL, method, headers and
    /// body; with `ownConnection`, on a connection that is closed after it
    /// (`Connection: close`) rather than kept in the pool.
    static func request(_ request: URLRequest, ownConnection: Bool) throws(TransportRequestError) -> HTTPClientRequest {
        guard let url = request.url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw TransportRequestError(url: request.url)
        }
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            outgoing.headers.add(name: name, value: value)
        }
        if ownConnection { outgoing.headers.replaceOrAdd(name: "Connection", value: "close") }
        if let body = request.httpBody {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        return outgoing
    }

    private static func amount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }
}
#endif
