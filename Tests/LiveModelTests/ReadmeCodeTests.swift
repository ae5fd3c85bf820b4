// ReadmeCodeTests.swift — every Swift example of the README is compiled by a
// test, with the README's own imports.
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
        var description: String { "README.md:\(line)" }
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

    static func examples() throws -> [Example] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var found: [Example] = [], block: [String]?, start = 0
        for (i, line) in readme.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = line.trimmingCharacters(in: .whitespaces)
            if block == nil, text == "```swift" {
                block = []
                start = i + 1
            } else if let lines = block, text == "```" {
                let kept = trimmed(lines.joined(separator: "\n"))
                found.append(Example(line: start, imports: imports(kept),
                                     body: kept.filter { !$0.hasPrefix("import ") }))
                block = nil
            } else if block != nil {
                block!.append(String(line))
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
