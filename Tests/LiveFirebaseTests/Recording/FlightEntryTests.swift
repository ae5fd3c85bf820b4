// FlightEntryTests.swift — a recording's lines: every entry writes and
// reads back the same; errors keep no URL; values are redacted as documented.

import Foundation
import LiveModel
import LiveTestSupport
import LiveSections
import Testing
@testable import LiveFirebase

@Suite("Flight recording entries")
struct FlightEntryTests {
    @Test("every kind of entry, and a query no REST parameter can say, read back the same")
    func roundTrip() throws {
        let query = DatabaseQuery(order: .child("a/b"), start: .init(value: "x", key: "k1", isInclusive: false),
                                  end: .init(value: 9.5), limit: .last(3))
        let write = FlightWrite(id: 2, write: .update(.root, ["k/score": 3, "j": .null]))
        let stage = BatchStage(deletedSections: [1], insertedSections: [0], movedSections: [SectionMove(from: 2, to: 3)],
                               deletedRows: [RowPath(section: 0, row: 1)], insertedRows: [RowPath(section: 1, row: 0)],
                               reloadedRows: [RowPath(section: 0, row: 0)],
                               movedRows: [RowMove(from: RowPath(section: 0, row: 2), to: RowPath(section: 1, row: 1))])
        let entries: [FlightEntry] = [
            .header(FlightHeader(path: "/rooms/lobby", query: query, sectionBy: "team", mode: .pagedFromEnd(size: 20))),
            .state(FlightState(value: ["k": ["score": 1, ".priority": 2]], isComplete: true, isWhole: false, pending: [write])),
            .message(.connected), .message(.renewingCredential), .message(.disconnected(reason: "reset")),
            .message(.ended(nil)), .message(.ended(FlightFailure(kind: "permissionDenied", reason: "no"))),
            .message(.put(path: "/k/score", data: 4, isWhole: false, isCached: true)),
            .message(.patch(path: .root, data: ["k/score": .null], isWhole: true)),
            .write(FlightWrite(id: 3, write: .set("/k", ["s": 1], ifMatch: "etag"))), .write(FlightWrite(id: 4, write: .remove("/j"))),
            .outcome(id: 3, error: nil), .outcome(id: 4, error: "refused"),
            .change(FlightChange(number: 7, before: [2, 1], list: [2, 2], stages: [stage],
                                 after: [1, 2], events: [FlightEvent(kind: .moved, key: "k", previousKey: nil),
                                                         FlightEvent(kind: .added, key: "10", previousKey: "k")])),
            .rejected(change: 7, reason: "counts"), .gap("setQuery"),
        ]
        let text = entries.map(\.jsonLine).joined(separator: "\r\n")
        let read = try FlightRecording(jsonLines: text)
        #expect(read.entries == entries)
        #expect(read.header.query == query)
    }

    @Test("a change written as the sections it changed takes its counts from the state and the change before it")
    func changedRows() throws {
        let header = FlightEntry.header(FlightHeader(path: "/a", query: DatabaseQuery(), sectionBy: nil, mode: .all)).jsonLine
        let first = FlightChange(number: 1, before: [2, 1], list: nil,
                                 stages: [BatchStage(insertedRows: [RowPath(section: 1, row: 0)])], after: [2, 2], events: [])
        let second = FlightChange(number: 2, before: [2, 2], list: [1, 2],
                                  stages: [BatchStage(deletedRows: [RowPath(section: 0, row: 0)])], after: [1, 2],
                                  events: [FlightEvent(kind: .removed, key: "x", previousKey: nil)])
        func text(_ state: FlightState) -> String {
            [header, FlightEntry.state(state).jsonLine, String(decoding: first.line(rows: [(1, 2)]), as: UTF8.self),
             String(decoding: second.line(rows: [(0, 1)]), as: UTF8.self)].joined(separator: "\n")
        }
        #expect(try FlightRecording(jsonLines: text(FlightState(counts: [2, 1]))).changes == [first, second])
        // A section the counts before it do not have is refused, naming the line.
        #expect(throws: FlightRecordingError(line: 3, #"member "rows" names section 1 of 0"#)) {
            try FlightRecording(jsonLines: text(FlightState()))
        }
    }

    @Test("an error kept in a recording names no URL")
    func errorsWithoutURLs() {
        let errors: [DatabaseError] = [
            .http(status: 401, message: "Permission denied", url: "https://db.example.com/rooms.json?print=silent"),
            .transport("connection to https://db.example.com/rooms.json failed: reset"),
            .invalidURL("https://db.example.com/a", reason: "no host"),
        ]
        for error in errors {
            let text = error.recordedDescription
            #expect(!text.contains("example.com") && !text.contains("http"), "\(text)")
        }
        #expect(DatabaseError.http(status: 401, message: "Permission denied", url: "https://x").recordedDescription
                == "HTTP 401: Permission denied")
    }

    @Test("redaction keeps keys, priorities and order members; tags the rest, equal for equal bytes only")
    func redaction() {
        let byPriority = FlightRedaction(query: DatabaseQuery(), sectionBy: "team", salt: 1)
        let value: JSONValue = ["a": [".priority": 3, "name": "Ada", "team": ["x": 1]], "b": ["name": "caf\u{E9}"],
                                "c": ["name": "cafe\u{301}"]]
        let redacted = byPriority.redact(value, at: .root)
        #expect(redacted["a"]?[".priority"] == 3)
        #expect(redacted["a"]?["team"] == ["x": 1], "a section value is kept whole")
        let names = ["a", "b", "c"].map { redacted[$0]?["name"]?.stringValue ?? "" }
        #expect(names.allSatisfy { $0.hasPrefix("~string:") })
        #expect(names[1] != names[2], "NFC and NFD are different values")
        #expect(byPriority.redact(["name": "Ada"], at: "/z") ["name"] == redacted["a"]?["name"], "equal values, equal tags")
        let byScore = FlightRedaction(query: DatabaseQuery(order: .child("score")), sectionBy: nil, salt: 1)
        let objectScore = byScore.redact(["score": ["secret": "s"]], at: "/k")
        #expect(objectScore["score"]?["secret"]?.stringValue?.hasPrefix("~string:") == true, "an object ordered by keeps its shape only")
        // Ordered by value, an object child orders as any object: only its section value is kept.
        let byValue = FlightRedaction(query: DatabaseQuery(order: .value), sectionBy: "team", salt: 1)
        let children = byValue.redact(["a": ["team": "red", "name": "Ada"], "b": 4], at: .root)
        #expect(children["a"]?["team"] == "red" && children["b"] == 4)
        #expect(children["a"]?["name"]?.stringValue?.hasPrefix("~string:") == true)
        guard case .set(_, _, let etag?) = byScore.redact(.set("/k", 1, ifMatch: "abc")) else { Issue.record("no etag"); return }
        #expect(etag.hasPrefix("~etag:"))
    }

    @Test("redaction from received text: escapes and number forms tag as their values; text that is not JSON is refused whole")
    func redactionFromText() {
        let byScore = FlightRedaction(query: DatabaseQuery(order: .child("score")), sectionBy: "team", salt: 7)
        func redact(_ text: String, at path: DatabasePath = "/k") -> String? {
            var out: [UInt8] = Array("prefix".utf8)
            let bytes = Array(text.utf8)
            let done = bytes.withUnsafeBufferPointer { byScore.redact(text: $0, at: path, into: &out) }
            #expect(String(decoding: out.prefix(6), as: UTF8.self) == "prefix")
            return done ? String(decoding: out.dropFirst(6), as: UTF8.self) : (out.count == 6 ? nil : "partly written")
        }
        let plain = redact(#"{"name":"café","n":1,"ok":true,"score":2.50,"team":{"x":[1,"a"]}}"#)
        let escaped = redact(#" { "name" : "caf\u00e9" , "n" : 1.0e0, "ok":true, "score":2.50, "team":{"x":[1,"a"]} } "#)
        #expect(plain != nil)
        // Kept members are copied as received; tags are the same for the same values.
        func value(_ text: String?) -> JSONValue { (try? JSONValue(parsing: text ?? "")) ?? .null }
        #expect(value(plain)["score"] == 2.5 && value(plain)["team"] == ["x": [1, "a"]])
        #expect(value(plain)["name"] == value(escaped)["name"] && value(plain)["n"] == value(escaped)["n"])
        #expect(value(plain)["ok"]?.stringValue?.hasPrefix("~bool:") == true)
        // The same as from the value.
        #expect(value(plain) == byScore.redact(value(#"{"name":"café","n":1,"ok":true,"score":2.5,"team":{"x":[1,"a"]}}"#), at: "/k"))
        // A surrogate pair is one scalar: the same tag as the character written out.
        #expect(value(redact(#"{"name":"\ud83d\ude00"}"#))["name"] == value(redact(#"{"name":"😀"}"#))["name"])
        // Whole locations: each member is a child.
        #expect(value(redact(#"{"a":{"score":1,"t":"x"},"b":3}"#, at: .root))["a"]?["score"] == 1)
        // Torn, or refused by the parsers of recordings (a lone surrogate, a NUL).
        for torn in [#"{"name":"x""#, #"{"name":}"#, #"{"a":1}}"#, #"[1,"#, "", #""abc"#, "nul", #"{"a":1 "b":2}"#,
                     #"{"name":"\ud83dude00"}"#, #"{"name":"\ude00"}"#, #"{"name":"\ud83d\u0041"}"#, #"{"name":"a\u0000"}"#] {
            #expect(redact(torn) == nil, "\(torn)")
        }
    }

    @Test("redacting damaged text never traps: it is refused whole, or written as JSON")
    func redactionOfDamagedText() throws {
        let seed = TestSeed.current("FlightEntryTests/redactionOfDamagedText")
        var random = seed.generator
        let redaction = FlightRedaction(query: DatabaseQuery(order: .child("s")), sectionBy: "t/u", salt: 3)
        let valid = Array(#"{"a":{"s":1.5e3,"t":{"u":"x\"y","v":[true,null]},"w":"caf\u00e9\ud83d\ude00"},"b":-0}"#.utf8)
        let alphabet = Array(#"{}[]",:\u0123456789abcdefe+-. tn"#.utf8)
        for _ in 0..<2_000 {
            var text = valid
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let at = Int.random(in: 0..<text.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: text.remove(at: at)
                case 1: text.insert(alphabet.randomElement(using: &random)!, at: at)
                default: text[at] = alphabet.randomElement(using: &random)!
                }
                if text.isEmpty { text = [UInt8(ascii: "{")] }
            }
            for path: DatabasePath in [.root, "/a", "/a/t"] {
                var out: [UInt8] = []
                let done = text.withUnsafeBufferPointer { redaction.redact(text: $0, at: path, into: &out) }
                if done {
                    #expect((try? JSONValue(parsing: String(decoding: out, as: UTF8.self))) != nil,
                            "\(seed): \(String(decoding: text, as: UTF8.self)) gave \(String(decoding: out, as: UTF8.self))")
                } else {
                    #expect(out.isEmpty, "\(seed)")
                }
            }
        }
    }

    @Test("data received over several lines is recorded on one line, values kept or redacted", arguments: [false, true])
    @MainActor
    func receivedLineBreaks(keepsValues: Bool) async throws {
        let reference = try DatabaseReference(url: "http://127.0.0.1:9", path: "/items")
        let collection = try FirebaseCollection(reference: reference, query: DatabaseQuery(order: .child("s")), mode: .all,
                                                dataSource: DecodingDataSource<RawChild>(), opener: .offline)
        defer { collection.stop() }
        let recorder = FlightRecorder(keepsValues: keepsValues)
        collection.record(into: recorder)
        // As a server may send it: data: lines joined by line breaks.
        try await collection.receive(.put, at: .root, json: "{\"a\"\n:{\"s\" :\r\n1,\n\"t\":\"x\"},\n\"b\":{\"s\":-0}}")
        try await collection.receive(.patch, at: .root, json: "{\"a/s\"\n:\n2}")
        recorder.close()
        let recording = try FlightRecording(jsonLines: recorder.jsonLines())
        let puts = recording.entries.compactMap { entry -> JSONValue? in
            if case .message(.put(_, let data, _, _)) = entry { return data } else { return nil }
        }
        #expect(puts.first?["a"]?["s"] == 1 && puts.first?["b"]?["s"] == 0)
        #expect((puts.first?["a"]?["t"]?.stringValue?.hasPrefix("~string:") ?? false) == !keepsValues)
        #expect(recording.changes.count == 2)
    }
}
