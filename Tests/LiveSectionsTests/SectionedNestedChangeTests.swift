// SectionedNestedChangeTests.swift — changes of the collection made from
// inside the sections' own observers (stage, step and sequential handlers):
// held until the change being told is told to every observer, then told as
// the next change, so that every observer's view stays valid.
import Foundation
import LiveCollection
import LiveModel
import LiveSections
import LiveTestSupport
import Testing

@MainActor
@Suite("SectionedCollection changes made from its observers' handlers")
struct SectionedNestedChangeTests {
    /// The sections a brute-force grouping of `collection` gives.
    static func grouping(_ collection: SortedCollection<Note>) -> [[Key]] {
        var groups: [Int: [Key]] = [:]
        for m in collection.models { groups[m.group, default: []].append(m.identifier) }
        return groups.keys.sorted().map { groups[$0]! }
    }

    /// A random change: a single one, or a batch of a few (inserting,
    /// moving, changing section, removing, emptying sections).
    static func change(_ collection: SortedCollection<Note>, _ r: inout Rng, keys: [Key]) throws {
        func one(_ r: inout Rng) throws {
            let key = keys[r.below(keys.count)]
            switch r.below(4) {
            case 0: collection.remove(key)
            case 1:
                // The whole section of a key goes.
                if let group = collection.model(for: key)?.group {
                    for m in collection.models where m.group == group { collection.remove(m.identifier) }
                }
            default:
                try collection.add(Note(identifier: key, score: Double(r.below(10)), group: r.below(4), label: r.below(3)))
            }
        }
        if r.below(3) == 0 {
            try one(&r)
        } else {
            let count = 1 + r.below(5)
            try collection.performBatch { for _ in 0..<count { try one(&r) } }
        }
    }

    @Test("seeded: stage, step and sequential handlers change the collection; every observer's view follows it, nothing traps")
    func randomNested() throws {
        let seed = testSeed("SectionedNestedChangeTests.randomNested")
        var r = Rng(seed: seed)
        var nested = Rng(seed: seed ^ 0x4e57)
        let keys = (0..<16).map { Key($0) }
        for round in 0..<TestScale.count(40) {
            let context = "seed \(seed) round \(round)"
            let collection = SortedCollection<Note>(order: .child("score"))
            let sectioned = SectionedCollection(collection) { $0.group }
            var problems: [String] = []
            /// Changes handlers still may make in this round.
            var budget = 0
            func nestedChange() {
                guard budget > 0, nested.below(3) == 0 else { return }
                budget -= 1
                do { try Self.change(collection, &nested, keys: keys) } catch { problems.append("\(error)") }
            }

            // A list view told stages: applies them to its own rows.
            var staged: [[Key]] = []
            let t1 = sectioned.observeStages { stages in
                let final = sectioned.snapshot()
                for stage in stages {
                    do {
                        staged = try BatchUpdateChecker.apply(stage, to: staged, inserting: { final[$0.section].items[$0.row] },
                                                              insertingSection: { final[$0].items })
                    } catch { problems.append("stages: \(error)") }
                }
                nestedChange()
            }
            // A list view told steps: reads every row shown before each
            // commit (rows a change removed included), then checks the state
            // after it.
            var stepped: [[Key]] = []
            let t2 = sectioned.observeSteps { steps in
                for step in steps {
                    for s in 0..<sectioned.numberOfSections {
                        for row in 0..<sectioned.numberOfRows(inSection: s) {
                            _ = sectioned[RowPath(section: s, row: row)]
                        }
                    }
                    step.commit()
                    let shown = (0..<sectioned.numberOfSections).map { s in
                        (0..<sectioned.numberOfRows(inSection: s)).map { sectioned[RowPath(section: s, row: $0)].identifier }
                    }
                    do {
                        stepped = try BatchUpdateChecker.apply(step.stage, to: stepped,
                                                               inserting: { shown[$0.section][$0.row] },
                                                               insertingSection: { shown[$0] })
                    } catch { problems.append("steps: \(error)") }
                    if stepped != shown { problems.append("steps: \(stepped) after a commit, \(shown) shown") }
                }
                nestedChange()
            }
            // A sequential observer: replays the events.
            var replayed: [[Key]] = []
            let t3 = sectioned.observe { change in
                switch change {
                case .sectionInserted(_, let at, let models): replayed.insert(models.map(\.identifier), at: at)
                case .sectionRemoved(_, let at): replayed.remove(at: at)
                case .rowInserted(let m, let p): replayed[p.section].insert(m.identifier, at: p.row)
                case .rowRemoved(let m, let p):
                    if replayed[p.section].remove(at: p.row) != m.identifier { problems.append("events: removal of another row") }
                case .rowUpdated(let m, let p):
                    if replayed[p.section][p.row] != m.identifier { problems.append("events: update of another row") }
                case .rowMoved(let m, let from, let to):
                    replayed[from.section].remove(at: from.row)
                    replayed[to.section].insert(m.identifier, at: to.row)
                }
                nestedChange()
            }
            defer { t1.cancel(); t2.cancel(); t3.cancel() }
            for step in 0..<30 {
                budget = 3
                try Self.change(collection, &r, keys: keys)
                let expected = Self.grouping(collection)
                let where_ = "\(context) step \(step)"
                guard problems.isEmpty else { Issue.record("\(where_): \(problems)"); return }
                guard sectioned.snapshot().map(\.items) == expected else {
                    Issue.record("\(where_): sections \(sectioned.snapshot().map(\.items)), grouping \(expected)"); return
                }
                guard staged == expected, stepped == expected, replayed == expected else {
                    Issue.record("\(where_): stages \(staged), steps \(stepped), events \(replayed), grouping \(expected)")
                    return
                }
            }
        }
    }

    @Test("a handler that empties a section the change inserted, and removes a key it inserted")
    func undoesTheChangeItIsToldOf() throws {
        let collection = SortedCollection<Note>(order: .child("score"))
        try collection.add(Note(identifier: "a", score: 1, group: 0, label: 0))
        let sectioned = SectionedCollection(collection) { $0.group }
        var told: [[BatchStage]] = []
        var events: [String] = []
        var reacted = false
        let t1 = sectioned.observeStages { stages in
            told.append(stages)
            guard !reacted else { return }
            reacted = true
            collection.remove("b")
            collection.remove("c")
        }
        let t2 = sectioned.observe { change in
            switch change {
            case .sectionInserted(let s, _, let models): events.append("+section \(s) \(models.map(\.identifier.string))")
            case .sectionRemoved(let s, _): events.append("-section \(s)")
            case .rowInserted(let m, _): events.append("+\(m.identifier.string)")
            case .rowRemoved(let m, _): events.append("-\(m.identifier.string)")
            case .rowUpdated(let m, _): events.append("~\(m.identifier.string)")
            case .rowMoved(let m, _, _): events.append(">\(m.identifier.string)")
            }
        }
        defer { t1.cancel(); t2.cancel() }
        try collection.performBatch {
            try collection.add(Note(identifier: "b", score: 2, group: 1, label: 0))
            try collection.add(Note(identifier: "c", score: 3, group: 0, label: 0))
        }
        // The batch is told whole to every observer, then the handler's removals.
        #expect(told.count == 2)
        #expect(events == ["+c", "+section 1 [\"b\"]", "-section 1", "-c"])
        #expect(sectioned.snapshot().map(\.items) == [["a"]])
    }
}
