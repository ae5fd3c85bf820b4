// SectionsBenchmark.swift — the sectioned diff against Swift's CollectionDifference.
import LiveModel
import LiveSections

enum SectionsBenchmark {
    struct Case {
        var old: [SectionItems<Int, Int>]
        var new: [SectionItems<Int, Int>]
        /// Whether item i was updated, by item id (ids are 0 ..< rows + inserts).
        var updated: [Bool]
    }

    /// `rows` items in `sections` sections; then 10% of the rows deleted, 10%
    /// inserted, 10% moved (anywhere, across sections too) and 10% updated.
    static func makeCase(rows: Int, sections: Int, seed: UInt64) -> Case {
        var r = SplitMix64(seed: seed)
        let perSection = rows / sections
        let old = (0..<sections).map { s in SectionItems(id: s, items: Array((s * perSection)..<((s + 1) * perSection))) }
        var new = old
        let tenth = rows / 10
        func randomSlot() -> (Int, Int) {
            let s = Int(r.next() % UInt64(sections))
            return (s, Int(r.next() % UInt64(new[s].items.count + 1)))
        }
        for _ in 0..<tenth { // deletes
            let s = Int(r.next() % UInt64(sections))
            if !new[s].items.isEmpty { new[s].items.remove(at: Int(r.next() % UInt64(new[s].items.count))) }
        }
        for _ in 0..<tenth { // moves
            let s = Int(r.next() % UInt64(sections))
            guard !new[s].items.isEmpty else { continue }
            let item = new[s].items.remove(at: Int(r.next() % UInt64(new[s].items.count)))
            let (t, at) = randomSlot()
            new[t].items.insert(item, at: at)
        }
        for i in 0..<tenth { // inserts
            let (t, at) = randomSlot()
            new[t].items.insert(rows + i, at: at)
        }
        var updated = [Bool](repeating: false, count: rows + tenth)
        var marked = 0
        while marked < tenth {
            let i = Int(r.next() % UInt64(rows))
            if !updated[i] { updated[i] = true; marked += 1 }
        }
        return Case(old: old, new: new, updated: updated)
    }

    /// Median seconds of our diff, and the number of row moves it reports.
    static func ours(_ c: Case, repeats: Int) -> (seconds: Double, moves: Int, stages: Int) {
        var stages: [BatchStage] = []
        let seconds = Timing.medianOf(repeats) {
            Timing.seconds { stages = try! SectionedDiff.stages(from: c.old, to: c.new, isUpdated: { c.updated[$0] }) }
        }
        return (seconds, stages.reduce(0) { $0 + $1.movedRows.count }, stages.count)
    }

    /// Swift's CollectionDifference with inferred moves, on the rows flattened
    /// into one list (it has no notion of sections).
    static func collectionDifference(_ c: Case) -> (seconds: Double, moves: Int) {
        let old = c.old.flatMap(\.items), new = c.new.flatMap(\.items)
        var moves = 0
        let seconds = Timing.seconds {
            let diff = new.difference(from: old).inferringMoves()
            moves = diff.insertions.filter { if case .insert(_, _, let from) = $0 { return from != nil } else { return false } }.count
        }
        return (seconds, moves)
    }
}
