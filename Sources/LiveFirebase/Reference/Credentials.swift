// Credentials.swift — how requests to a database are authorised, and how
// tokens are kept out of logs and errors.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One way of presenting a token to the Realtime Database REST API.
///
/// A credential's description never shows the token, so credentials can be
/// logged and put in errors safely.
public enum Credential: Sendable, Hashable {
    /// A Firebase ID token (or a database secret), sent as `auth=` in the query.
    case idToken(String)
    /// A Google OAuth 2 access token, sent as `access_token=` in the query.
    case accessToken(String)
    /// A Google OAuth 2 access token sent as an `Authorization: Bearer` header.
    case bearer(String)

    /// The query parameter carrying the token, if it goes in the query.
    var queryName: String? {
        switch self {
        case .idToken: return "auth"
        case .accessToken: return "access_token"
        case .bearer: return nil
        }
    }

    var token: String {
        switch self {
        case .idToken(let t), .accessToken(let t), .bearer(let t): return t
        }
    }

    /// Adds the credential to a request whose URL was built by
    /// ``DatabaseURL``: a query item, or the `Authorization` header.
    ///
    /// A URL that carries a token already (a redirect target) has it
    /// replaced, never duplicated.
    func apply(to request: inout URLRequest) {
        guard let name = queryName else {
            request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization")
            return
        }
        guard let url = request.url else { return }
        let item = name + "=" + QueryEncoding.percentEncode(token)
        // Work on the text: the query is already percent-encoded, and
        // URLComponents would re-encode or refuse some of it.
        var text = url.absoluteString
        var fragment = ""
        if let hash = text.firstIndex(of: "#") {
            fragment = String(text[hash...])
            text = String(text[..<hash])
        }
        var base = text
        var items: [String] = []
        if let q = text.firstIndex(of: "?") {
            base = String(text[..<q])
            items = text[text.index(after: q)...].split(separator: "&").map(String.init).filter {
                let itemName = QueryEncoding.decodedName(of: $0)
                return itemName != "auth" && itemName != "access_token"
            }
        }
        request.url = URL(string: base + "?" + (items + [item]).joined(separator: "&") + fragment) ?? url
    }
}

extension Credential: CustomStringConvertible, CustomDebugStringConvertible {
    /// The kind of credential and the token's length, never the token.
    public var description: String {
        switch self {
        case .idToken(let t): return "idToken(<redacted, \(t.utf8.count) bytes>)"
        case .accessToken(let t): return "accessToken(<redacted, \(t.utf8.count) bytes>)"
        case .bearer(let t): return "bearer(<redacted, \(t.utf8.count) bytes>)"
        }
    }

    /// The same as ``description``: the kind and the token's length.
    public var debugDescription: String { description }
}

extension Credential: CustomReflectable {
    /// No children: `dump` and debuggers show the kind, never the token.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
}

/// Where a client gets its credential: none (an open database), a fixed
/// token, or a provider asked again whenever the server revokes the token
/// (`auth_revoked`) or refuses it (401).
public struct Credentials: Sendable, CustomStringConvertible {
    /// Returns the credential to use; `forceRefresh` is `true` when the
    /// previous one was revoked or refused, and a fresh token is needed.
    public typealias Provider = @Sendable (_ forceRefresh: Bool) async throws -> Credential

    enum Source: Sendable {
        case none
        case fixed(Credential)
        case provider(Provider)
    }

    let source: Source

    /// No credential: the database (or a local server in open mode) allows
    /// unauthenticated access.
    public static let none = Credentials(source: .none)

    /// Always the same credential. A revoked fixed token cannot be renewed:
    /// a stream that loses it ends with ``DatabaseError/authRevoked``.
    public static func fixed(_ credential: Credential) -> Credentials {
        Credentials(source: .fixed(credential))
    }

    /// A credential from `provider`, asked once before the first request and
    /// again (with `forceRefresh: true`) after each revocation or refusal.
    public static func provider(_ provider: @escaping Provider) -> Credentials {
        Credentials(source: .provider(provider))
    }

    /// Whether there is a credential (fixed or from a provider).
    public var isSome: Bool {
        if case .none = source { return false }
        return true
    }

    /// Whether a refused credential can be replaced by asking again.
    public var canRefresh: Bool {
        if case .provider = source { return true }
        return false
    }

    /// The credential to send now, or nil for none.
    /// - Throws: ``DatabaseError/credentialsUnavailable(_:)`` when the
    ///   provider throws (its error's description is kept, the token never
    ///   appears).
    public func credential(forceRefresh: Bool = false) async throws(DatabaseError) -> Credential? {
        switch source {
        case .none: return nil
        case .fixed(let credential): return credential
        case .provider(let provider):
            do { return try await provider(forceRefresh) } catch {
                throw .credentialsUnavailable(String(describing: error))
            }
        }
    }

    /// `none`, `fixed(…)` with the credential's redacted description, or
    /// `provider`; never a token.
    public var description: String {
        switch source {
        case .none: return "none"
        case .fixed(let c): return "fixed(\(c))"
        case .provider: return "provider"
        }
    }
}
