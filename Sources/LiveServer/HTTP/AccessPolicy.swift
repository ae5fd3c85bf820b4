// AccessPolicy.swift — which browsers and names may reach a LiveServer:
// the Host and Origin checks that keep other web pages out of an open-mode
// server, and the CORS headers that let a web app under development in.

import NIOHTTP1

/// Decides, from a request's head alone, whether a browser's request may
/// reach the data, and which CORS headers its response carries.
///
/// - **Open mode on loopback** (no tokens, no
///   ``LiveServerConfiguration/allowsRemoteOpenAccess``): nothing but the
///   address guards the data, and every web page the user opens runs on
///   this machine. So the `Host` must be a loopback name (`localhost`,
///   `127.x.x.x`, `[::1]`) with the server's port if any — a name that merely
///   resolves here (DNS rebinding) is refused — and a request that carries
///   an `Origin` must come from a loopback origin (a web app under
///   development on `http://localhost:5173` works; any other site, a
///   sandboxed page or a file, `null`, is refused). Loopback origins get
///   their own origin back in `Access-Control-Allow-Origin`.
/// - **With tokens**, or open to the network by choice: every request
///   needs what the mode needs (a token, or nothing), so any origin is
///   served (`Access-Control-Allow-Origin: *`).
struct AccessPolicy: Sendable {
    /// Whether the Host and Origin checks apply.
    let guardsLoopback: Bool

    init(_ configuration: LiveServerConfiguration) {
        guardsLoopback = configuration.tokens == nil && !configuration.allowsRemoteOpenAccess
    }

    /// The methods and headers a preflight allows.
    static let allowedMethods = "GET, HEAD, PUT, PATCH, POST, DELETE, OPTIONS"
    static let allowedHeaders = "Authorization, Content-Type, X-Firebase-ETag, If-Match, If-None-Match, X-HTTP-Method-Override"

    /// What a request may do, decided from its head.
    enum Decision {
        /// Served; the response carries these headers.
        case allowed(cors: [(String, String)])
        /// Refused with 403 and this reason.
        case refused(String)
    }

    /// Checks `head`, received on a connection to `port`.
    /// - Complexity: O(length of the Host and Origin headers).
    func check(_ head: HTTPRequestHead, port: Int) -> Decision {
        let origin = head.headers.first(name: "origin")
        guard guardsLoopback else {
            return .allowed(cors: origin == nil ? [] : [("Access-Control-Allow-Origin", "*"),
                                                         ("Access-Control-Expose-Headers", "ETag")])
        }
        if let host = head.headers.first(name: "host"), !Self.isLoopback(host: host, port: port) {
            return .refused("""
                Host \(RequestTarget.shown(host)) refused: an open-mode server answers loopback names only \
                (http://127.0.0.1:\(port), http://localhost:\(port)); give tokens to serve other names.
                """)
        }
        guard let origin else { return .allowed(cors: []) }
        guard Self.isLoopback(origin: origin) else {
            return .refused("""
                Origin \(RequestTarget.shown(origin)) refused: an open-mode server serves pages from loopback \
                origins only; give tokens to serve other origins.
                """)
        }
        return .allowed(cors: [("Access-Control-Allow-Origin", origin), ("Vary", "Origin"),
                               ("Access-Control-Expose-Headers", "ETag")])
    }

    /// The headers an answer to a CORS preflight (an `OPTIONS` request
    /// with `Access-Control-Request-Method`) that ``check(_:port:)`` allowed
    /// with `cors` carries besides them.
    static func preflightHeaders(cors: [(String, String)]) -> [(String, String)] {
        guard !cors.isEmpty else { return [] }
        return [("Access-Control-Allow-Methods", allowedMethods),
                       ("Access-Control-Allow-Headers", allowedHeaders),
                       ("Access-Control-Max-Age", "600")]
    }

    /// Whether `host` (a Host header: `name[:port]`) names this machine's
    /// loopback, with `port` when it gives one. (A browser always gives
    /// the port of an address that has one other than 80; a client that
    /// sends a bare name is not a page of another site.)
    static func isLoopback(host: String, port: Int) -> Bool {
        guard let (name, given) = split(authority: Substring(host)) else { return false }
        return isLoopback(name: name) && (given == nil || given == port)
    }

    /// Whether `origin` is `http(s)://` a loopback name, with any port.
    static func isLoopback(origin: String) -> Bool {
        let scheme: Substring
        if origin.hasPrefix("http://") { scheme = "http://" } else if origin.hasPrefix("https://") { scheme = "https://" } else {
            return false
        }
        guard let (name, _) = split(authority: origin.dropFirst(scheme.count)) else { return false }
        return isLoopback(name: name)
    }

    /// `name` and port of `authority` (`name`, `name:port`, `[v6]:port`);
    /// nil when it is malformed.
    private static func split(authority: Substring) -> (Substring, Int?)? {
        var name = authority, port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            name = authority[...close]
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                port = rest.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            name = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }
        guard let port else { return (name, nil) }
        guard !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCII), let number = Int(port), number <= 65535 else {
            return nil
        }
        return (name, number)
    }

    /// `localhost`, `[::1]` or a dotted IPv4 address in 127.0.0.0/8.
    private static func isLoopback(name: Substring) -> Bool {
        let lowered = name.lowercased()
        if lowered == "localhost" || lowered == "[::1]" { return true }
        let octets = lowered.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127"
            && octets.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy { ("0"..."9").contains($0) } && Int($0)! <= 255 }
    }
}
