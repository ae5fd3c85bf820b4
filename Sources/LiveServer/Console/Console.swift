// Console.swift — the data console's page and script, served at /_/console
// when the configuration asks for it. Their files are in Pages/, embedded in
// the binary.

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
        case "/_/console", "/_/console/": return file(html, type: "text/html; charset=utf-8")
        case "/_/console.js": return file(script, type: "text/javascript; charset=utf-8")
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

    /// The page: the tree, the selected location's editor, a live watch and
    /// a query.
    private static let html = Array(WebPage.html(title: "live-server console", style: PackageResources.console_css,
                                                 body: PackageResources.console_html, script: "/_/console.js").utf8)

    /// The page's script: its base, the tree, then the actions.
    private static let script = Array(WebPage.script(PackageResources.console_js, PackageResources.console_tree_js,
                                                     PackageResources.console_actions_js).utf8)

    private static func file(_ body: [UInt8], type: String) -> RESTResponse {
        RESTResponse(status: .ok, headers: WebPage.headers(type: type), body: body)
    }
}
