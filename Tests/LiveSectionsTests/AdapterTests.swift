// AdapterTests.swift — the ready-gated connector, the checking target and static sections.
import LiveCollection
import LiveSections
import Testing

@MainActor
@Suite("List adapters")
struct AdapterTests {
    @Test("nothing incremental before the view is ready; the first load is one reload; every later batch passes UIKit's rules")
    func readyGateAndChecking() throws {
        let data = StaticSections<Int, Int>([SectionItems(id: 0, items: [1, 2, 3])])
        let target = CheckingListTarget(counts: { data.counts })
        let connector = ListConnector(target: target)
        let token = data.observeSteps { connector.apply($0) }
        defer { token.cancel() }
        try data.replace(with: [SectionItems(id: 0, items: [3, 1]), SectionItems(id: 1, items: [9])])
        #expect(target.reloads == 0 && target.batches == 0)
        connector.isReady = true
        #expect(target.reloads == 1 && target.shown == [2, 1])
        connector.isReady = true // already ready: no second reload
        #expect(target.reloads == 1)
        var r = Rng(seed: 99)
        var next = 100
        for _ in 0..<2_000 {
            var sections = data.sections
            if sections.isEmpty || r.below(8) == 0 { sections.insert(SectionItems(id: next, items: []), at: r.below(sections.count + 1)); next += 1 }
            for _ in 0..<r.below(6) {
                let s = r.below(sections.count)
                switch r.below(3) {
                case 0: sections[s].items.insert(next, at: r.below(sections[s].items.count + 1)); next += 1
                case 1: if !sections[s].items.isEmpty { sections[s].items.remove(at: r.below(sections[s].items.count)) }
                default:
                    if !sections[s].items.isEmpty {
                        let item = sections[s].items.remove(at: r.below(sections[s].items.count))
                        let t = r.below(sections.count)
                        sections[t].items.insert(item, at: r.below(sections[t].items.count + 1))
                    }
                }
            }
            if r.below(10) == 0, sections.count > 1 { sections.swapAt(0, sections.count - 1) }
            if r.below(12) == 0, !sections.isEmpty { sections.remove(at: r.below(sections.count)) }
            try data.replace(with: sections, updated: Set(sections.flatMap(\.items).filter { _ in r.below(10) == 0 }))
        }
        #expect(target.rejected.isEmpty, "\(target.rejected.first.map { "\($0)" } ?? "")")
        #expect(target.batches > 1_000 && target.shown == data.counts && data.shown == data.sections.map(\.items))
    }

    @Test("a checking target reports what UIKit would reject")
    func rejects() {
        var counts = [2]
        let target = CheckingListTarget(counts: { counts })
        target.reloadData()
        counts = [3] // the data source grew, but the batch says nothing
        target.performBatchUpdates(BatchStage(), updatingData: {})
        #expect(target.rejected.count == 1)
        #expect("\(target.rejected[0])".hasPrefix("Invalid update: invalid number of rows in section 0."))
    }

    @Test("duplicate items are refused and nothing changes")
    func duplicates() {
        let data = StaticSections<Int, Int>([SectionItems(id: 0, items: [1])])
        #expect(throws: SectionedDiffError.self) { try data.replace(with: [SectionItems(id: 0, items: [1, 1])]) }
        #expect(data.counts == [1])
    }
}
