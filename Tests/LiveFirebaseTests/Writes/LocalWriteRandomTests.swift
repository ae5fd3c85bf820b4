// LocalWriteRandomTests.swift — seeded runs of local writes, the server's
// answers (taken, refused, its data before or after the answer) and other
// clients' changes: every change valid for a list view, the child events
// replaying to the rows, and the rows equal to the server's query result
// once every write is answered.
@testable import LiveFirebase
import LiveSections
import LiveTestSupport
import Testing

@MainActor
@Suite("FirebaseCollection writes, randomised")
struct LocalWriteRandomTests {
    nonisolated static let queries: [DatabaseQuery] = [
        DatabaseQuery(order: .child("s")),
        DatabaseQuery(order: .child("s")).limited(toFirst: 4),
        DatabaseQuery(order: .key).limited(toLast: 3),
        DatabaseQuery(),
    ]

    /// A random write (this client's or another's), as the oracle's paths:
    /// an update's paths never hold one another (the server refuses that).
    static func randomWrite(_ rng: inout SplitMix64) -> [([Key], JSONValue)] {
        var paths: [([Key], JSONValue)] = []
        for (path, value) in QueryOracle.randomUpdate(&rng, first: false)
        where !paths.contains(where: { $0.0.starts(with: path) || path.starts(with: $0.0) }) {
            paths.append((path, value))
        }
        return paths
    }

    static func databaseWrite(_ paths: [([Key], JSONValue)]) -> DatabaseWrite {
        if paths.count == 1 { return .set(DatabasePath(uncheckedKeys: paths[0].0), paths[0].1) }
        var values: [DatabasePath: JSONValue] = [:]
        for (path, value) in paths { values[DatabasePath(uncheckedKeys: path)] = value }
        return .update(.root, values)
    }

    /// Sends the server's data for `paths` as its stream would.
    static func deliver(_ paths: [([Key], JSONValue)], to c: FirebaseCollection<DecodingDataSource<RawChild>>) async throws {
        if paths.count == 1 {
            try await c.receive(.put, at: DatabasePath(uncheckedKeys: paths[0].0), json: paths[0].1.jsonText())
        } else {
            var members = JSONObject()
            for (path, value) in paths { members[DatabasePath(uncheckedKeys: path).relativeText] = value }
            try await c.receive(.patch, at: .root, json: JSONValue.object(members).jsonText())
        }
    }

    @Test("local writes, answers and other clients' changes settle on the server's result", arguments: queries)
    func settles(query: DatabaseQuery) async throws {
        for seed in TestSeed.all("LocalWriteRandomTests", defaults: [1, 2, 3, 4, 0xBEEF], fresh: true) {
            try await run(query, seed)
        }
    }

    private func run(_ query: DatabaseQuery, _ seed: TestSeed) async throws {
        var rng = seed.generator
        let gate = WriteGate()
        let c = try FirebaseCollection(reference: try DatabaseReference(url: "http://127.0.0.1:9", path: "/items"),
                                       query: query, mode: .live, dataSource: DecodingDataSource<RawChild>(),
                                       opener: .offline, writer: gate.sender)
        defer { c.stop() }
        var server = QueryOracle()
        let start = QueryOracle.randomUpdate(&rng, first: true)
        for (path, value) in start { server.apply(path, value) }
        try await Self.deliver(start, to: c)
        let watched = WatchedSections(c.collection)
        var mirror = c.collection.models.map(\.identifier)
        var update: [ChildEvent] = []
        let tokens = [c.observeChildEvents { update.append($0) },
                      c.observeValue { QueryOracle.replay(update, on: &mirror); update.removeAll() }]
        // The writes made and not answered, oldest first, as the oracle's
        // paths, and whether another client changed what they change since.
        var made: [(paths: [([Key], JSONValue)], foreign: Bool)] = []

        func answer() async throws {
            _ = await gate.next()
            let (paths, foreign) = made.removeFirst()
            let id = c.pendingWrites[0]
            if Int.random(in: 0..<5, using: &rng) == 0 {
                gate.answer(.permissionDenied("refused"))
                #expect(await c.outcome(of: id) == .reverted(.permissionDenied("refused")))
                return
            }
            let before = server.data
            for (path, value) in paths { server.apply(path, value) }
            // A write that changes nothing raises no event on the server.
            let echo = server.data != before || Bool.random(using: &rng)
            let echoFirst = Bool.random(using: &rng)
            let told = watched.stages.count
            var trace: [String] = ["pending \(made.map(\.paths))", "echo \(echo) first \(echoFirst)"]
            let traceToken = c.observeChildEvents { trace.append("\($0.kind.rawValue) \($0.key) \($0.snapshot.value.jsonText())") }
            defer { traceToken.cancel() }
            if echo, echoFirst { try await Self.deliver(paths, to: c) }
            trace.append("acked")
            gate.answer()
            #expect(await c.outcome(of: id) == .confirmed)
            if echo, !echoFirst { try await Self.deliver(paths, to: c) }
            // No flicker: the server taking what is shown changes nothing.
            if !foreign {
                #expect(watched.stages.count == told, "\(seed): a confirmed write changed the rows: \(paths) \(trace)")
            }
        }
        func overlap(_ a: [([Key], JSONValue)], _ b: [([Key], JSONValue)]) -> Bool {
            a.contains { x in b.contains { y in x.0.first == nil || y.0.first == nil || x.0.first == y.0.first } }
        }

        for step in 0..<120 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<4:
                let paths = Self.randomWrite(&rng)
                made.append((paths, false))
                try c.write(Self.databaseWrite(paths))
            case 4..<7 where !made.isEmpty:
                try await answer()
            default:
                let paths = Self.randomWrite(&rng)
                for (path, value) in paths { server.apply(path, value) }
                for i in made.indices where overlap(made[i].paths, paths) { made[i].foreign = true }
                try await Self.deliver(paths, to: c)
            }
            #expect(watched.problem == nil, "\(seed), step \(step): \(watched.problem ?? "")")
            #expect(mirror == c.collection.models.map(\.identifier), "\(seed), step \(step): events replay to the rows")
            if watched.problem != nil { return }
        }
        while !made.isEmpty { try await answer() }
        #expect(c.pendingWrites.isEmpty && !gate.isHolding)
        let expected = server.result(query)
        #expect(c.collection.models.map(\.identifier) == expected, "\(seed): the server's result")
        for model in c.collection.models {
            let want = QueryOracle.split(server.data[model.identifier] ?? .null).0
            #expect(model.dictionary == want, "\(seed): \(model.identifier)")
        }
        #expect(watched.problem == nil, "\(seed): \(watched.problem ?? "")")
        for token in tokens { token.cancel() }
    }
}
