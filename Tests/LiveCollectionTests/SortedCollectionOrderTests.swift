// SortedCollectionOrderTests.swift — a new order while live: one batch of
// the fewest moves, equal to a new collection in that order.
@testable import LiveCollection
import LiveModel
import LiveTestSupport
import Testing

@MainActor
@Suite("SortedCollection.setOrder")
struct SortedCollectionOrderTests {
    static let orders: [QueryOrder] = [.key, .priority, .value, .child("score"), .child("info/rank")]

    static func card(_ key: Key, _ rng: inout Rng) -> Card {
        Card(identifier: key, score: rng.chance(20) ? nil : Double(rng.below(6)),
             info: rng.chance(20) ? nil : Card.Info(rank: rng.below(6)))
    }

    /// The length of a longest increasing subsequence of `values`.
    static func lisLength(_ values: [Int]) -> Int {
        var tails: [Int] = []
        for v in values {
            var lo = 0, hi = tails.count
            while lo < hi { let mid = (lo + hi) / 2; if tails[mid] < v { lo = mid + 1 } else { hi = mid } }
            if lo == tails.count { tails.append(v) } else { tails[lo] = v }
        }
        return tails.count
    }

    @Test("seeded random orders: one batch of moves only, the fewest, applying to the old models gives the new")
    func randomOrders() throws {
        let seed = testSeed()
        var rng = Rng(seed)
        for round in 0..<Int(40 * TestScale.factor) + 1 {
            let from = Self.orders[rng.below(Self.orders.count)], to = Self.orders[rng.below(Self.orders.count)]
            let c = SortedCollection<Card>(order: from)
            c.validatesEveryMutation = true
            for key in keyPool where rng.chance(50) { try c.add(Self.card(key, &rng)) }
            let old = c.models
            var updates: [CollectionUpdate<Card>] = []
            let token = c.observeUpdates { updates.append($0) }
            let fresh = SortedCollection<Card>(order: to)
            for model in old { try fresh.add(model) }
            try c.setOrder(to)
            let context = "seed \(seed), round \(round), \(from) → \(to)"
            #expect(c.order == to, "\(context)")
            #expect(c.models.map(\.identifier) == fresh.models.map(\.identifier), "\(context)")
            let moved = old.map { fresh.position(of: $0.identifier)! }
            if moved == Array(old.indices) {
                #expect(updates.isEmpty, "\(context): nothing moved, nothing told")
            } else {
                try #require(updates.count == 1, "\(context)")
                let batch = updates[0].batch
                #expect(batch.deleted.isEmpty && batch.inserted.isEmpty && batch.updated.isEmpty, "\(context)")
                #expect(batch.moved.count == old.count - Self.lisLength(moved), "\(context): \(batch.moved.count) moves")
                #expect(try batch.apply(to: old.map(\.identifier), inserting: []) == c.models.map(\.identifier), "\(context)")
            }
            token.cancel()
        }
    }

    @Test("inside performBatch the new order joins the batch's other changes")
    func joinsBatch() throws {
        let c = SortedCollection<Card>(order: .child("score"))
        for (i, key) in ["a", "b", "c", "d"].enumerated() {
            try c.add(Card(identifier: Key(key), score: Double(i), info: .init(rank: 3 - i)))
        }
        var batches: [CollectionBatch] = []
        let token = c.observeUpdates { batches.append($0.batch) }
        try c.performBatch {
            c.remove("b")
            try c.setOrder(.child("info/rank"))
            try c.add(Card(identifier: "e", score: 9, info: .init(rank: 1)))
        }
        #expect(c.models.map(\.identifier.string) == ["d", "c", "e", "a"])   // c and e tie on rank: by key
        try #require(batches.count == 1)
        #expect(try batches[0].apply(to: ["a", "b", "c", "d"], inserting: ["e"]) == ["d", "c", "e", "a"])
        token.cancel()
    }

    @Test("sort values given by key are used; a collection ordered in Swift refuses, and nothing changes")
    func sortValuesAndRefusal() throws {
        let c = SortedCollection<Card>(order: .key)
        try c.add(Card(identifier: "a", score: 1))
        try c.add(Card(identifier: "b", score: 2))
        try c.setOrder(.priority, sortValues: ["a": .number(5), "b": .number(1)])
        #expect(c.models.map(\.identifier.string) == ["b", "a"])
        let swift = SortedCollection<Card> { $0.score ?? 0 }
        try swift.add(Card(identifier: "a", score: 1))
        #expect(throws: OrderChangeError.sortedBySortKey) { try swift.setOrder(.key) }
        #expect(swift.order == nil && swift.count == 1)
    }
}
