// ReadmeCodeTests.swift — every Swift example of the README and of docs/ is
// compiled by a test, with the page's own imports.
import Foundation
import Testing

/// A Swift block of the README is covered when a test file named
/// `ReadmeExampleTests.swift` holds its lines in the same order (each line
/// compared without its indentation) and imports exactly the modules the
/// block imports (besides `Testing`). So an example that drifts from the
/// code, or that needs an import it does not show, fails here.
@Suite("README: every Swift example is compiled")
struct ReadmeCodeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    struct Example: CustomStringConvertible {
        let line: Int
        let imports: Set<String>
        let body: [String]
        let page: String
        var description: String { "\(page):\(line)" }
    }

    struct TestFile {
        let path: String
        let imports: Set<String>
        let lines: [String]
    }

    static func trimmed(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    static func imports(_ lines: [String]) -> Set<String> {
        Set(lines.filter { $0.hasPrefix("import ") }.map { String($0.dropFirst("import ".count)) })
    }

    /// README.md, then the Markdown pages of docs/.
    static func pages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    /// The Swift blocks of every page, but those marked `example-file` (a
    /// source file shown whole, checked by Tools/check-readme and
    /// type-checked by Tools/check-uikit).
    static func examples() throws -> [Example] {
        var found: [Example] = []
        for page in try pages() {
            let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
            var block: [String]?, start = 0, wholeFile = false, previous = ""
            for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let trimmedLine = line.trimmingCharacters(in: .whitespaces)
                if block == nil, trimmedLine == "```swift" {
                    block = []
                    start = i + 1
                    wholeFile = previous.hasPrefix("<!-- example-file ")
                } else if let lines = block, trimmedLine == "```" {
                    let kept = trimmed(lines.joined(separator: "\n"))
                    if !wholeFile {
                        found.append(Example(line: start, imports: imports(kept),
                                             body: kept.filter { !$0.hasPrefix("import ") }, page: page))
                    }
                    block = nil
                } else if block != nil {
                    block!.append(String(line))
                }
                if !trimmedLine.isEmpty { previous = trimmedLine }
            }
        }
        return found
    }

    static func testFiles() throws -> [TestFile] {
        let tests = root.appendingPathComponent("Tests")
        guard let walker = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil) else { return [] }
        var files: [TestFile] = []
        for case let url as URL in walker where url.lastPathComponent == "ReadmeExampleTests.swift" {
            let lines = trimmed(try String(contentsOf: url, encoding: .utf8))
            files.append(TestFile(path: url.path, imports: imports(lines).subtracting(["Testing"]), lines: lines))
        }
        return files
    }

    /// Whether `needle` occurs in `haystack` in order (not necessarily adjacent).
    static func occursInOrder(_ needle: [String], in haystack: [String]) -> Bool {
        var at = haystack.startIndex
        for line in needle {
            guard let found = haystack[at...].firstIndex(of: line) else { return false }
            at = found + 1
        }
        return true
    }

    @Test("each Swift block is in a compiled test, with the same imports")
    func everyExampleIsCompiled() throws {
        let examples = try Self.examples(), files = try Self.testFiles()
        #expect(examples.count >= 5)
        for example in examples {
            let covering = files.filter { $0.imports == example.imports && Self.occursInOrder(example.body, in: $0.lines) }
            #expect(!covering.isEmpty, "\(example) (imports \(example.imports.sorted())) is in no ReadmeExampleTests.swift")
        }
    }
}
