// StreamTransport.swift — the connection a database stream reads from,
// behind a protocol so tests can script it.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a ``StreamTransport`` reports about one request, in order: one
/// ``response(status:headers:)``, then the body as ``bytes(_:)`` chunks as
/// they arrive.
public enum TransportEvent: Sendable, Hashable {
    /// The response head. Header names are in lower case.
    case response(status: Int, headers: [String: String])
    /// The next chunk of the body.
    case bytes([UInt8])
}

/// Opens streaming HTTP requests for a ``DatabaseStream``.
///
/// ``PlatformStreamTransport`` is the real one (`HTTPClientStreamTransport`
/// on Linux, ``URLSessionStreamTransport`` on Apple platforms); a test can
/// substitute a transport that replays a script.
///
/// A transport must deliver the body incrementally (a stream never ends on
/// its own), must not follow redirects itself (the stream follows them,
/// keeping its credential, and counts them), and must close the connection
/// when the consumer stops iterating the returned sequence.
public protocol StreamTransport: Sendable {
    /// Sends `request` and reports its response.
    ///
    /// The sequence finishes when the server closes the connection, and
    /// throws when the connection fails. Ending the iteration (or
    /// cancelling the iterating task) closes the connection.
    func open(_ request: URLRequest) -> AsyncThrowingStream<TransportEvent, any Error>
}

#if canImport(AsyncHTTPClient)
/// The transport a stream opens its connections with unless it is given
/// another: ``HTTPClientStreamTransport`` here, where `URLSession` would keep
/// a core busy while a stream is idle.
public typealias PlatformStreamTransport = HTTPClientStreamTransport
#else
/// The transport a stream opens its connections with unless it is given
/// another: ``URLSessionStreamTransport``, the system's own.
public typealias PlatformStreamTransport = URLSessionStreamTransport
#endif
