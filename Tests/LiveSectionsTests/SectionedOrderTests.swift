// SectionedOrderTests.swift — the collection's order changed under its
// sections: one grouped change, valid under UIKit's rules, equal to
// sections made afresh.
import LiveSections
import LiveTestSupport
import Testing

@MainActor
@Suite("SectionedCollection under SortedCollection.setOrder")
struct SectionedOrderTests {
    @Test("seeded random changes and new orders: steps valid under UIKit's rules, sequential events and a fresh grouping agree")
    func randomOrders() throws {
        let seed = TestSeed.current("SectionedOrderTests.randomOrders", default: 20_261_126)
        var r = seed.generator
        let orders: [QueryOrder] = [.key, .child("score"), .child("group"), .priority]
        let collection = SortedCollection<Tile>(order: .child("score"))
        for i in 0..<30 { try collection.add(Tile(identifier: Key(stringLiteral: "k\(i)"), score: Double(i % 7), group: i)) }
        let sections = SectionedCollection(collection) { $0.group % 3 }
        let list = CheckingListTarget { sections.counts }
        let connector = ListConnector(target: list)
        connector.isReady = true
        var mirror = SectionedRegroupTests.Mirror()
        mirror.sections = sections.snapshot().map { ($0.id, $0.items) }
        var stagesPerChange: [Int] = []
        let tokens = [sections.observeSteps { connector.apply($0) },
                      sections.observe { mirror.apply($0) },
                      sections.observeStages { stagesPerChange.append($0.count) }]
        for step in 0..<TestScale.count(400) {
            let key = Key(stringLiteral: "k\(Int.random(in: 0..<40, using: &r))")
            switch Int.random(in: 0..<5, using: &r) {
            case 0: collection.remove(key)
            case 1, 2: try collection.add(Tile(identifier: key, score: Double(Int.random(in: 0..<7, using: &r)),
                                               group: Int.random(in: 0..<20, using: &r)))
            case 3:
                stagesPerChange.removeAll()
                try collection.setOrder(orders[Int.random(in: 0..<orders.count, using: &r)])
                #expect(stagesPerChange.count <= 1, "\(seed), step \(step): one change")
            default:
                // A new order and other changes in one batch.
                try collection.performBatch {
                    try collection.add(Tile(identifier: key, score: Double(Int.random(in: 0..<7, using: &r)), group: 1))
                    try collection.setOrder(orders[Int.random(in: 0..<orders.count, using: &r)])
                    collection.remove(Key(stringLiteral: "k\(Int.random(in: 0..<40, using: &r))"))
                }
            }
            let fresh = SectionedCollection(collection) { $0.group % 3 }
            #expect(sections.snapshot() == fresh.snapshot(), "\(seed), step \(step)")
            #expect(mirror.sections.map(\.id) == fresh.snapshot().map(\.id), "\(seed), step \(step)")
            #expect(mirror.sections.map(\.keys) == fresh.snapshot().map(\.items), "\(seed), step \(step)")
            #expect(list.rejected.isEmpty, "\(seed), step \(step): \(list.rejected)")
            #expect(list.shown == sections.counts, "\(seed), step \(step)")
        }
        withExtendedLifetime(tokens) {}
    }

    @Test("a reversed order inside one section: rows move, nothing is deleted, inserted or reloaded")
    func reversed() throws {
        let collection = SortedCollection<Tile>(order: .child("score"))
        for i in 0..<5 { try collection.add(Tile(identifier: Key(stringLiteral: "k\(i)"), score: Double(i), group: 4 - i)) }
        let sections = SectionedCollection(collection) { _ in 0 }
        var stages: [[BatchStage]] = []
        let token = sections.observeStages { stages.append($0) }
        try collection.setOrder(.child("group"))
        #expect(sections.snapshot().map(\.items) == [["k4", "k3", "k2", "k1", "k0"]])
        #expect(stages.count == 1)
        let all = stages.flatMap { $0 }
        #expect(all.allSatisfy { $0.deletedRows.isEmpty && $0.insertedRows.isEmpty && $0.reloadedRows.isEmpty }, "\(stages)")
        #expect(all.flatMap(\.movedRows).count == 4, "\(stages)")
        token.cancel()
    }
}
