// WebPage.swift — what live-server's data console and live-repl's inspector
// share: the page around each one's body, the style and script every page
// starts with, and the headers of what they serve. The files beside this
// one are embedded in the binary.

/// A page served by the process itself, nothing fetched from elsewhere: one
/// document with its style inline, and one script from the same origin.
package enum WebPage {
    /// Scripts and styles from the page's own origin only (styles inline
    /// too), and no framing by other pages.
    package static let contentSecurityPolicy =
        "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"

    /// The headers of every response of a page's server, its length aside:
    /// its `type`, never cached, under `contentSecurityPolicy`, and read as
    /// that type only.
    package static func headers(type: String) -> [(String, String)] {
        [
            ("Content-Type", type),
            ("Cache-Control", "no-store"),
            ("Content-Security-Policy", contentSecurityPolicy),
            ("X-Content-Type-Options", "nosniff"),
        ]
    }

    /// A whole page (`page.html`): `title`, the shared style (`page.css`)
    /// then `style`, `body`, and the script at `script`. The texts go in
    /// as they are.
    package static func html(title: String, style: [UInt8], body: [UInt8], script: String) -> String {
        fill(text(PackageResources.page_html), [
            "title": title,
            "style": text(PackageResources.page_css) + text(style),
            "body": text(body),
            "script": script,
        ])
    }

    /// A page's script: the shared one (`events.js`), then `parts` in order,
    /// in strict mode. Each file says `"use strict"` at its start, as it is
    /// read on its own; the script says it once.
    package static func script(_ parts: [UInt8]...) -> String {
        let strict = "\"use strict\";\n"
        return strict + ([PackageResources.events_js] + parts).map { text($0).trimmingPrefix(strict) }.joined()
    }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// `template` with each `{{name}}` in it replaced by `values[name]`.
    private static func fill(_ template: String, _ values: [String: String]) -> String {
        var filled = "", rest = template[...]
        while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
            let name = String(rest[open.upperBound..<close.lowerBound])
            guard let value = values[name] else { preconditionFailure("nothing for {{\(name)}}") }
            filled += rest[..<open.lowerBound] + value
            rest = rest[close.upperBound...]
        }
        return filled + rest
    }
}
