// RESTRedaction.swift — keeping tokens out of error messages and logs.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Removes tokens from text the client did not write itself: transport
/// error descriptions (which may quote the whole request URL), server
/// error messages and parse errors.
enum RESTRedaction {
    /// `text` with every occurrence of each secret (as is, and as it appears
    /// percent-encoded in a URL) replaced by `<redacted>`, and URL query
    /// values of `auth` and `access_token` removed.
    /// - Complexity: O(length of the text × number of secrets).
    static func scrub(_ text: String, secrets: [String]) -> String {
        var out = text
        for secret in secrets where !secret.isEmpty {
            for form in Set([secret, QueryEncoding.percentEncode(secret)]) {
                out = out.replacingOccurrences(of: form, with: "<redacted>")
            }
        }
        return out
    }

    /// The tokens a credential puts on the wire.
    static func secrets(of credential: Credential?) -> [String] {
        credential.map { [$0.token] } ?? []
    }

    /// A readable description of a transport failure, without the URL the
    /// underlying error may carry.
    static func describe(_ error: any Error, secrets: [String]) -> String {
        if let urlError = error as? URLError {
            return "\(reason(urlError.code)) (URLError \(urlError.code.rawValue))"
        }
        if error is CancellationError { return "cancelled" }
        #if canImport(AsyncHTTPClient)
        if let meaning = HTTPClientFailure.meaning(of: error) { return scrub(meaning, secrets: secrets) }
        #endif
        return scrub(String(describing: error), secrets: secrets)
    }

    /// Whether `error` says no connection to the server was made (no
    /// network, the host not found, the connection refused or not secured),
    /// so a request it failed was never sent.
    static func neverConnected(_ error: any Error) -> Bool {
        if let urlError = error as? URLError {
            let unsent: Set<URLError.Code> = [
                .cannotFindHost, .dnsLookupFailed, .cannotConnectToHost, .notConnectedToInternet,
                .internationalRoamingOff, .dataNotAllowed, .callIsActive, .secureConnectionFailed,
                .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
                .serverCertificateHasUnknownRoot, .clientCertificateRejected, .appTransportSecurityRequiresSecureConnection,
            ]
            return unsent.contains(urlError.code)
        }
        #if canImport(AsyncHTTPClient)
        return HTTPClientFailure.neverConnected(error)
        #else
        return false
        #endif
    }

    private static func reason(_ code: URLError.Code) -> String {
        switch code {
        case .cancelled: return "cancelled"
        case .timedOut: return "the request timed out"
        case .cannotFindHost, .dnsLookupFailed: return "the host could not be found"
        case .cannotConnectToHost: return "could not connect to the server"
        case .networkConnectionLost: return "the connection was lost"
        case .notConnectedToInternet: return "not connected to a network"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return "the secure connection failed"
        case .badServerResponse: return "the server's response could not be read"
        case .zeroByteResource: return "the server sent no data"
        case .dataLengthExceedsMaximum: return "the response is too large"
        default: return "the request failed"
        }
    }
}
