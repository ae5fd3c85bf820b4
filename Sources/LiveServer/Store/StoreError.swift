import LiveModel

/// Why the store refused a request: an HTTP status and a message, worded as
/// the Realtime Database words it where its wording is known.
///
/// The store checks the data, keys, paths and query parameters it is given;
/// the HTTP layer answers with ``status`` and `{"error": message}`.
package struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status: 400 for bad data, keys, paths or queries, 404 for
    /// something absent, 412 for a failed condition, 413 for a write that
    /// is too large.
    package let status: Int
    /// What is wrong, in English.
    package let message: String

    /// Creates an error with any status.
    package init(status: Int, message: String) {
        self.status = status
        self.message = message
    }

    /// `400 Bad Request`: bad data, key, path or query.
    package static func badRequest(_ message: String) -> StoreError {
        StoreError(status: 400, message: message)
    }

    /// `404 Not Found`.
    package static func notFound(_ message: String) -> StoreError {
        StoreError(status: 404, message: message)
    }

    /// `412 Precondition Failed`: a conditional request whose ETag no longer
    /// matches.
    package static func preconditionFailed(_ message: String) -> StoreError {
        StoreError(status: 412, message: message)
    }

    /// A body that is not JSON.
    package static let invalidJSON = badRequest("Invalid data; couldn't parse JSON object, array, or value.")

    /// A conditional write whose `if-match` ETag differs from the current one.
    package static let etagMismatch = preconditionFailed("ETag mismatch")

    /// A write larger than the server accepts in one request.
    package static let writeTooLarge = StoreError(
        status: 413, message: "Data to write exceeds the maximum size that can be modified with a single request.")

    /// An invalid path, naming it and the rule it breaks.
    package static func invalidPath(_ error: KeyError) -> StoreError {
        badRequest("Invalid path: \(error.description)")
    }

    /// An invalid key in written data, naming the key and the rule it breaks.
    package static func invalidKey(_ error: KeyError) -> StoreError {
        badRequest("Invalid data; \(error.description)")
    }

    /// `"<status>: <message>"`.
    package var description: String { "\(status): \(message)" }
}
