// JoinedCollectionTests.swift — keys at one location joined with data at another.

import LiveFirebase
import LiveModel
import Testing

@MainActor
@Suite("JoinedCollection")
struct JoinedCollectionTests {
    func rows(_ c: JoinedCollection<RawChild>) -> [String] {
        c.collection.models.map { row in
            switch row.state {
            case .loading: return "\(row.identifier):loading"
            case .missing: return "\(row.identifier):missing"
            case .loaded(let m): return "\(row.identifier):\(m.dictionary["name"]?.stringValue ?? "?")"
            case .failed: return "\(row.identifier):failed"
            }
        }
    }

    /// Row `index`, or nil when there is none (yet).
    func row(_ c: JoinedCollection<RawChild>, _ index: Int) -> String? {
        let rows = rows(c)
        return rows.indices.contains(index) ? rows[index] : nil
    }

    @Test("a key without data is a missing row, never dropped; rows follow the index and the data live")
    func join() async throws {
        let streams = ScriptedStreams()
        let db = try DatabaseURL("http://127.0.0.1:9")
        let c = try JoinedCollection<RawChild>(
            index: DatabaseReference(database: db, path: "/users/alice/groups"), query: DatabaseQuery(order: .key),
            data: DatabaseReference(database: db, path: "/groups"), opener: streams.opener)
        let started = Task { await c.start() }
        try await waitFor { streams.openPaths.contains("/users/alice/groups") }
        try streams.send("/users/alice/groups", #"{"g1": true, "g2": true, "g3": true}"#, order: .key)
        try await waitFor { streams.openPaths.isSuperset(of: ["/groups/g1", "/groups/g2", "/groups/g3"]) }
        #expect(rows(c) == ["g1:loading", "g2:loading", "g3:loading"])
        try streams.send("/groups/g1", #"{"name": "A"}"#)
        try streams.send("/groups/g2", "null")
        try streams.send("/groups/g3", #"{"name": "C"}"#)
        await started.value
        #expect(rows(c) == ["g1:A", "g2:missing", "g3:C"])

        try streams.send("/groups/g2", #"{"name": "B"}"#)
        try await waitFor { row(c, 1) == "g2:B" }
        try streams.send("/groups/g3", #""C2""#, at: "/name")
        try await waitFor { row(c, 2) == "g3:C2" }
        try streams.send("/groups/g1", "null")
        try await waitFor { row(c, 0) == "g1:missing" }
        #expect(rows(c) == ["g1:missing", "g2:B", "g3:C2"], "a row whose data went away stays, as missing")

        try streams.send("/users/alice/groups", "null", at: "/g1", order: .key)
        try streams.send("/users/alice/groups", "true", at: "/g0", order: .key)
        try await waitFor { rows(c).first == "g0:loading" }
        #expect(rows(c) == ["g0:loading", "g2:B", "g3:C2"])
        try streams.send("/groups/g0", #"{"name": "Z"}"#)
        try await waitFor { rows(c).first == "g0:Z" }
        c.stop()
    }

    private func waitFor(_ condition: () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(condition())
    }
}
