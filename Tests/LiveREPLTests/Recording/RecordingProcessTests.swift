// RecordingProcessTests.swift — recording and replaying through the built
// live-repl: `record FILE` and `--record` in script mode, `--replay` with
// `--until`, and the options that exclude each other.

import Foundation
import Testing

@Suite("live-repl records and replays")
struct RecordingProcessTests {
    static func file(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID()).jsonl").path
    }

    @Test("record FILE mid-session, then --replay: identical, the same rows; --until stops and goes on")
    func recordCommand() async throws {
        let file = Self.file("record")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let recorded = try await REPLProcess.run(["--offline", "--json", "--order-by", "score", "--section-by", "team"], input: """
            put / {"a": {"score": 3, "team": "red", "name": "Ada"}, "b": {"score": 1, "team": "blue"}}
            record \(file)
            put /c {"score": 2, "team": "red", "name": "Cy"}
            patch / {"a/score": 0, "b/team": "red", "c": null}
            put /-1 {"score": -1, "team": "blue"}
            show

            """)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.lines.contains { $0.contains("recording into") && $0.contains("--replay") }, "\(recorded.stdout)")
        let shown = try #require(recorded.lines.last { $0.hasPrefix(#"{"sections""#) })
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!text.contains("Ada") && !text.contains("Cy"), "names are redacted by default")

        let replayed = try await REPLProcess.run(["--replay", file, "--json"], input: "show\n")
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.lines.first == #"{"text":["replayed 3 changes, identical"]}"#, "\(replayed.stdout)")
        #expect(replayed.lines.last == shown)

        let until = try await REPLProcess.run(["--replay", file, "--until", "1"], input: "show\nput /z {\"score\": 9}\n")
        #expect(until.status == 0, "\(until.stderr)")
        #expect(until.lines.first == "replayed 1 changes, identical so far; stopped (replay N goes on)", "\(until.stdout)")
        #expect(until.stdout.contains("child_added z"), "the session goes on, offline")
        // From the state, a change at a time, then the rest; past the end, nothing more.
        let stepped = try await REPLProcess.run(["--replay", file, "--until", "0"], input: "replay\nreplay all\nreplay\nreplay 0\n")
        #expect(stepped.status != 0, "replay 0 is refused: \(stepped.stdout)")
        #expect(stepped.lines.first == "replayed 0 changes, identical so far; stopped (replay N goes on)", "\(stepped.stdout)")
        #expect(stepped.lines.contains("replayed 1 changes, identical so far; stopped (replay N goes on)"), "\(stepped.stdout)")
        #expect(stepped.lines.filter { $0 == "replayed 3 changes, identical" }.count == 2, "\(stepped.stdout)")
        #expect(stepped.stdout.contains("stage 1:"), "each step prints its change: \(stepped.stdout)")
        #expect(stepped.stdout.contains("a number above 0"), "\(stepped.stdout)")
        let notReplaying = try await REPLProcess.run(["--offline"], input: "replay\n")
        #expect(notReplaying.stdout.contains("start live-repl with --replay FILE"), "\(notReplaying.stdout)")
    }

    @Test("--record keeps every value with --record-values, and is written when the input ends")
    func recordOption() async throws {
        let file = Self.file("option")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try await REPLProcess.run(["--offline", "--record", file, "--record-values"],
                                            input: "put /a {\"name\": \"Ada\"}\nput /b {\"name\": \"Bo\"}\n")
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("Ada") && text.contains("Bo"))
        #expect(text.components(separatedBy: "\n").first?.contains(#""redacted":false"#) == true)
    }

    @Test("--replay takes everything from the recording; --until needs it; a bad file is refused at start-up")
    func refusals() async throws {
        let file = Self.file("bad")
        try "not a recording\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let withQuery = try await REPLProcess.run(["--replay", file, "--order-by", "x"], input: "")
        #expect(withQuery.status != 0 && withQuery.stderr.contains("--replay takes its location"), "\(withQuery.stderr)")
        let until = try await REPLProcess.run(["--offline", "--until", "2"], input: "")
        #expect(until.status != 0 && until.stderr.contains("--until goes with --replay"), "\(until.stderr)")
        let bad = try await REPLProcess.run(["--replay", file], input: "")
        #expect(bad.status == 1 && bad.stderr.contains("recording: line 1: not JSON"), "\(bad.stderr)")
        let usage = try await REPLProcess.run(["--offline"], input: "record\n")
        #expect(usage.stdout.contains("record: name the file to record into, or stop"), "\(usage.stdout)")
    }
}
