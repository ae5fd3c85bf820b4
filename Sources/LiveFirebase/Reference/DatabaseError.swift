// DatabaseError.swift — every error LiveFirebase reports.
import LiveModel

/// What went wrong talking to a database, worded for the person who has to
/// act on it. No case ever carries a token: URLs in errors have their
/// `auth` and `access_token` parameters removed.
public enum DatabaseError: Error, Sendable, Hashable {
    /// The database URL cannot be used (scheme, host, path or `ns`).
    case invalidURL(String, reason: String)
    /// The query cannot be asked (for example `startAt` with an object, or
    /// a key tie-break under `orderByKey`).
    case invalidQuery(String)
    /// A value cannot be written (for example it cannot be encoded as JSON).
    case invalidValue(String)
    /// The server answered with an error status. `message` is the server's
    /// own `error` text when it sent one; `url` is redacted.
    case http(status: Int, message: String, url: String)
    /// The credential was refused (401) or the rules deny access (403 or a
    /// stream `cancel`).
    case permissionDenied(String)
    /// A conditional write's ETag no longer matches: `currentETag` and
    /// `currentValue` are the server's, to retry against.
    case etagMismatch(currentETag: String, currentValue: JSONValue)
    /// The server revoked the credential (`auth_revoked`) and no provider
    /// could give a new one.
    case authRevoked
    /// The credentials provider failed; its error's description.
    case credentialsUnavailable(String)
    /// The connection failed or closed (the underlying description).
    case transport(String)
    /// The server's answer is not what the protocol allows (malformed JSON,
    /// an unknown event shape, a redirect without a location).
    case invalidResponse(String)
    /// Too many redirects in a row (a loop).
    case tooManyRedirects(Int)
    /// The collection was stopped before the data asked for had loaded.
    case stopped
    /// The disk cache (``CollectionCache``) could not be written: the file
    /// and the system's reason. What was saved before stays.
    case cache(String)
    /// A write may have reached the server (an attempt to send it failed,
    /// or the process ended, before its answer came), so whether the server
    /// applied it is unknown, and sending it again could apply it twice (it
    /// holds a server value such as an increment): it is not sent again,
    /// and the server's data shows.
    case writeOutcomeUnknown(String)
}

extension DatabaseError: CustomStringConvertible {
    /// The error in words, with what it carries; never a token.
    public var description: String {
        switch self {
        case .invalidURL(let url, let reason): return "invalid database URL \(url): \(reason)"
        case .invalidQuery(let reason): return "invalid query: \(reason)"
        case .invalidValue(let reason): return "invalid value: \(reason)"
        case .http(let status, let message, let url): return "HTTP \(status) from \(url): \(message)"
        case .permissionDenied(let message): return "permission denied: \(message)"
        case .etagMismatch(let etag, _): return "the value changed since it was read (current ETag \(etag))"
        case .authRevoked: return "the server revoked the credential and it could not be renewed"
        case .credentialsUnavailable(let reason): return "no credential: the provider failed: \(reason)"
        case .transport(let reason): return "connection failed: \(reason)"
        case .invalidResponse(let reason): return "invalid response from the server: \(reason)"
        case .tooManyRedirects(let n): return "too many redirects (\(n))"
        case .stopped: return "stopped before the data had loaded"
        case .cache(let reason): return "the disk cache could not be written: \(reason)"
        case .writeOutcomeUnknown(let reason): return "the write's outcome is unknown: \(reason)"
        }
    }
}
