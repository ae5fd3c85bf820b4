// WebAssets.swift — the inspector page, served from the process itself:
// nothing is fetched from elsewhere, so it works offline. Its files are in
// Pages/, embedded in the binary.

import LiveServer

enum WebAssets {
    /// The page: the sections and rows, a command box, the query, stats
    /// and a log of every change with its stages.
    static let page = WebPage.html(title: "live-repl inspector", style: PackageResources.inspector_css,
                                   body: PackageResources.inspector_html, script: "/app.js")

    /// The page's script: the model, the list, then the page's wiring.
    static let script = WebPage.script(PackageResources.inspector_model_js, PackageResources.inspector_list_js,
                                       PackageResources.inspector_app_js)
}
