// PackageMetadataTests.swift — what the package says of itself agrees: the
// toolchain the README asks for and the manifest's tools version, the
// version in the code and the changelog's newest, and the licence.
import Foundation
import LiveModel
import Testing

@Suite("Package metadata")
struct PackageMetadataTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
    }

    /// The first `major.minor` after `marker` in `text`.
    static func version(after marker: String, in text: String) -> String? {
        guard let start = text.range(of: marker)?.upperBound else { return nil }
        let digits = text[start...].prefix { $0.isNumber || $0 == "." }
        let parts = digits.split(separator: ".")
        guard parts.count >= 2 else { return nil }
        return parts.prefix(2).joined(separator: ".")
    }

    @Test("the README's minimum toolchain is the manifest's tools version")
    func toolchain() throws {
        let manifest = try Self.version(after: "// swift-tools-version: ", in: Self.text("Package.swift"))
        let readme = try Self.version(after: "Swift toolchain (", in: Self.text("README.md"))
        let changelog = try Self.version(after: "A Swift ", in: Self.text("CHANGELOG.md"))
        #expect(manifest != nil, "Package.swift names no tools version")
        #expect(readme == manifest, "README.md asks for Swift \(readme ?? "?"), Package.swift for \(manifest ?? "?")")
        #expect(changelog == manifest, "CHANGELOG.md asks for Swift \(changelog ?? "?"), Package.swift for \(manifest ?? "?")")
    }

    @Test("the changelog's newest version is the code's")
    func changelogVersion() throws {
        let heading = try Self.text("CHANGELOG.md").split(separator: "\n").first { $0.hasPrefix("## ") }
        let newest = heading.map { $0.dropFirst(3).prefix { !$0.isWhitespace } }.map(String.init)
        #expect(newest == PackageVersion.current)
    }

    @Test("the licence is Apache 2.0")
    func licence() throws {
        let licence = try Self.text("LICENSE")
        #expect(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004"))
    }
}
