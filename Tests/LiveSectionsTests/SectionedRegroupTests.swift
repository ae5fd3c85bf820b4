// SectionedRegroupTests.swift — a new section rule while live: one grouped
// change, valid under UIKit's rules, equal to sections made afresh.
import LiveSections
import LiveTestSupport
import Testing

@MainActor
@Suite("SectionedCollection.setSections")
struct SectionedRegroupTests {
    /// A mirror of the sections kept by sequential events alone.
    struct Mirror {
        var sections: [(id: Int, keys: [Key])] = []
        mutating func apply(_ change: SectionedChange<Tile, Int>) {
            switch change {
            case .sectionInserted(let s, let at, let models): sections.insert((s, models.map(\.identifier)), at: at)
            case .sectionRemoved(_, let at): sections.remove(at: at)
            case .rowInserted(let m, let p): sections[p.section].keys.insert(m.identifier, at: p.row)
            case .rowRemoved(_, let p): sections[p.section].keys.remove(at: p.row)
            case .rowUpdated: break
            case .rowMoved(let m, let from, let to):
                sections[from.section].keys.remove(at: from.row)
                sections[to.section].keys.insert(m.identifier, at: to.row)
            }
        }
    }

    @Test("seeded random changes and new rules: steps valid under UIKit's rules, sequential events and a fresh grouping agree")
    func randomRules() throws {
        let seed = TestSeed.current("SectionedRegroupTests.randomRules", default: 20_261_127)
        var r = seed.generator
        let collection = SortedCollection<Tile>(order: .child("score"))
        for i in 0..<30 { try collection.add(Tile(identifier: Key(stringLiteral: "k\(i)"), score: Double(i % 7), group: i)) }
        var modulus = 3
        let sections = SectionedCollection(collection) { $0.group % 3 }
        let list = CheckingListTarget { sections.counts }
        let connector = ListConnector(target: list)
        connector.isReady = true
        var mirror = Mirror()
        mirror.sections = sections.snapshot().map { ($0.id, $0.items) }
        var stagesPerRegroup: [Int] = []
        let tokens = [sections.observeSteps { connector.apply($0) },
                      sections.observe { mirror.apply($0) },
                      sections.observeStages { stagesPerRegroup.append($0.count) }]
        for step in 0..<TestScale.count(600) {
            let key = Key(stringLiteral: "k\(Int.random(in: 0..<40, using: &r))")
            switch Int.random(in: 0..<5, using: &r) {
            case 0: collection.remove(key)
            case 1, 2: try collection.add(Tile(identifier: key, score: Double(Int.random(in: 0..<7, using: &r)),
                                               group: Int.random(in: 0..<20, using: &r)))
            default:
                modulus = Int.random(in: 1...6, using: &r)
                let m = modulus
                stagesPerRegroup.removeAll()
                sections.setSections { $0.group % m }
                #expect(stagesPerRegroup.count <= 1, "\(seed), step \(step): one change")
            }
            let fresh = SectionedCollection(collection) { [modulus] in $0.group % modulus }
            #expect(sections.snapshot() == fresh.snapshot(), "\(seed), step \(step)")
            #expect(mirror.sections.map(\.id) == fresh.snapshot().map(\.id), "\(seed), step \(step)")
            #expect(mirror.sections.map(\.keys) == fresh.snapshot().map(\.items), "\(seed), step \(step)")
            #expect(list.rejected.isEmpty, "\(seed), step \(step): \(list.rejected)")
            #expect(list.shown == sections.counts, "\(seed), step \(step)")
        }
        withExtendedLifetime(tokens) {}
    }

    @Test("rows whose section stays keep their place: only the others move")
    func minimal() throws {
        let collection = SortedCollection<Tile>(order: .child("score"))
        for i in 0..<6 { try collection.add(Tile(identifier: Key(stringLiteral: "k\(i)"), score: Double(i), group: i)) }
        let sections = SectionedCollection(collection) { $0.group % 2 }       // evens, odds
        var stages: [[BatchStage]] = []
        let token = sections.observeStages { stages.append($0) }
        sections.setSections { $0.group == 3 ? 0 : $0.group % 2 }              // k3 joins the evens
        #expect(sections.snapshot().map(\.items) == [["k0", "k2", "k3", "k4"], ["k1", "k5"]])
        #expect(stages.count == 1)
        #expect(stages.first?.map(\.operationCount).reduce(0, +) == 1, "\(stages)")   // one row move
        token.cancel()
    }

    @Test("a new rule given inside a batch takes effect once the batch is done")
    func insideABatch() async throws {
        let collection = SortedCollection<Tile>(order: .child("score"))
        for i in 0..<4 { try collection.add(Tile(identifier: Key(stringLiteral: "k\(i)"), score: Double(i), group: i)) }
        let sections = SectionedCollection(collection) { $0.group % 2 }
        try collection.performBatch {
            sections.setSections { _ in 0 }
            try collection.add(Tile(identifier: "k9", score: 9, group: 1))
        }
        #expect(sections.numberOfSections == 2)
        var turns = 0
        while sections.numberOfSections != 1 && turns < 1_000 {
            await Task.yield()
            turns += 1
        }
        #expect(sections.snapshot().map(\.items) == [["k0", "k1", "k2", "k3", "k9"]])
    }

    @Test("a later call wins over one deferred from inside a batch")
    func laterCallWins() async throws {
        let collection = SortedCollection<Tile>(order: .child("score"))
        for i in 0..<4 { try collection.add(Tile(identifier: Key(stringLiteral: "k\(i)"), score: Double(i), group: i)) }
        let sections = SectionedCollection(collection) { $0.group % 2 }
        collection.performBatch { sections.setSections { _ in 0 } }      // deferred
        sections.setSections { $0.group % 4 }                             // now
        for _ in 0..<100 { await Task.yield() }
        #expect(sections.snapshot().map(\.items) == [["k0"], ["k1"], ["k2"], ["k3"]])
    }

    @Test("a change told to another observer first, not applied here yet, is part of the new rule's change")
    func pendingChange() throws {
        let collection = SortedCollection<Tile>(order: .child("score"))
        for i in 0..<4 { try collection.add(Tile(identifier: Key(stringLiteral: "k\(i)"), score: Double(i), group: i)) }
        // `first` is told each change before `sections`, and gives `sections` a new rule then.
        let first = SectionedCollection(collection) { $0.group }
        let sections = SectionedCollection(collection) { $0.group % 2 }
        var stages: [[BatchStage]] = []
        var regroup = false
        let tokens = [first.observeStages { _ in if regroup { regroup = false; sections.setSections { $0.group % 3 } } },
                      sections.observeStages { stages.append($0) }]
        regroup = true
        try collection.add(Tile(identifier: "k1", score: 1, group: 1))   // k1 changes in place: a reload
        #expect(sections.snapshot() == SectionedCollection(collection) { $0.group % 3 }.snapshot())
        #expect(stages.flatMap { $0.flatMap(\.reloadedRows) }.count == 1, "\(stages)")
        withExtendedLifetime(tokens) {}
    }
}
