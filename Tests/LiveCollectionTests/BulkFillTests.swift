// BulkFillTests.swift — a first load orders its models in one bulk build of
// the C index; it must order them exactly as inserting them one by one does.
import LiveCollection
import LiveModel
import LiveTestSupport
import Testing

/// Prepares every child at once as a card without a score: the collection
/// orders it by the snapshot's sort value.
@MainActor
private final class PlainSource: ModelDataSource {
    typealias Model = Card
    func prepareNow(_ snapshot: Snapshot, current: Card?) throws -> Preparation<Card>? {
        .model(Card(identifier: snapshot.key!, score: nil, info: nil))
    }
    func prepare(_ snapshot: Snapshot, current: Card?) async throws -> Preparation<Card> {
        .model(Card(identifier: snapshot.key!, score: nil, info: nil))
    }
}

@MainActor
@Suite("Bulk first load")
struct BulkFillTests {
    /// A child's `score`: every kind of sort value, strings near each other.
    static func randomScore(_ rng: inout Rng) -> String {
        switch rng.below(7) {
        case 0: return "null"
        case 1: return rng.chance(50) ? "true" : "false"
        case 2: return "{\"x\": \(rng.below(3))}"
        case 3: return "\"\(["a", "b", "é", "e\u{301}", "😀", "｡", "", "ab"][rng.below(8)])\""
        default: return String(Double(rng.below(40)) / 4 - 3)
        }
    }

    /// Keys from the shared pool, and some longer than a key held inline.
    static func randomKey(_ rng: inout Rng) -> Key {
        if rng.chance(20) { return try! Key("long-key-\(rng.below(30))-" + String(repeating: "x", count: 20)) }
        return keyPool[rng.below(keyPool.count)]
    }

    @Test("a first load in bulk orders every model as inserting them one by one does")
    func sameOrderAsOneByOne() async throws {
        let seed = testSeed()
        var rng = Rng(seed)
        for round in 0..<40 {
            var members: [String] = []
            for _ in 0..<(1 + rng.below(80)) {
                let key = Self.randomKey(&rng)
                members.append("\"\(key.string)\": {\"score\": \(Self.randomScore(&rng)), \"n\": \(rng.below(9))}")
            }
            // Keys may repeat: the load keeps the last child of each.
            let children = try members.map { try Snapshot.parse(json: "{\($0)}", order: .child("score")).children.first! }

            let bulk = SortedCollection<Card>(order: .child("score"))
            var batches: [CollectionBatch] = []
            let updates = bulk.observeUpdates { batches.append($0.batch) }
            defer { updates.cancel() }
            await CollectionFeed(collection: bulk, dataSource: PlainSource()).load(children)

            let oneByOne = SortedCollection<Card>(order: .child("score"))
            let feed = CollectionFeed(collection: oneByOne, dataSource: PlainSource())
            for child in children { feed.receive(child) }
            await feed.settle()

            let expected = oneByOne.models.map(\.identifier)
            #expect(bulk.models.map(\.identifier) == expected, "seed \(seed), round \(round)")
            #expect(batches.count == 1 && batches.first?.inserted == Array(0..<expected.count),
                    "seed \(seed), round \(round)")
            for key in expected {
                #expect(bulk.position(of: key) == oneByOne.position(of: key), "seed \(seed), round \(round): \(key)")
            }
        }
    }
}
