// ChangeMarkTests.swift — a line holding several changes marks each event
// with its change: applied change by change, as Firebase defines prevKey,
// the events give the order `show` prints; applied as one change, they may
// not.

import LiveFirebase
import LiveModel
@testable import LiveREPL
import Testing

@MainActor
@Suite("live-repl --json: events marked with their change")
struct ChangeMarkTests {
    @Test func twoMessagesInOneLine() async throws {
        let session = try Session(source: .offline, path: "/items", options: try QueryOptions.parse(["--order-by", "n"]))
        try await session.start()
        _ = try await session.run(try CommandParser.parse(#"put / {"a": {"n": 1}, "b": {"n": 2}}"#))
        // Two messages before the line is printed: x is added after a, then
        // a moves after b. Taken as one change, x would follow a's new place.
        try await session.firebase.receive(.put, at: "/x", json: #"{"n": 1.5}"#)
        try await session.firebase.receive(.put, at: "/a/n", json: "3")
        let report = session.takeUnsolicited()
        let line = JSONOutput.between(report)
        let events = try LiveViewTests.events(line)
        #expect(events.map(\.change) == [0, 1, 1], "\(line)")
        var keys = ["a", "b"]
        LiveViewTests.apply(events, to: &keys)
        #expect(keys == ["x", "b", "a"], "\(line)")
        #expect(keys == session.shownSections().flatMap { $0.rows.map(\.key.string) }, "\(line)")
        // Taken as one change, they would not give it.
        var merged = ["a", "b"]
        LiveViewTests.apply(events.map { ReplayedEvent(type: $0.type, key: $0.key, prevKey: $0.prevKey) }, to: &merged)
        #expect(merged != keys)
        // One change in a line: no mark.
        try await session.firebase.receive(.put, at: "/b/n", json: "0")
        #expect(!JSONOutput.between(session.takeUnsolicited()).contains(#""change""#))
    }

    @Test func aReportFollowedByAnotherCountsOn() {
        func added(_ key: Key, change: Int) -> ReportedEvent {
            ReportedEvent(ChildEvent(kind: .added, key: key, snapshot: .absent(key: key), previousKey: nil), change: change)
        }
        var first = ChangeReport()
        first.events = [added("a", change: 0), added("b", change: 1)]
        var second = ChangeReport()
        second.events = [added("c", change: 0)]
        #expect(first.followed(by: second).events.map(\.change) == [0, 1, 2])
        #expect(ChangeReport().followed(by: second).events.map(\.change) == [0])
    }
}
