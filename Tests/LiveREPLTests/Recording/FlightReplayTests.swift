// FlightReplayTests.swift — seeded sessions recorded and replayed: the same
// stages, events and counts; a list changed outside a batch named at its
// change; a changed recording named at the change that differs.

import Foundation
import LiveFirebase
import LiveModel
import LiveSections
import LiveTestSupport
import Testing
@testable import LiveREPL

@Suite("Flight recordings replayed")
@MainActor
struct FlightReplayTests {
    static let seeds: [UInt64] = [1, 2, 3, 41, 977, 20_261_130]

    /// Replays `recording`; nothing is left waiting afterwards.
    static func verdict(of recording: FlightRecording, until: Int? = nil) async throws -> ReplayVerdict {
        let replay = FlightReplay(recording)
        let verdict = try await replay.run(until: until)
        await replay.finish()
        return verdict
    }

    /// The rows shown, as keys per section value (what order and sections decide).
    static func layout(_ session: Session) -> [String] {
        session.shownSections().map { section in
            section.value.jsonText(sortedKeys: true) + ": " + section.rows.map(\.key.string).joined(separator: " ")
        }
    }

    @Test("seeded sessions replay identically: with and without sections, redacted or not, recorded from the start or mid-way",
          arguments: [(true, false, false), (false, false, true), (true, true, true), (false, true, false)])
    func identical(sections: Bool, keepsValues: Bool, recordAfterLoad: Bool) async throws {
        for seed in TestSeed.all("FlightReplayTests/identical", defaults: Self.seeds, fresh: true) {
            let run = try RecordedSession(seed: seed, sections: sections, keepsValues: keepsValues)
            try await run.run(steps: 120, recordAfterLoad: recordAfterLoad)
            let recording = try run.recording()
            let replay = FlightReplay(recording)
            let verdict = try await replay.run()
            #expect(verdict == .identical(changes: recording.changes.count), "\(seed): \(verdict.lines.joined(separator: "\n"))")
            if verdict != .identical(changes: recording.changes.count) { print("\(seed): the recording\n" + run.recorder.jsonLines()) }
            #expect(recording.changes.count > 10, "\(seed): a session of 120 steps tells changes")
            #expect(run.miscounted.isEmpty, "\(seed): \(run.miscounted)")
            let replayed = try #require(replay.session)
            #expect(Self.layout(replayed) == Self.layout(run.session), "\(seed): the same order and sections")
            await replay.finish()
        }
    }

    @Test("seeded sessions with new queries and sections replay identically, part by part, redacted or not",
          arguments: [false, true])
    func queriesAndSections(keepsValues: Bool) async throws {
        for seed in TestSeed.all("FlightReplayTests/queriesAndSections", defaults: Self.seeds, fresh: true) {
            let run = try RecordedSession(seed: seed, sections: true, keepsValues: keepsValues)
            run.queries = true
            try await run.run(steps: 200, recordAfterLoad: true)
            let recording = try run.recording()
            let headers = recording.entries.filter { if case .header = $0 { true } else { false } }.count
            #expect(headers == run.queryChanges + 1, "\(seed): a part per query")
            let replay = FlightReplay(recording)
            let verdict = try await replay.run()
            #expect(verdict == .identical(changes: recording.changes.count), "\(seed): \(verdict.lines.joined(separator: "\n"))")
            #expect(run.miscounted.isEmpty, "\(seed): \(run.miscounted)")
            #expect(run.queryChanges > 0, "\(seed): 200 steps change the query")
            await replay.finish()
            // A new query opened a stream: closed, so that nothing waits.
            run.session.stop()
        }
    }

    @Test("a ring smaller than the session keeps its bound, and what it kept still replays identically",
          arguments: [false, true])
    func boundedRing(promptOutcomes: Bool) async throws {
        var exact = 0
        for seed in TestSeed.all("FlightReplayTests/boundedRing", defaults: Self.seeds) {
            let run = try RecordedSession(seed: seed, sections: true, limit: 4096, promptOutcomes: promptOutcomes)
            try await run.run(steps: 200, recordAfterLoad: true)
            #expect(run.recorder.byteCount <= 4096, "\(seed)")
            #expect(run.recorder.droppedCount > 0, "\(seed): the session outgrew the ring")
            let lines = run.recorder.jsonLines().split(separator: "\n")
            let kept = lines.dropFirst(2).reduce(0) { $0 + $1.utf8.count + 1 }
            #expect(kept <= 4096, "\(seed): the kept entries' lines fit the bound")
            let recording = try run.recording()
            let verdict = try await Self.verdict(of: recording)
            guard case .state(let state) = recording.entries[1] else { throw REPLTestError("no state") }
            if state.pending.isEmpty {
                exact += 1
                #expect(verdict == .identical(changes: recording.changes.count), "\(seed): \(verdict.lines.joined(separator: "\n"))\n\(run.recorder.jsonLines())")
            } else if case .differs(_, _, _, let startsWithWrites) = verdict {
                // Writes the cut went through replay as sent before the state: said so.
                #expect(startsWithWrites, "\(seed)")
            }
            #expect(recording.changes.count < run.recorder.changeCount, "\(seed): older changes were let go")
        }
        if promptOutcomes, TestSeed.fromEnvironment == nil {
            #expect(exact >= Self.seeds.count - 1, "writes answered at once leave (almost) no write waiting at the cut")
        }
    }

    @Test("a redacted recording keeps keys, sort and section values, and tags the rest")
    func redaction() async throws {
        let seed = TestSeed.current("FlightReplayTests/redaction", default: 7)
        let run = try RecordedSession(seed: seed, sections: true)
        try await run.run(steps: 60, recordAfterLoad: true)
        let text = run.recorder.jsonLines()
        // A child's name is neither ordered by nor sectioned by: only its tag
        // is kept (a section value is kept whole, whatever it holds).
        var names = 0
        for entry in try run.recording().entries {
            var children: [JSONValue] = []
            switch entry {
            case .state(let state): children = state.value.objectValue.map { Array($0.values) } ?? []
            case .message(.put(let path, let data, _, _)) where path.keys.count == 1: children = [data]
            case .message(.put(.root, .object(let all), _, _)): children = Array(all.values)
            default: break
            }
            for child in children {
                guard let name = child.objectValue?["name"] else { continue }
                names += 1
                #expect(name.stringValue?.hasPrefix("~string:") == true, "\(seed): \(name)")
            }
        }
        #expect(names > 0, "\(seed)")
        #expect(text.contains("~string:"), "\(seed): they are tagged")
        #expect(text.contains("\"score\""), "\(seed): sort values are kept")
        #expect(text.contains("\"team\""), "\(seed): section values are kept")
        #expect(!text.contains("http"), "\(seed): no URL")
    }

    @Test("--until stops after the change named, with the collection as it stood")
    func until() async throws {
        let seed = TestSeed.current("FlightReplayTests/until", default: 3)
        let run = try RecordedSession(seed: seed, sections: true)
        try await run.run(steps: 80, recordAfterLoad: false)
        let recording = try run.recording()
        let changes = recording.changes
        try #require(changes.count > 5)
        let replay = FlightReplay(recording)
        #expect(try await replay.run(until: 5) == .stopped(changes: 5))
        let counts = try #require(replay.session).shownSections().map(\.rows.count)
        #expect(counts.reduce(0, +) == changes[4].after.reduce(0, +), "\(seed): the rows after change 5")
        await replay.finish()
    }

    @Test("a replay stepped with the replay command tells each recorded change, and ends as the whole replay does")
    func stepped() async throws {
        let seed = TestSeed.current("FlightReplayTests/stepped", default: 5)
        let run = try RecordedSession(seed: seed, sections: true)
        try await run.run(steps: 60, recordAfterLoad: true)
        let recording = try run.recording()
        let changes = recording.changes
        try #require(changes.count > 3)
        let whole = try await Self.verdict(of: recording)
        let replay = FlightReplay(recording)
        #expect(try await replay.run(until: 0) == .stopped(changes: 0))
        let session = try #require(replay.session)
        var told = 0
        var last: [String] = []
        // One change at a time, then the rest: each step tells its change's stages.
        while told < changes.count - 2 {
            guard case .replayed(let report, let verdict) = try await session.run(.replay(1)) else {
                Issue.record("\(seed): not a replay's output")
                break
            }
            let recorded = changes[told]
            #expect(report.stages.count == recorded.stages.count, "\(seed): change \(recorded.number)")
            #expect(report.stages.last?.counts == recorded.after, "\(seed): change \(recorded.number)")
            told += 1
            last = verdict
            if verdict != ReplayVerdict.stopped(changes: told).lines { break }
        }
        #expect(last == ReplayVerdict.stopped(changes: told).lines, "\(seed): \(last)")
        guard case .replayed(_, let verdict) = try await session.run(.replay(nil)) else {
            Issue.record("\(seed): not a replay's output")
            return
        }
        #expect(verdict == whole.lines, "\(seed)")
        await replay.finish()
        // A session no replay made refuses the command.
        let plain = try Session(source: .offline, path: "/", options: try QueryOptions.parse([]))
        await #expect(throws: REPLError.self) { try await plain.run(.replay(1)) }
        plain.stop()
    }

    @Test("a replay stepped to a gap stays there: what follows is not for its session")
    func steppedToAGap() async throws {
        let seed = TestSeed.current("FlightReplayTests/steppedToAGap", default: 8)
        let run = try RecordedSession(seed: seed, sections: true)
        try await run.run(steps: 60, recordAfterLoad: true)
        var lines = run.recorder.jsonLines().split(separator: "\n").map(String.init)
        let recording = try FlightRecording(jsonLines: lines.joined(separator: "\n"))
        try #require(recording.changes.count > 3)
        // A gap after the second change, as setQuery leaves one.
        let second = zip(recording.entries, recording.lines).filter { if case .change = $0.0 { true } else { false } }[1].1
        lines.insert(FlightEntry.gap("setQuery").jsonLine, at: second)
        let replay = FlightReplay(try FlightRecording(jsonLines: lines.joined(separator: "\n")))
        #expect(try await replay.run(until: 0) == .stopped(changes: 0))
        let session = try #require(replay.session)
        let gap = ReplayVerdict.gap(changes: 2, what: "setQuery").lines
        for _ in 0..<2 {
            guard case .replayed(_, let verdict) = try await session.run(.replay(nil)) else {
                Issue.record("\(seed): not a replay's output")
                break
            }
            #expect(verdict == gap, "\(seed)")
        }
        await replay.finish()
    }

    @Test("the next page, loaded while recorded, is a new part (its window) that replays identically")
    func nextPage() async throws {
        let session = try Session(source: .offline, path: "/", options: try QueryOptions.parse(["--order-by", "score"]))
        defer { session.stop() }
        try await session.start()
        var children = JSONObject()
        for i in 0..<10 { children["k\(i)"] = .object(["score": .number(Double(i))]) }
        let value = JSONValue.object(children)
        _ = try await session.run(.put(.root, value, json: value.jsonText()))
        _ = try await session.run(.load(.page(3)))
        let recorder = FlightRecorder()
        session.startRecording(into: recorder)
        _ = try await session.run(.put("/k1", ["score": 1.5], json: #"{"score": 1.5}"#))
        _ = try await session.run(.load(.next))
        #expect(session.shownSections().map(\.rows.count) == [6])
        _ = try await session.run(.put("/k4", ["score": -1], json: #"{"score": -1}"#))
        _ = try await session.run(.put("/k9", ["score": 0.5], json: #"{"score": 0.5}"#))
        recorder.close()
        let recording = try FlightRecording(jsonLines: recorder.jsonLines())
        let headers = recording.entries.compactMap { entry -> FlightHeader? in
            if case .header(let header) = entry { return header } else { return nil }
        }
        #expect(headers.map(\.query.limit) == [.first(3), .first(6)], "the window of each part")
        #expect(headers.last?.mode == .paged(size: 3))
        #expect(recording.changes.count == 3)
        #expect(try await Self.verdict(of: recording) == .identical(changes: 3))
    }

    @Test("a recording whose change was altered is named at that change, as a defect, with both versions")
    func altered() async throws {
        let seed = TestSeed.current("FlightReplayTests/altered", default: 11)
        let run = try RecordedSession(seed: seed, sections: false)
        try await run.run(steps: 80, recordAfterLoad: true)
        var lines = run.recorder.jsonLines().split(separator: "\n").map(String.init)
        // The fourth change tells one event fewer.
        // (Written whole: a change's counts may be written as those changed since the one before.)
        let read = try FlightRecording(jsonLines: lines.joined(separator: "\n"))
        var seen = 0
        var target = 0
        for (entry, line) in zip(read.entries, read.lines) {
            guard case .change(var change) = entry else { continue }
            seen += 1
            guard seen == 4 else { continue }
            change.events.removeLast()
            lines[line - 1] = FlightEntry.change(change).jsonLine
            target = change.number
        }
        try #require(target > 0)
        let verdict = try await Self.verdict(of: try FlightRecording(jsonLines: lines.joined(separator: "\n")))
        guard case .differs(let change, _, let replayed?, false) = verdict else {
            Issue.record("\(seed): \(verdict)")
            return
        }
        #expect(change == target)
        #expect(verdict.lines[0].contains("a defect in LiveCollection"))
        #expect(verdict.lines.contains { $0.contains("recorded:") } && verdict.lines.contains { $0.contains("replayed:") })
        #expect(replayed.events.count > 0)
    }

    @Test("a list whose data changed outside a batch is named at the change it broke; the rejection is kept and exported")
    func changedOutsideBatch() async throws {
        let session = try Session(source: .offline, path: "/items",
                                  options: try QueryOptions.parse(["--order-by", "score", "--section-by", "team"]))
        try await session.start()
        let sectioned = try #require(session.view.sectioned)
        var extra = 0
        // The app's data source: the sections, and (from change 4 on) a row of its own.
        let counts = { sectioned.counts.enumerated().map { $0.offset == 0 ? $0.element + extra : $0.element } }
        let list = CheckingListTarget(counts: counts)
        let recorder = FlightRecorder()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rejected-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        recorder.exportOnRejection = file
        session.attach(recorder)
        let connector = ListConnector(target: RecordedListTarget(list, counts: counts, recorder: recorder))
        let steps = sectioned.observeSteps { connector.apply($0) }
        defer { steps.cancel() }
        connector.isReady = true
        func put(_ key: String, _ value: JSONValue) async throws {
            _ = try await session.run(.put(try DatabasePath(key), value, json: value.jsonText()))
        }
        for (i, key) in ["a", "b", "c"].enumerated() { try await put(key, ["score": .number(Double(i)), "team": "red"]) }
        // The app shows a row of its own in section 0, outside any batch.
        extra = 1
        try await put("d", ["score": 9, "team": "red"])
        #expect(list.rejected.count == 1)
        #expect(recorder.exportError == nil)
        // The file written out holds the change that broke the list, and names it.
        let recording = try FlightRecording(contentsOf: file)
        #expect(recording.entries.contains { if case .rejected(4, _) = $0 { true } else { false } })
        #expect(recording.changes.last?.number == 4)
        let verdict = try await Self.verdict(of: recording)
        #expect(verdict == .changedOutsideBatch(change: 4, reported: [5], told: [4]), "\(verdict.lines)")
    }

    @Test("priorities are recorded as received, so a priority-ordered list replays identically")
    func priorities() async throws {
        let session = try Session(source: .offline, path: "/items", options: try QueryOptions.parse([]))
        try await session.start()
        let recorder = FlightRecorder()
        session.attach(recorder)
        for (key, json) in [("a", #"{".priority": 3, "n": "Ada"}"#), ("b", #"{".priority": 1, "n": "Bo"}"#),
                            ("c", #"{".value": "x", ".priority": 2}"#), ("b", #"{".priority": 5, "n": "Bo"}"#),
                            ("a", #"{"n": "Ada"}"#)] {
            _ = try await session.run(.put(try DatabasePath(key), try JSONValue(parsing: json), json: json))
        }
        let text = recorder.jsonLines()
        #expect(text.contains(#"".priority":3"#) && text.contains(#"".priority":2"#), "\(text)")
        let recording = try FlightRecording(jsonLines: text)
        let replay = FlightReplay(recording)
        #expect(try await replay.run() == .identical(changes: 5))
        #expect(Self.layout(try #require(replay.session)) == Self.layout(session))
        await replay.finish()
    }
}
