// DatabaseClient.swift — the REST client of a database location.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LiveModel
import Logging

/// Reads and writes a Realtime Database through its REST API: `get` (with a
/// query), `set`, `update` (multi-path), `push`, `remove`, and conditional
/// writes with ETags.
///
/// ```swift
/// let reference = try DatabaseReference(url: "https://my-app-default-rtdb.firebaseio.com",
///                                       path: "/rooms/lobby",
///                                       credentials: .fixed(.idToken(idToken)))
/// let client = DatabaseClient(reference)
/// let key = try await client.push(["text": "hello"], at: "messages")
/// let recent = try await client.get("messages", query: DatabaseQuery(order: .key).limited(toLast: 20))
/// ```
///
/// Paths given to the methods are relative to the reference's location.
///
/// **Credentials.** Before each request the client asks
/// ``DatabaseReference/credentials`` for a credential (a provider should
/// cache its token). When the server refuses it (`401`) and the
/// credentials come from a provider, the client asks again with
/// `forceRefresh: true` and retries once.
///
/// **Redirects.** `307` and `308` are followed by the client, keeping the
/// method, the body and the credential, at most five in a row; a redirect
/// from `https` to `http` is refused.
///
/// **Errors.** Every method throws a ``DatabaseError``; no error and no log
/// message ever contains a token. Requests are logged at debug level to the
/// logger `LiveFirebase.rest`, URLs redacted.
public struct DatabaseClient: Sendable {
    /// The location paths are relative to, and the credentials.
    public let reference: DatabaseReference
    /// What sends the requests.
    public let transport: any HTTPTransport
    let logger: Logger

    /// Most redirects followed in a row.
    public static let maxRedirects = 5

    /// A client of `reference`.
    /// - Parameters:
    ///   - reference: The location paths are relative to, and the credentials.
    ///   - transport: What sends the requests; ``PlatformHTTPTransport`` by default.
    ///   - logger: Where requests are logged (debug level).
    public init(_ reference: DatabaseReference, transport: any HTTPTransport = PlatformHTTPTransport.shared,
                logger: Logger = Logger(label: "LiveFirebase.rest")) {
        self.reference = reference
        self.transport = transport
        self.logger = logger
    }

    /// The absolute path of `relative`.
    /// - Throws: ``DatabaseError/invalidURL(_:reason:)`` when the joined path
    ///   is deeper or longer than a path may be.
    func absolute(_ relative: DatabasePath) throws(DatabaseError) -> DatabasePath {
        do {
            return try reference.path.appending(relative)
        } catch {
            throw .invalidURL("\(reference.path)\(relative)", reason: error.description)
        }
    }
}
