// LocalWriteServerTests.swift — seeded runs of writes through a collection
// against a real LiveServer, while another client writes: windows the
// server cuts, refused writes, and the collection settling on the server's
// answer with every change valid for a list view.
@testable import LiveFirebase
import LiveSections
import LiveServer
import LiveTestSupport
import Testing

@MainActor
// The limit bounds a hung run: the suite takes about 12 s on an idle
// machine, several times that beside other builds.
@Suite("FirebaseCollection writes against live-server", .timeLimit(.minutes(10)))
struct LocalWriteServerTests {
    nonisolated static let queries: [DatabaseQuery] = [
        DatabaseQuery(order: .child("s")).limited(toFirst: 4),
        DatabaseQuery(order: .child("s")).limited(toLast: 3),
        DatabaseQuery(order: .key),
    ]

    /// Waits, following the collection's updates, until it holds exactly
    /// the server's answer to its query, with the same values; fails with
    /// the difference when no update comes for `seconds` (a bound for a
    /// failure, not a wait: a settled collection returns at once).
    static func settle(_ c: FirebaseCollection<DecodingDataSource<RawChild>>, _ client: DatabaseClient,
                       seconds: Int = 20) async throws {
        while true {
            let answer = try await client.get(query: c.effectiveQuery)
            let want = answer.orderedChildren().compactMap { child in child.key.map { ($0, child.value) } }
            let have = c.collection.models.map { ($0.identifier, $0.dictionary) }
            if have.count == want.count, zip(have, want).allSatisfy({ $0.0 == $1.0 && $0.1 == $1.1 }) { return }
            let updated = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
                var token: ObservationToken?
                var resumed = false
                let finish: @MainActor (Bool) -> Void = { value in
                    guard !resumed else { return }
                    resumed = true
                    token?.cancel()
                    done.resume(returning: value)
                }
                token = c.observeValue { finish(true) }
                Task { @MainActor in
                    try? await Task.sleep(for: .seconds(seconds))
                    finish(false)
                }
            }
            if !updated {
                let held = have.map { "\($0.0)=\($0.1.jsonText())" }, answered = want.map { "\($0.0)=\($0.1.jsonText())" }
                Issue.record(Comment(rawValue: "not settled: the collection holds \(held), the server answers \(answered); "
                                     + "the view shows \(c.view.visible.compactMap(\.key)), holds \(c.view.cache.count)"))
                return
            }
        }
    }

    @Test("writes, refusals and another client's writes settle on the server's answer", arguments: queries)
    func settles(query: DatabaseQuery) async throws {
        // One server for every seed: each run has a location of its own.
        try await withServer { server in
            for (i, seed) in TestSeed.all("LocalWriteServerTests", defaults: [1, 2, 3], fresh: true).enumerated() {
                let reference = try DatabaseReference(url: server.url, path: "/run\(i)/items")
                let client = DatabaseClient(reference)
                try await run(query, seed, reference, client)
            }
        }
    }

    private func run(_ query: DatabaseQuery, _ seed: TestSeed, _ reference: DatabaseReference,
                     _ client: DatabaseClient) async throws {
        var rng = seed.generator
        func key() -> Key { Key(unchecked: "k\(Int.random(in: 0..<10, using: &rng))") }
        func child() -> JSONValue { ["s": .number(Double(Int.random(in: 0..<8, using: &rng))), "t": "x"] }
        var start = JSONObject()
        for _ in 0..<6 { start[key().string] = child() }
        try await client.set(.object(start))
        // Every write request the collection sends, to count them.
        let sent = RESTRecordingTransport()
        let c = try FirebaseCollection(reference: reference, query: query, mode: .live,
                                       dataSource: DecodingDataSource<RawChild>(), writer: .database(transport: sent))
        try await c.start()
        defer { c.stop() }
        let watched = WatchedSections(c.collection)
        var mirror = c.collection.models.map(\.identifier)
        var update: [ChildEvent] = []
        var log: [String] = []
        var firstDivergence: String?
        let tokens = [c.observeChildEvents { update.append($0); log.append("\($0.kind.rawValue) \($0.key) after \($0.previousKey?.string ?? "-")") },
                      c.observeValue {
                          QueryOracle.replay(update, on: &mirror); update.removeAll(); log.append("| \(mirror)")
                          let shown = c.view.visible.compactMap(\.key)
                          if shown != mirror, firstDivergence == nil {
                              firstDivergence = "at an update: view \(shown) vs events \(mirror), held \(c.view.heldForWrites), cache \(c.view.cache.keys.sorted()): \(log.suffix(12))"
                          }
                          let held = c.collection.models.map(\.identifier)
                          if held != mirror, c.feed.pendingCount == 0, firstDivergence == nil {
                              firstDivergence = "collection \(held) vs events \(mirror): \(log.suffix(30))"
                          }
                      },
                      c.observeWrites {
                          log.append("write \($0) \($1)")
                          let shown = c.view.visible.compactMap(\.key)
                          if shown != mirror, firstDivergence == nil {
                              firstDivergence = "at write \($0) \($1): view \(shown) vs events \(mirror), held \(c.view.heldForWrites), cache \(c.view.cache.keys.sorted()): \(log.suffix(12))"
                          }
                      }]
        defer { for token in tokens { token.cancel() } }
        var refused: [Int] = []
        var made = 0
        for step in 0..<40 {
            let path = try DatabasePath([key()])
            let roll = Int.random(in: 0..<12, using: &rng)
            if roll < 7 { made += 1 }
            switch roll {
            case 0..<3: try c.write(.set(path, child()))
            case 3: try c.write(.remove(path))
            case 4: try c.write(.set(try path.child("s"), .number(Double(Int.random(in: 0..<8, using: &rng)))))
            case 5: refused.append(try c.write(.set(path, child(), ifMatch: "stale")))
            case 6: _ = try c.pushWrite(child())
            case 7: try await client.set(child(), at: path)
            case 8: try await client.remove(at: path)
            // Offline for a while: writes wait, another client's go on.
            case 10: c.goOffline()
            case 11: c.goOnline()
            default: try await client.update([try DatabasePath([key(), "s"]): .number(Double(Int.random(in: 0..<8, using: &rng)))])
            }
            #expect(watched.problem == nil, "\(seed), step \(step): \(watched.problem ?? "")")
            if c.feed.pendingCount == 0 {
                let shown = c.view.visible.compactMap(\.key), held = c.collection.models.map(\.identifier)
                #expect(shown == held, "\(seed), step \(step): the view shows \(shown), the collection holds \(held); pending \(c.pendingWrites)")
                if shown != held { return }
            }
        }
        c.goOnline()
        for id in c.pendingWrites { _ = await c.outcome(of: id) }
        let requests = sent.requests.filter { $0.httpMethod != "GET" }
        #expect(requests.count == made, "\(seed): \(made) writes made, \(requests.count) sent")
        for id in refused {
            guard case .reverted(.etagMismatch)? = await c.outcome(of: id) else {
                Issue.record("\(seed): write \(id) with a stale ETag was not refused")
                continue
            }
        }
        try await Self.settle(c, client)
        #expect(firstDivergence == nil, "\(seed): \(firstDivergence ?? "")")
        let shown = c.view.visible.compactMap(\.key)
        #expect(mirror == shown, "\(seed): events replay to \(mirror), the view shows \(shown): \(log.suffix(60))")
        #expect(watched.problem == nil, "\(seed): \(watched.problem ?? "")")
        #expect(c.view.localWrites.isEmpty, "\(seed)")
    }
}
