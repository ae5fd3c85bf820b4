// HTTPClientSettings.swift — how this package configures AsyncHTTPClient,
// for streams and for REST requests alike.
#if canImport(AsyncHTTPClient)
import AsyncHTTPClient
import NIOCore

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

    private static func amount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }
}
#endif
