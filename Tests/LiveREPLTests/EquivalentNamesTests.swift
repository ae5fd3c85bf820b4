// EquivalentNamesTests.swift — live-repl keeps keys and member names that
// are canonically equivalent apart, offline and against the embedded server.

import Foundation
import LiveModel
import Testing

@Suite("live-repl: canonically equivalent names")
struct EquivalentNamesTests {
    /// "é" precomposed and decomposed as children; "Å" in three forms and
    /// "K" in two as members inside them.
    static let body = #"{"\u00e9": {"\u00c5": 1, "A\u030a": 2, "\u212b": 3}, "e\u0301": {"K": 4, "\u212a": 5}}"#

    /// Whether `line` holds `part`, byte for byte.
    static func holds(_ line: String, _ part: String) -> Bool {
        Array(line.utf8).firstRange(of: Array(part.utf8)) != nil
    }

    /// The keys of the single section of a `--json` show line, as bytes.
    static func shownKeys(_ line: String) throws -> [[UInt8]] {
        guard case .show(let sections) = try REPLLine(line), sections.count == 1 else {
            throw REPLTestError("not a show line of one section: \(line)")
        }
        return sections[0].keys.map { Array($0.utf8) }
    }

    static let keysInOrder = [Array("e\u{301}".utf8), Array("\u{E9}".utf8)]  // UTF-16 order: "e" < "é"

    @Test("offline, human: two rows, every member in each value")
    func offlineHuman() async throws {
        let run = try await REPLProcess.run(["--offline"], input: "put / \(Self.body)\nshow\n")
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let rows = run.lines.filter { $0.hasPrefix("     ") }
        try #require(rows.count == 2, "\(run.stdout)")
        #expect(Self.holds(rows[0], "  e\u{301}  ") && Self.holds(rows[0], #"{"K":4,"\#u{212A}":5}"#), "\(rows[0])")
        #expect(Self.holds(rows[1], "  \u{E9}  ") && Self.holds(rows[1], #"{"A\#u{30A}":2,"\#u{C5}":1,"\#u{212B}":3}"#),
                "\(rows[1])")
    }

    @Test("offline and embedded server, --json: both keys shown")
    func json() async throws {
        let offline = try await REPLProcess.run(["--offline", "--json"], input: "put / \(Self.body)\nshow\n")
        #expect(offline.status == 0, "\(offline.stdout)\n\(offline.stderr)")
        #expect(try Self.shownKeys(try #require(offline.lines.last)) == Self.keysInOrder)
        let embedded = try await REPLProcess.run(["--json"], input: "set / \(Self.body)\nshow\n")
        #expect(embedded.status == 0, "\(embedded.stdout)\n\(embedded.stderr)")
        #expect(try Self.shownKeys(try #require(embedded.commandLines.last)) == Self.keysInOrder)
    }
}
