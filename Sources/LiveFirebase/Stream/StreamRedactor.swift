// StreamRedactor.swift — keeps the tokens a stream used out of the errors
// it reports and the lines it logs.
import Foundation

/// Remembers the tokens a stream sent and removes them from any text:
/// URLs are redacted already, but a transport's error description or a
/// server's message could still quote one.
struct StreamRedactor: Sendable {
    /// Tokens shorter than this are not searched for (they would mangle
    /// ordinary text); real tokens are far longer.
    static let minimumLength = 4

    private var secrets: [String] = []

    /// Remembers the token of `credential`.
    mutating func remember(_ credential: Credential?) {
        guard let token = credential?.token, token.utf8.count >= Self.minimumLength else { return }
        for form in [token, QueryEncoding.percentEncode(token)] where !secrets.contains(form) {
            secrets.append(form)
        }
        // Longest first, so that a token containing another is removed whole.
        secrets.sort { $0.utf8.count > $1.utf8.count }
    }

    /// `text` with URL tokens and every remembered token removed.
    /// - Complexity: O(length of the text × number of tokens).
    func scrub(_ text: String) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: "<redacted>")
        }
        return result
    }

    /// `error` with every text scrubbed.
    func scrub(_ error: DatabaseError) -> DatabaseError {
        switch error {
        case .invalidURL(let url, let reason): return .invalidURL(scrub(url), reason: scrub(reason))
        case .invalidQuery(let reason): return .invalidQuery(scrub(reason))
        case .invalidValue(let reason): return .invalidValue(scrub(reason))
        case .http(let status, let message, let url):
            return .http(status: status, message: scrub(message), url: scrub(QueryEncoding.redact(url)))
        case .permissionDenied(let message): return .permissionDenied(scrub(message))
        case .etagMismatch: return error
        case .authRevoked: return error
        case .credentialsUnavailable(let reason): return .credentialsUnavailable(scrub(reason))
        case .transport(let reason): return .transport(scrub(reason))
        case .invalidResponse(let reason): return .invalidResponse(scrub(reason))
        case .tooManyRedirects, .stopped: return error
        case .cache(let reason): return .cache(scrub(reason))
        case .writeOutcomeUnknown(let reason): return .writeOutcomeUnknown(scrub(reason))
        }
    }

    /// `message` with its error scrubbed.
    func scrub(_ message: StreamMessage) -> StreamMessage {
        switch message {
        case .disconnected(let error, let delay): return .disconnected(scrub(error), retryAfter: delay)
        case .ended(let error?): return .ended(scrub(error))
        case .connected, .receiving, .put, .patch, .renewingCredential, .ended(nil): return message
        }
    }

    /// A description of a transport failure: URL loading, HTTP client and
    /// socket errors by their meaning (URL loading errors quote the URL,
    /// token included), others scrubbed.
    func describe(_ error: any Error) -> String {
        #if canImport(AsyncHTTPClient)
        if let meaning = HTTPClientFailure.meaning(of: error) { return scrub(meaning) }
        #endif
        let ns = error as NSError
        guard ns.domain == NSURLErrorDomain else { return scrub(String(describing: error)) }
        let meaning: String
        switch ns.code {
        case -999: meaning = "cancelled"
        case -1001: meaning = "timed out"
        case -1003: meaning = "cannot find the host"
        case -1004: meaning = "cannot connect to the host"
        case -1005: meaning = "the network connection was lost"
        case -1009: meaning = "not connected to the internet"
        case -1011: meaning = "bad server response"
        case -1017: meaning = "cannot parse the response"
        case -1200: meaning = "secure connection failed"
        case -1201, -1202, -1203, -1204: meaning = "the server's certificate is not trusted"
        default: meaning = "URL loading error"
        }
        return "\(meaning) (NSURLErrorDomain \(ns.code))"
    }
}
