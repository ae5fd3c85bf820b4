// Console.swift — the data console's page and script, served at /_/console
// when the configuration asks for it.

import NIOHTTP1

/// The data console: a page served by the server itself (nothing fetched
/// from elsewhere) that uses only the public REST and streaming API, with
/// the token its user gives, as any client does. Its paths, under `/_/`,
/// cannot name data: REST paths end in `.json`.
enum Console {
    /// The page or its script for a `GET` (or `HEAD`) of `/_/console` or
    /// `/_/console.js`; nil for any other request.
    static func response(method: HTTPMethod, uri: String) -> RESTResponse? {
        guard method == .GET || method == .HEAD else { return nil }
        switch path(of: uri) {
        case "/_/console", "/_/console/": return page(ConsolePage.html, type: "text/html; charset=utf-8")
        case "/_/console.js": return page(ConsoleScript.text, type: "text/javascript; charset=utf-8")
        default: return nil
        }
    }

    /// Whether `uri` names one of the console's files (whatever the method).
    static func serves(uri: String) -> Bool {
        ["/_/console", "/_/console/", "/_/console.js"].contains(path(of: uri))
    }

    private static func path(of uri: String) -> Substring {
        uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    }

    private static func page(_ text: String, type: String) -> RESTResponse {
        RESTResponse(status: .ok, headers: [
            ("Content-Type", type),
            ("Cache-Control", "no-store"),
            ("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"),
            ("X-Content-Type-Options", "nosniff"),
        ], body: Array(text.utf8))
    }
}
