// SectionedSoakTests.swift — random sectioned changes with section reloads,
// every stage checked with UIKit's rules (counts included) and the result
// equal to the target.
import Foundation
import LiveSections
import LiveTestSupport
import Testing

@Suite("Sectioned soak")
struct SectionedSoakTests {
    @Test("100,000 random cases: 0–20 sections, 0–50 rows, every kind of change, section moves and reloads")
    func soak() async throws {
        // Seconds of computation: on a thread of its own, not the shared pool.
        try await offThePool { [self] in try self.soakOnItsThread() }
    }

    private func soakOnItsThread() throws {
        let seed = testSeed("soak", default: 20_261_122)
        var r = Rng(seed: seed)
        func below(_ n: Int) -> Int { r.below(n) }
        var stagesSeen = Set<Int>(), reloadedSectionsSeen = 0
        for index in 0..<TestScale.count(100_000) {
            // Old: up to 20 sections of up to 50 rows (mostly short).
            var nextItem = 0, nextSection = 0
            var old: [SectionItems<Int, Int>] = []
            for _ in 0..<below(21) {
                let rows = below(4) == 0 ? below(51) : below(6)
                old.append(SectionItems(id: nextSection, items: Array(nextItem..<(nextItem + rows))))
                nextSection += 1
                nextItem += rows
            }
            // New: delete, insert and move sections; delete, insert and move rows (across sections too).
            var new = old.filter { _ in below(8) != 0 }
            if new.count > 1, below(3) == 0 { new.swapAt(below(new.count), below(new.count)) }
            for _ in 0..<below(3) {
                new.insert(SectionItems(id: nextSection, items: Array(nextItem..<(nextItem + below(4)))), at: below(new.count + 1))
                nextItem += 4
                nextSection += 1
            }
            for _ in 0..<below(6) where !new.isEmpty {
                let s = below(new.count)
                switch below(3) {
                case 0: new[s].items.insert(nextItem, at: below(new[s].items.count + 1)); nextItem += 1
                case 1: if !new[s].items.isEmpty { new[s].items.remove(at: below(new[s].items.count)) }
                default:
                    if !new[s].items.isEmpty {
                        let item = new[s].items.remove(at: below(new[s].items.count))
                        let t = below(new.count)
                        new[t].items.insert(item, at: below(new[t].items.count + 1))
                    }
                }
            }
            let updatedItems = Set((0..<nextItem).filter { _ in below(6) == 0 })
            let updatedSections = Set((0..<nextSection).filter { _ in below(5) == 0 })
            let stages = try SectionedDiff.stages(from: old, to: new, isUpdated: { updatedItems.contains($0) },
                                                  isSectionUpdated: { updatedSections.contains($0) })
            stagesSeen.insert(stages.count)
            // Apply every stage through the checker, with the counts after each stage.
            let final = new.map(\.items)
            var items = old.map(\.items)
            var reloaded = Set<Int>()
            for stage in stages {
                let next = try BatchUpdateChecker.apply(stage, to: items, inserting: { final[$0.section][$0.row] },
                                                        insertingSection: { final[$0] })
                _ = try BatchUpdateChecker.apply(stage, toCounts: items.map(\.count), newCounts: next.map(\.count))
                for s in stage.reloadedSections { reloaded.insert(new[s].id) }
                items = next
            }
            reloadedSectionsSeen += reloaded.count
            let kept = Set(old.map(\.id)).intersection(new.map(\.id))
            guard items == final, reloaded == kept.intersection(updatedSections) else {
                Issue.record("seed \(seed) case \(index): final state or section reloads differ")
                return
            }
        }
        #expect(stagesSeen.count >= 3 && reloadedSectionsSeen > TestScale.count(10_000), "seed \(seed)")
    }
}
