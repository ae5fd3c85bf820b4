// SortedCollectionTests.swift — the collection's API, orders and invariants.
import LiveCollection
import LiveModel
import Testing

@MainActor
@Suite("SortedCollection")
struct SortedCollectionTests {
    func item(_ key: Key, _ score: Double?, rank: Int? = nil) -> Card {
        Card(identifier: key, score: score, info: rank.map { Card.Info(rank: $0) })
    }

    @Test("Firebase order by child: null first, then numbers, ties by key (integer keys first)")
    func firebaseChildOrder() throws {
        let c = SortedCollection<Card>(order: .child("score"))
        c.validatesEveryMutation = true
        for (k, s) in [("b", 2.0), ("a", 2.0), ("10", 2.0), ("9", 2.0), ("z", 1.0)] { try c.add(item(try Key(k), s)) }
        try c.add(item("n", nil))
        #expect(c.models.map(\.identifier.description) == ["n", "z", "9", "10", "a", "b"])
        #expect(c.position(of: "10") == 3)
        #expect(c.key(at: 4) == "a")
        #expect(c.first?.identifier == "n" && c.last?.identifier == "b")
        try c.update("n", with: ["score": 5])
        #expect(c.last?.identifier == "n" && c.count == 6)
        #expect(c.remove("z")?.identifier == "z" && c.remove("z") == nil)
        #expect(c.model(for: "a")?.score == 2 && c.model(for: "z") == nil)
    }

    @Test("a page of rows: models(in:) is the slice of models, in either order kind", arguments: [false, true])
    func pages(swiftOrder: Bool) throws {
        let c = swiftOrder ? SortedCollection<Card>(sortedBy: { $0.score ?? 0 }) : SortedCollection<Card>(order: .child("score"))
        for i in 0..<50 { try c.add(item(try Key("k\(i)"), Double((i * 7) % 13))) }
        let all = c.models.map(\.identifier)
        for range in [0..<0, 0..<1, 3..<17, 40..<50, 0..<50, 49..<50, 25..<25] {
            #expect(c.models(in: range).map(\.identifier) == Array(all[range]), "\(range)")
        }
    }

    @Test("default order is priority then key: models without priority order by key")
    func defaultOrder() throws {
        let c = SortedCollection<Card>()
        for k in ["b", "007", "7", "a", "-1"] { try c.add(item(try Key(k), 1)) }
        #expect(c.models.map(\.identifier.description) == ["-1", "7", "007", "a", "b"])
    }

    @Test("a Swift order over a nested field, ties by key")
    func swiftOrder() throws {
        let c = SortedCollection<Card>(sortedBy: { $0.info?.rank ?? Int.max })
        c.validatesEveryMutation = true
        try c.add(item("x", 0, rank: 3))
        try c.add(item("y", 0, rank: 1))
        try c.add(item("w", 0, rank: 3))
        try c.add(item("none", 0))
        #expect(c.models.map(\.identifier.description) == ["y", "w", "x", "none"])
        try c.add(item("none", 0, rank: 0))
        #expect(c.models.map(\.identifier.description) == ["none", "y", "w", "x"])
    }

    @Test("sequential callbacks for single changes; one batch between load events for a group")
    func contracts() throws {
        let c = SortedCollection<Card>(order: .child("score"))
        let o = MirrorObserver()
        let token = c.addObserver(o)
        defer { token.cancel() }
        var updates: [CollectionBatch] = []
        let t = c.observeUpdates { updates.append($0.batch) }
        defer { t.cancel() }
        try c.add(item("a", 1))
        try c.add(item("b", 2))
        try c.add(item("a", 3))   // moves a after b
        #expect(updates.map(\.moved) == [[], [], [BatchMove(from: 0, to: 1, updated: true)]])
        try c.performBatch {
            try c.add(item("c", 0))
            c.remove("b")
            try c.add(item("a", 3.5)) // changed, not moved relative to the others
        }
        #expect(o.loads == 1 && o.loadsEnded == 1)
        #expect(updates.count == 4)
        let last = updates[3]
        #expect(last.deleted == [0] && last.inserted == [0] && last.moved.isEmpty && last.updated == [1])
        #expect(o.sequential.items == c.models)
        c.performBatch {} // nothing changed: no update
        #expect(updates.count == 4 && o.loads == 2)
    }

    @Test("reset replaces the content as one batch; removeAll empties")
    func reset() throws {
        let c = SortedCollection<Card>(order: .child("score"))
        for i in 0..<10 { try c.add(item(Key(i), Double(i))) }
        var batches: [CollectionBatch] = []
        let t = c.observeUpdates { batches.append($0.batch) }
        defer { t.cancel() }
        try c.reset([item(Key(3), 3), item(Key(20), -1), item(Key(9), 0.5)])
        #expect(c.models.map(\.identifier) == [Key(20), Key(9), Key(3)])
        #expect(batches.count == 1 && batches[0].oldCount == 10 && batches[0].newCount == 3)
        c.removeAll()
        #expect(c.isEmpty && batches.count == 2 && batches[1].deleted == [0, 1, 2])
    }

    @Test("updates() delivers every change as an asynchronous sequence")
    func asyncUpdates() async throws {
        let c = SortedCollection<Card>(order: .child("score"))
        let stream = c.updates()
        try c.add(item("a", 1))
        try c.performBatch { try c.add(item("b", 0)); try c.add(item("c", 2)) }
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        let second = await iterator.next()
        #expect(first?.batch.inserted == [0] && first?.insertedModels.map(\.identifier) == ["a"])
        #expect(second?.batch.inserted == [0, 2] && second?.insertedModels.map(\.identifier) == ["b", "c"])
    }

    @Test("a model whose update throws stays as it was")
    func failingUpdate() throws {
        let c = SortedCollection<Card>(order: .child("score"))
        try c.add(item("a", 1))
        #expect(throws: (any Error).self) { try c.update("a", with: ["score": "not a number"]) }
        #expect(c.model(for: "a")?.score == 1)
    }
}

@MainActor
@Suite("SortedCollection as a sequence")
struct SortedCollectionSequenceTests {
    @Test("iterates in order over the models as they were when iteration began")
    func iteration() throws {
        let c = SortedCollection<Card>(order: .child("score"))
        for i in 0..<5 { try c.add(Card(identifier: Key(i), score: Double(5 - i), info: nil)) }
        var seen: [Key] = []
        for card in c {
            seen.append(card.identifier)
            c.remove(card.identifier)
        }
        #expect(seen == (0..<5).reversed().map { Key($0) } && c.isEmpty)
        #expect(c.underestimatedCount == 0)
    }
}
