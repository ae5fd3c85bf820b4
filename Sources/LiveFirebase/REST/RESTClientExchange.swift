// RESTClientExchange.swift — one REST request as the client plans it, and the
// response it gets back.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LiveModel

/// A request to one location, before credentials and redirects.
struct RESTClientRequest: Sendable {
    /// `GET`, `PUT`, `PATCH`, `POST` or `DELETE`.
    var method: String
    /// The location, from the database root.
    var path: DatabasePath
    /// Query parameters besides the credential and `ns`.
    var parameters: [(name: String, value: String)] = []
    /// Extra headers (`X-Firebase-ETag`, `if-match`).
    var headers: [(name: String, value: String)] = []
    /// The JSON body of a write.
    var body: Data?
}

/// A response, with what errors and logs may show of its request.
struct RESTClientResponse: Sendable {
    /// The HTTP status.
    let status: Int
    /// The body.
    let body: Data
    /// The `ETag` header, if any.
    let etag: String?
    /// The URL that answered, redacted, for errors.
    let url: String
    /// Tokens to keep out of anything derived from this response.
    let secrets: [String]

    /// The body parsed as a snapshot of `key`, children ordered by `order`.
    /// - Throws: ``DatabaseError/invalidResponse(_:)`` for a body that is
    ///   not valid JSON, with the parse error's position.
    func snapshot(key: Key?, order: QueryOrder) throws(DatabaseError) -> Snapshot {
        do {
            return try Snapshot.parse(json: body, key: key, order: order)
        } catch {
            throw malformed(error)
        }
    }

    /// The body parsed as a JSON value.
    func json() throws(DatabaseError) -> JSONValue {
        do {
            return try JSONValue(parsingUTF8: body)
        } catch {
            throw malformed(error)
        }
    }

    private func malformed(_ error: ParseError) -> DatabaseError {
        let text = "malformed JSON from \(url) (HTTP \(status), \(body.count) bytes): \(error.description)"
        return .invalidResponse(RESTRedaction.scrub(text, secrets: secrets))
    }
}
