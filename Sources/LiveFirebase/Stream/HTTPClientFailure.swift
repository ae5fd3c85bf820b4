// HTTPClientFailure.swift — what an AsyncHTTPClient or SwiftNIO failure
// means, in words a user can act on.
#if canImport(AsyncHTTPClient)
import AsyncHTTPClient
import Foundation
import NIOCore

/// Describes the failures of ``HTTPClientStreamTransport``: their own
/// descriptions are type names (`HTTPClientError.connectTimeout`) or carry
/// a system error's wording in a form users do not read easily.
enum HTTPClientFailure {
    /// What `error` means, or nil when it is not a client or socket error.
    static func meaning(of error: any Error) -> String? {
        if let io = error as? IOError {
            return "\(socketMeaning(io.errnoCode)) (errno \(io.errnoCode))"
        }
        guard let client = error as? HTTPClientError else { return nil }
        let meanings: [(HTTPClientError, String)] = [
            (.connectTimeout, "timed out connecting to the server"),
            (.tlsHandshakeTimeout, "timed out securing the connection"),
            (.remoteConnectionClosed, "the server closed the connection"),
            (.readTimeout, "the server stopped sending"),
            (.writeTimeout, "the server stopped reading"),
            (.cancelled, "cancelled"),
            (.deadlineExceeded, "cancelled"),
            (.invalidURL, "the URL cannot be requested"),
            (.emptyHost, "the URL has no host"),
            (.alreadyShutdown, "the transport was released"),
            (.invalidProxyResponse, "the proxy's response could not be read"),
            (.proxyAuthenticationRequired, "the proxy requires authentication"),
        ]
        let meaning = meanings.first { $0.0 == client }?.1 ?? "the request failed"
        return "\(meaning) (\(client))"
    }

    /// Whether `error` says no connection was made: refused, unreachable,
    /// timed out connecting or securing, or the host not found.
    static func neverConnected(_ error: any Error) -> Bool {
        if let io = error as? IOError {
            return [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ENETDOWN].contains(io.errnoCode)
        }
        if error is SocketAddressError { return true }
        if let channel = error as? ChannelError, case .connectTimeout = channel { return true }
        guard let client = error as? HTTPClientError else { return false }
        return [.connectTimeout, .tlsHandshakeTimeout, .invalidURL, .emptyHost].contains(client)
    }

    private static func socketMeaning(_ code: Int32) -> String {
        switch code {
        case ECONNREFUSED: return "could not connect to the server: connection refused"
        case ECONNRESET: return "the connection was reset"
        case ETIMEDOUT: return "timed out"
        case EHOSTUNREACH, ENETUNREACH: return "the server cannot be reached"
        case EPIPE: return "the connection was lost"
        default: return "connection error: \(String(cString: strerror(code)))"
        }
    }
}
#endif
