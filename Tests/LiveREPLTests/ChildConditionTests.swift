// ChildConditionTests.swift — `--where` conditions: parsing, Firebase's
// order of values, and a filter changed while live in the built REPL.
import LiveModel
@testable import LiveREPL
import Testing

@Suite("--where conditions")
struct ChildConditionTests {
    static func child(_ json: String) throws -> Snapshot {
        try Snapshot.parse(json: #"{"c": "# + json + "}", order: .key).orderedChildren()[0]
    }

    @Test("parsed with or without spaces; two-character operators before their prefixes")
    func parsing() throws {
        let a = try ChildCondition(parsing: "score<=3")
        let score = DatabasePath("score")
        #expect(a.path == score && a.comparison == .lessOrEqual && a.value == .number(3))
        let b = try ChildCondition(parsing: #"user/name == "a<b""#)
        #expect(b.comparison == .equal && b.value == .string("a<b") && b.description == #"user/name == "a<b""#)
        let c = try ChildCondition(parsing: "!= null")
        #expect(c.path.isRoot && c.comparison == .notEqual)
    }

    @Test("values compare in Firebase's order: null, booleans, numbers, strings, objects")
    func firebaseOrder() throws {
        let below = try ChildCondition(parsing: "n < 5")
        #expect(try below.holds(for: Self.child(#"{"n": 4}"#)))
        #expect(try below.holds(for: Self.child(#"{"m": 9}"#)), "a missing value is null, which sorts first")
        #expect(try !below.holds(for: Self.child(#"{"n": "4"}"#)), "a string sorts after every number")
        #expect(try below.holds(for: Self.child(#"{"n": true}"#)))
        let named = try ChildCondition(parsing: #"n >= "b""#)
        #expect(try named.holds(for: Self.child(#"{"n": "é"}"#)) && !named.holds(for: Self.child(#"{"n": "a"}"#)))
        #expect(try named.holds(for: Self.child(#"{"n": {"x": 1}}"#)))
        let own = try ChildCondition(parsing: "== 3")
        #expect(try own.holds(for: Self.child("3")) && !own.holds(for: Self.child("4")))
    }

    @Test("live-repl: a new --where is one batch of deletes and inserts, with no child events; writes are filtered")
    func replFilter() async throws {
        let commands = [
            #"put / {"a": {"s": 1, "g": "x"}, "b": {"s": 5, "g": "y"}, "c": {"s": 3, "g": "x"}, "d": {"s": 4}}"#,
            "query --order-by s --section-by g",
            "query --order-by s --section-by g --where 's < 4'",
            "query --order-by s --section-by g --where 's >= 3'",
            "put /a/s 9",
            "query --order-by s --section-by g",
        ]
        let run = try await REPLProcess.run(["--offline", "--json"], input: commands.map { $0 + "\nshow\n" }.joined())
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try run.lines.map(REPLLine.init)
        try #require(lines.count == 2 * commands.count, "\(run.lines)")
        var mirror = StageMirror()
        var shown: [[[String]]] = []
        for (i, command) in commands.enumerated() {
            guard case .change(let stages, let events) = lines[2 * i], case .show(let sections) = lines[2 * i + 1] else {
                Issue.record("`\(command)`: \(run.lines[2 * i])")
                return
            }
            let final = sections.map(\.keys)
            try mirror.apply(stages, final: final)
            #expect(mirror.rows == final, "`\(command)`")
            shown.append(final)
            if command.hasPrefix("query"), i != 1 {
                // Only the filter changed: no new listener, so no events.
                #expect(events.isEmpty, "`\(command)`: \(events)")
                #expect(stages.allSatisfy { $0.0.reloadedRows.isEmpty && $0.0.movedRows.isEmpty }, "`\(command)`")
            }
        }
        #expect(shown[2] == [["a", "c"]])
        #expect(shown[3] == [["d"], ["c"], ["b"]])
        #expect(shown[4] == [["d"], ["c", "a"], ["b"]])
        #expect(shown[5] == [["d"], ["c", "a"], ["b"]])
    }
}
