// DatabaseURL.swift — the address of a Realtime Database and the REST URLs
// of its locations.
import Foundation
import LiveModel

/// The address of a Realtime Database: a scheme, a host, an optional port
/// and, when the host does not name the database, its namespace (`ns=`).
///
/// `https` is for production databases; `http` is accepted for any host (a
/// local `LiveServer` or the emulator), since the choice is the caller's.
///
/// ```swift
/// let db = try DatabaseURL("https://my-app-default-rtdb.firebaseio.com")
/// let local = try DatabaseURL("http://127.0.0.1:9000?ns=my-app")
/// ```
public struct DatabaseURL: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// The host name or address.
    public let host: String
    /// The port, when not the scheme's default.
    public let port: Int?
    /// The database namespace sent as `ns=` with every request, if any.
    public let namespace: String?

    /// Parses a database URL.
    /// - Throws: ``DatabaseError/invalidURL(_:reason:)`` for another scheme,
    ///   no host (or one that cannot be put in a URL), a port out of range,
    ///   a path other than `/`, a fragment, user information, or query
    ///   parameters other than one `ns`.
    public init(_ string: String) throws(DatabaseError) {
        // Errors quote the URL without its secrets.
        let shown = DatabaseURL.shown(string)
        guard let components = URLComponents(string: string) else {
            throw .invalidURL(shown, reason: "not a URL")
        }
        let scheme = components.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else {
            throw .invalidURL(shown, reason: "the scheme must be https (or http for a local server)")
        }
        guard var host = components.host, !host.isEmpty else { throw .invalidURL(shown, reason: "no host") }
        if host.hasPrefix("["), host.hasSuffix("]") {
            // An IPv6 address: kept bare, bracketed again in URLs.
            host = String(host.dropFirst().dropLast())
        }
        guard components.path.isEmpty || components.path == "/" else {
            throw .invalidURL(shown, reason: "a database URL has no path; give the location as a DatabasePath")
        }
        guard components.fragment == nil, components.user == nil, components.password == nil else {
            throw .invalidURL(shown, reason: "no fragment or user information is allowed")
        }
        var namespace: String?
        for item in components.queryItems ?? [] {
            guard item.name == "ns", let value = item.value, !value.isEmpty else {
                throw .invalidURL(shown, reason: "only the query parameter ns=NAMESPACE is allowed")
            }
            guard namespace == nil else { throw .invalidURL(shown, reason: "ns is given more than once") }
            namespace = value
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw .invalidURL(shown, reason: "port \(port) is out of range")
        }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = components.port
        self.namespace = namespace
        guard URL(string: base + "/.json") != nil else {
            throw .invalidURL(shown, reason: "the host \(host) cannot be used in a URL")
        }
    }

    /// `text` without user information or `auth` / `access_token` values.
    static func shown(_ text: String) -> String {
        var text = QueryEncoding.redact(text)
        if let scheme = text.range(of: "://") {
            let rest = text[scheme.upperBound...]
            let authorityEnd = rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@") {
                text.replaceSubrange(scheme.upperBound...at, with: "<redacted>@")
            }
        }
        return text
    }

    /// `scheme://host[:port]`, an IPv6 address in brackets.
    private var base: String {
        var text = scheme + "://" + (host.contains(":") ? "[" + host + "]" : host)
        if let port { text += ":\(port)" }
        return text
    }

    /// The REST URL of `path`: `<base>/<path>.json?<parameters>[&ns=…]`,
    /// every key and parameter percent-encoded.
    /// - Complexity: O(length of the path and parameters).
    public func restURL(for path: DatabasePath, parameters: [(name: String, value: String)] = []) -> URL {
        var text = base + "/" + path.keys.map { QueryEncoding.percentEncode($0.string) }.joined(separator: "/") + ".json"
        var items = parameters
        if let namespace { items.append(("ns", namespace)) }
        if !items.isEmpty { text += "?" + QueryEncoding.query(items) }
        guard let url = URL(string: text) else {
            preconditionFailure("LiveFirebase: a percent-encoded URL did not parse: \(text)")
        }
        return url
    }

    /// The database URL in a form ``init(_:)`` reads back.
    public var description: String {
        var text = base
        if let namespace { text += "?ns=" + QueryEncoding.percentEncode(namespace) }
        return text
    }
}
