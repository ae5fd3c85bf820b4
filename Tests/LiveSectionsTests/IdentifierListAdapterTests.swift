// IdentifierListAdapterTests.swift — identifiers, lazy cached items, invalidation.
import LiveCollection
import LiveSections
import Testing

@MainActor
final class ScriptedIdentifiers: IdentifierDataSource {
    var current: [(id: Int, section: Int)] = []
    var summaries: [Int: Int] = [:]
    var fetches: [Int: Int] = [:]
    /// When set, `entries()` waits for the test to resume it.
    var holdNext = false
    var held: CheckedContinuation<Void, Never>?

    func entries() async throws -> [(id: Int, section: Int)] {
        let snapshot = current
        if holdNext {
            holdNext = false
            await withCheckedContinuation { held = $0 }
        }
        return snapshot
    }

    func summary(for id: Int) -> Int { summaries[id, default: 0] }

    func item(for id: Int) async throws -> String {
        fetches[id, default: 0] += 1
        await Task.yield()
        return "item \(id) v\(summaries[id, default: 0])"
    }
}

@MainActor
@Suite("IdentifierListAdapter")
struct IdentifierListAdapterTests {
    @Test("random invalidations: every batch passes UIKit's rules, counts included; the list ends equal to the source")
    func randomInvalidations() async throws {
        let source = ScriptedIdentifiers()
        let adapter = IdentifierListAdapter(source: source)
        let target = CheckingListTarget(counts: { adapter.counts })
        let connector = ListConnector(target: target)
        connector.isReady = true
        let token = adapter.observeSteps { connector.apply($0) }
        defer { token.cancel() }
        var r = Rng(seed: 3)
        func below(_ n: Int) -> Int { r.below(n) }
        var next = 0
        var reloads = 0
        let counting = adapter.observeSteps { steps in reloads += steps.reduce(0) { $0 + $1.stage.reloadedRows.count } }
        defer { counting.cancel() }
        for _ in 0..<1_500 {
            for _ in 0..<below(5) {
                switch below(4) {
                case 0: source.current.insert((next, below(5)), at: below(source.current.count + 1)); next += 1
                case 1: if !source.current.isEmpty { source.current.remove(at: below(source.current.count)) }
                case 2:
                    if !source.current.isEmpty {
                        var e = source.current.remove(at: below(source.current.count))
                        if below(2) == 0 { e.section = below(5) }
                        source.current.insert(e, at: below(source.current.count + 1))
                    }
                default: if !source.current.isEmpty { source.summaries[source.current[below(source.current.count)].id, default: 0] += 1 }
                }
            }
            try await adapter.invalidate()
        }
        #expect(target.rejected.isEmpty, "\(target.rejected.first.map { "\($0)" } ?? "")")
        var order: [Int] = []
        var rows: [Int: [Int]] = [:]
        for (id, s) in source.current {
            if rows[s] == nil { order.append(s) }
            rows[s, default: []].append(id)
        }
        #expect(target.shown == adapter.counts && adapter.counts == order.map { rows[$0]!.count })
        #expect(reloads > 0)
    }

    @Test("items are fetched once, shared by concurrent callers, and fetched again when their summary changes")
    func itemCache() async throws {
        let source = ScriptedIdentifiers()
        source.current = [(1, 0), (2, 0)]
        let adapter = IdentifierListAdapter(source: source)
        try await adapter.invalidate()
        let path = RowPath(section: 0, row: 0)
        async let a = adapter.item(at: path)
        async let b = adapter.item(at: path)
        let (first, second) = try await (a, b)
        #expect(first == "item 1 v0" && second == "item 1 v0")
        _ = try await adapter.item(at: path)
        #expect(source.fetches[1] == 1)
        source.summaries[1] = 5
        try await adapter.invalidate()
        #expect(try await adapter.item(at: path) == "item 1 v5" && source.fetches[1] == 2)
    }

    @Test("a later invalidation wins over an earlier one still waiting")
    func latestWins() async throws {
        let source = ScriptedIdentifiers()
        let adapter = IdentifierListAdapter(source: source)
        source.current = [(1, 0)]
        source.holdNext = true
        let first = Task { try await adapter.invalidate() }
        while source.held == nil { await Task.yield() }
        source.current = [(1, 0), (2, 0), (3, 1)]
        try await adapter.invalidate()
        source.held?.resume()
        try await first.value
        #expect(adapter.counts == [2, 1])
    }
}
