// FlightRecorderTests.swift — a recorder attached to a collection the app
// changes around it: sections let go, a recorder stopped or replaced while
// a message or a page is on its way.
@testable import LiveFirebase
import Foundation
import LiveCollection
import LiveModel
import LiveSections
import Testing

@MainActor
@Suite("Flight recorder, attached")
struct FlightRecorderTests {
    private func scored(_ pairs: [(String, Int)]) -> String {
        "{" + pairs.map { #""\#($0.0)": {"score": \#($0.1), "team": "t\#($0.1 % 2)"}"# }.joined(separator: ",") + "}"
    }

    private func collection(mode: LoadMode = .all) throws -> FirebaseCollection<DecodingDataSource<RawChild>> {
        try FirebaseCollection(reference: try DatabaseReference(url: "https://example.firebaseio.com", path: "/p"),
                               query: DatabaseQuery(order: .child("score")), mode: mode,
                               dataSource: DecodingDataSource<RawChild>(), opener: .offline)
    }

    private nonisolated static func team(_ child: RawChild) -> String {
        if case .object(let members) = child.dictionary, case .string(let team)? = members["team"] { team } else { "" }
    }

    /// The recording's state with the puts it kept applied in order; nil without a state.
    private static func replayed(_ recording: FlightRecording) -> JSONValue? {
        guard case .state(let state) = recording.entries[1] else { return nil }
        var value = state.value
        for entry in recording.entries.dropFirst(2) {
            if case .message(.put(let path, let data, _, _)) = entry { value = value.replacing(path.keys[...], with: data) }
        }
        return value
    }

    @Test("sections the app lets go keep their last counts: later changes are still recorded")
    func sectionsLetGo() async throws {
        let players = try collection()
        let recorder = FlightRecorder()
        var teams: SectionedCollection<RawChild, String>? = SectionedCollection(players.collection, sectionedBy: Self.team)
        players.record(into: recorder, sectionBy: "team", sections: teams)
        try await players.receive(.put, at: .root, json: scored([("a", 1), ("b", 2)]))
        #expect(recorder.changeCount == 1)
        teams = nil
        try await players.receive(.put, at: "/c", json: #"{"score": 3, "team": "t1"}"#)
        try await players.receive(.put, at: "/a", json: "null")
        #expect(recorder.changeCount == 3)
        let recording = try FlightRecording(jsonLines: recorder.jsonLines())
        #expect(recording.changes.last?.after == [1, 1], "the last counts the sections told")
        recorder.stop()
        players.stop()
    }

    @Test("a recording whose older entries went starts from the children as the collection held them")
    func foldedState() async throws {
        let players = try collection()
        let recorder = FlightRecorder(limit: 1024, keepsValues: true)
        players.record(into: recorder)
        try await players.receive(.put, at: .root, json: scored((0..<20).map { ("k\($0)", $0) }))
        for i in 0..<40 { try await players.receive(.put, at: try DatabasePath("/k\(i % 20)/score"), json: "\(100 + i)") }
        #expect(recorder.droppedCount > 0)
        #expect(recorder.byteCount <= 1024)
        // Replaying what is kept over the state gives the collection's children.
        let value = try #require(Self.replayed(FlightRecording(jsonLines: recorder.jsonLines())))
        var held = JSONObject()
        for key in players.view.cache.keys { held[key.string] = players.view.serverValue(key).value }
        #expect(value == .object(held))
        recorder.stop()
        players.stop()
    }

    @Test("entries whose lines outgrow their estimate are let go when written: the lines written stay within the limit")
    func estimatedBound() async throws {
        let players = try collection()
        let recorder = FlightRecorder(limit: 4096)
        players.record(into: recorder)
        try await players.receive(.put, at: .root, json: scored((0..<20).map { ("k\($0)", $0) }))
        // Redacted, each small number becomes a tag many times its length.
        let numbers = Array(repeating: "1", count: 12).joined(separator: ",")
        for i in 0..<60 {
            try await players.receive(.put, at: try DatabasePath("/k\(i % 20)"), json: #"{"score": \#(100 + i), "m": [\#(numbers)]}"#)
        }
        let estimated = recorder.droppedCount
        let lines = recorder.jsonLines().split(separator: "\n")
        let kept = lines.dropFirst(2).reduce(0) { $0 + $1.utf8.count + 1 }
        #expect(recorder.droppedCount > estimated, "the estimate was short: more went when written")
        #expect(kept <= 4096)
        #expect(recorder.byteCount == kept, "counted exactly once written")
        // What is kept, replayed over the state, gives each child's score
        // (kept as it is: the query orders by it) as the collection holds it.
        let value = try #require(Self.replayed(FlightRecording(jsonLines: lines.joined(separator: "\n"))))
        var scores: [String: JSONValue] = [:]
        if case .object(let children) = value {
            for (key, child) in children { if case .object(let members) = child { scores[key] = members["score"] } }
        }
        var held: [String: JSONValue] = [:]
        for key in players.view.cache.keys {
            if case .object(let members) = players.view.serverValue(key).value { held[key.string] = members["score"] }
        }
        #expect(scores == held)
        recorder.stop()
        players.stop()
    }

    @Test("save(to:) writes what write(to:) does, a later part included; a write made meanwhile is not undone by it",
          arguments: [false, true])
    func saved(withPart: Bool) async throws {
        let players = try collection()
        let recorder = FlightRecorder()
        players.record(into: recorder)
        try await players.receive(.put, at: .root, json: scored((0..<2000).map { ("k\($0)", $0) }))
        // A new part: its state is written off the main actor too.
        if withPart { players.record(into: recorder) }
        for i in 0..<30 { try await players.receive(.put, at: try DatabasePath("/k\(i % 20)/score"), json: "\(100 + i)") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("saved-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = directory.appendingPathComponent("saved.jsonl"), written = directory.appendingPathComponent("written.jsonl")
        try await recorder.save(to: saved)
        try recorder.write(to: written)
        let text = try String(contentsOf: saved, encoding: .utf8)
        #expect(text == (try String(contentsOf: written, encoding: .utf8)))
        let recording = try FlightRecording(jsonLines: text)
        #expect(recording.changes.count == 31, "the first load, then 30")
        #expect(recording.entries.filter { if case .header = $0 { true } else { false } }.count == (withPart ? 2 : 1))

        // A change and a write while a save is under way (held before it
        // writes): the file ends as the write left it.
        let (reached, reaching) = AsyncStream<Void>.makeStream()
        let (gate, opening) = AsyncStream<Void>.makeStream()
        recorder.savePause = {
            reaching.yield()
            for await _ in gate { break }
        }
        async let saving: Void = recorder.save(to: saved)
        for await _ in reached { break }
        try await players.receive(.put, at: "/k1/score", json: "500")
        try recorder.write(to: saved)
        opening.yield()
        try await saving
        recorder.savePause = nil
        #expect(try FlightRecording(contentsOf: saved).changes.count == 32)

        let missing = directory.appendingPathComponent("no/such/dir/file.jsonl")
        await #expect { try await recorder.save(to: missing) } throws: { error in
            (error as? FlightRecordingError)?.description.contains(missing.path) == true
        }
        recorder.stop()
        players.stop()
    }

    @Test("a state's children are written in the order of their keys' Unicode scalars")
    func stateOrder() throws {
        let names = ["b", "a", "ab", "abcdefgh", "abcdefghi", "abcdefgg", "café", "cafe", "caf\u{E9}x", "-Mz8", "10", "9", "😀", "ｚ", "z"]
        let keys = try names.map { try Key($0) }
        let expected = names.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
        #expect(FlightBase.sorted(keys).map(\.string) == expected)
    }

    @Test("a page loaded while recorded is a new part; not if the app stopped the recorder meanwhile", arguments: [false, true])
    func pageWhileRecorded(stoppedMeanwhile: Bool) async throws {
        let players = try collection(mode: .paged(size: 2))
        let recorder = FlightRecorder()
        players.record(into: recorder)
        let all = scored([("a", 1), ("b", 2), ("c", 3), ("d", 4)])
        try await players.receive(.put, at: .root, json: all)
        let listening = players.generation
        let page = Task { try await players.loadNextPage() }
        // The page's stream is open (the recorder set aside): it is given the data, as a server would.
        while players.generation == listening { await Task.yield() }
        if stoppedMeanwhile { recorder.stop() }
        try await players.receive(.put, at: .root, json: all)
        #expect(try await page.value == 2)
        let headers = try FlightRecording(jsonLines: recorder.jsonLines()).entries.filter {
            if case .header = $0 { true } else { false }
        }
        if stoppedMeanwhile {
            #expect(players.flightRecorder == nil, "stopped by the app: not attached again")
            #expect(headers.count == 1)
        } else {
            #expect(players.flightRecorder === recorder)
            #expect(headers.count == 2, "the window of two pages, a part of its own")
        }
        recorder.stop()
        players.stop()
    }
}
