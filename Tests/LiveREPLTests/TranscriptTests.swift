// TranscriptTests.swift — the built live-repl in script mode, against
// transcripts of every command and error, human and --json.

import Foundation
import LiveModel
import LiveSections
import Testing

@Suite("live-repl transcripts")
struct TranscriptTests {
    static func transcript(_ name: String) throws -> String {
        guard let url = Bundle.module.url(forResource: "Transcripts/" + name, withExtension: nil) else {
            throw REPLTestError("no transcript \(name)")
        }
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// Compares with a recorded transcript; `LIVE_REPL_RECORD=<dir>` writes
    /// the actual output there instead, for review.
    static func expectTranscript(_ actual: String, _ name: String) throws {
        if let directory = ProcessInfo.processInfo.environment["LIVE_REPL_RECORD"] {
            try actual.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
            return
        }
        let expected = try transcript(name)
        let a = actual.components(separatedBy: "\n"), e = expected.components(separatedBy: "\n")
        for (i, (x, y)) in zip(a, e).enumerated() where x != y {
            Issue.record("\(name), line \(i + 1):\n  got      \(x)\n  expected \(y)")
            return
        }
        #expect(a.count == e.count, "\(name): \(a.count) lines, expected \(e.count)")
    }

    @Test("offline, human: every injection, query, load and error, as recorded")
    func offlineHuman() async throws {
        let run = try await REPLProcess.run(["--offline"], input: try Self.transcript("offline.in"))
        try Self.expectTranscript(run.stdout, "offline.out")
        #expect(run.status == 1, "a script with a failing command exits 1")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }

    @Test("offline, --json: as recorded, every line valid JSON, every change valid under UIKit's rules")
    func offlineJSON() async throws {
        let run = try await REPLProcess.run(["--offline", "--json"], input: try Self.transcript("offline.in"))
        try Self.expectTranscript(run.stdout, "offline.json.out")
        #expect(run.status == 1)
        var errors = 0
        for line in run.lines {
            switch try REPLLine(line) {
            case .change(let stages, _):
                var counts: [Int]?
                for (stage, after) in stages {
                    if let before = counts { _ = try BatchUpdateChecker.apply(stage, toCounts: before, newCounts: after) }
                    counts = after
                }
            case .error: errors += 1
            case .show, .text: break
            }
        }
        #expect(errors == 16)
    }

    @Test("a script whose every command succeeds exits 0; quit ends it")
    func successExitsZero() async throws {
        let run = try await REPLProcess.run(["--offline", "--order-by", "score"],
                                      input: "put /a {\"score\": 1}\nshow\nquit\nbogus\n")
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.lines == ["> put /a {\"score\": 1}", "stage 1: insert 0.0  → rows 1", "  child_added a first",
                              "> show", "section 0 (1 row)", "     0  a  1  {\"score\":1}", "> quit"])
    }

    @Test("help lists every command with an example; stats counts children, sections, memory and events")
    func helpAndStats() async throws {
        let run = try await REPLProcess.run(["--offline", "--json", "--section-by", "g"],
                                      input: "put / {\"a\": {\"g\": 1}, \"b\": {\"g\": 2}}\nhelp\nstats\n")
        #expect(run.status == 0)
        let lines = run.lines
        try #require(lines.count == 3, "\(run.stdout)")
        guard case .text(let help) = try REPLLine(lines[1]), case .text(let stats) = try REPLLine(lines[2]) else {
            Issue.record("\(run.stdout)")
            return
        }
        for name in ["put", "patch", "set", "update", "push", "remove", "show", "query", "load", "stats", "help", "quit"] {
            #expect(help.contains { $0.hasPrefix("  \(name)") }, "help does not list \(name)")
        }
        #expect(help.contains("Examples:"))
        #expect(stats.count == 4)
        #expect(stats[0] == "children: 2" && stats[1] == "sections: 2", "\(stats)")
        #expect(stats[2].hasPrefix("memory: ") && stats[2].hasSuffix(" MB resident"), "\(stats)")
        #expect(stats[3].hasPrefix("events: 2 in "), "\(stats)")
    }

    @Test("options the REPL refuses at start-up exit non-zero with the reason")
    func badOptions() async throws {
        for (arguments, reason) in [
            (["--offline", "--url", "http://127.0.0.1:1"], "--offline and --url exclude each other"),
            (["--offline", "--limit-first", "2", "--limit-last", "2"], "--limit-first and --limit-last exclude each other"),
            (["--offline", "--start-at", "{"], "--start-at"),
            (["--url", "http://127.0.0.1:1", "--sample", "3"], "--sample writes sample data"),
            (["--offline", "--order-by", "a..b"], "--order-by"),
        ] {
            let run = try await REPLProcess.run(arguments, input: "")
            #expect(run.status != 0, "\(arguments)")
            #expect(run.stderr.contains(reason), "\(arguments): \(run.stderr)")
        }
    }

    @Test("a bound below zero, written as a user would (--start-at -1), on the command line and after query")
    func negativeBounds() async throws {
        let run = try await REPLProcess.run(["--offline", "--json", "--order-by", "s", "--start-at", "-1"], input: """
            put / {"a": {"s": -2}, "b": {"s": -1}, "c": {"s": 3}}
            show
            query --order-by s --end-at -1.5
            show
            query --order-by s --equal-to -1 --where 's > -5'
            show

            """)
        #expect(run.status == 0, "\(run.stderr)")
        let shows = run.lines.filter { $0.hasPrefix(#"{"sections""#) }
        #expect(shows == [#"{"sections":[{"keys":["b","c"],"section":null}]}"#,
                          #"{"sections":[{"keys":["a"],"section":null}]}"#,
                          #"{"sections":[{"keys":["b"],"section":null}]}"#], "\(run.stdout)")
    }

    @Test("a server that cannot be reached: a clear error at start-up")
    func unreachableServer() async throws {
        let run = try await REPLProcess.run(["--url", "http://127.0.0.1:1"], input: "show\n")
        #expect(run.status != 0)
        #expect(run.stderr.contains("live-repl: connection failed"), "\(run.stderr)")
    }

    @Test("offline --sample: the sample children are there at once")
    func offlineSample() async throws {
        let run = try await REPLProcess.run(["--offline", "--json", "--sample", "12", "--order-by", "score",
                                       "--section-by", "group"], input: "show\n")
        guard case .show(let sections) = try REPLLine(try #require(run.lines.first)) else {
            Issue.record("not a show line: \(run.stdout)")
            return
        }
        #expect(sections.map(\.section) == ["g0", "g1", "g2"])
        #expect(sections.map(\.keys.count).reduce(0, +) == 12)
    }
}
