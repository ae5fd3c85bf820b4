// DatabaseReference.swift — a location in a database, with the credentials
// used to reach it.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LiveModel

/// A location in a Realtime Database and the credentials to reach it: what
/// the REST client, the stream and the Firebase collection are given.
public struct DatabaseReference: Sendable, CustomStringConvertible {
    /// The database.
    public let database: DatabaseURL
    /// The location in it.
    public let path: DatabasePath
    /// How requests are authorised.
    public let credentials: Credentials

    /// The location `path` (the root by default) of `database`, reached with
    /// `credentials` (none by default).
    public init(database: DatabaseURL, path: DatabasePath = .root, credentials: Credentials = .none) {
        self.database = database
        self.path = path
        self.credentials = credentials
    }

    /// Parses `url` and `path` (for example `"/rooms/lobby/messages"`).
    /// - Throws: ``DatabaseError/invalidURL(_:reason:)`` for a bad URL or
    ///   path (the path's `KeyError` is described in the reason).
    public init(url: String, path: String = "/", credentials: Credentials = .none) throws(DatabaseError) {
        let database = try DatabaseURL(url)
        let parsed: DatabasePath
        do { parsed = try DatabasePath(path) } catch { throw .invalidURL(path, reason: error.description) }
        self.init(database: database, path: parsed, credentials: credentials)
    }

    /// The reference to a location below this one.
    /// - Throws: ``DatabaseError/invalidURL(_:reason:)`` when the joined
    ///   path would be deeper than 32 segments or longer than 768 bytes.
    public func child(_ relative: DatabasePath) throws(DatabaseError) -> DatabaseReference {
        let joined: DatabasePath
        do { joined = try path.appending(relative) } catch {
            throw .invalidURL("\(path)\(relative.isRoot ? "" : relative.description)", reason: error.description)
        }
        return DatabaseReference(database: database, path: joined, credentials: credentials)
    }

    /// A request for this location (or `url`, a redirect target), with the
    /// credential applied.
    func request(method: String, parameters: [(name: String, value: String)] = [], url: URL? = nil,
                 accept: String = "application/json", body: Data? = nil,
                 credential: Credential?) -> URLRequest {
        var request = URLRequest(url: url ?? database.restURL(for: path, parameters: parameters))
        request.httpMethod = method
        request.setValue(accept, forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        credential?.apply(to: &request)
        return request
    }

    /// The database URL followed by the path; credentials are never shown.
    public var description: String { "\(database)\(path)" }
}
