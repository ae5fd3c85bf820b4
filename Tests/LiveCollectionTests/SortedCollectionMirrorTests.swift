// SortedCollectionMirrorTests.swift — random operations on a sorted collection,
// mirrored through both contracts after every step.
import LiveCollection
import LiveModel
import LiveTestSupport
import Testing

@MainActor
final class MirrorObserver: SortedCollectionObserver {
    typealias Model = Card
    var sequential = SequentialMirror()
    var loads = 0, loadsEnded = 0
    var broken: String?

    func collection(_ c: SortedCollection<Card>, didChange change: SequentialChange<Card>) { sequential.apply(change) }

    func collection(_ c: SortedCollection<Card>, didApply update: CollectionUpdate<Card>) {
        if loads != loadsEnded + 1 { broken = "a grouped update outside did-start / did-end-load" }
        guard let next = applyBatch(update, to: sequential.items) else {
            broken = "grouped update does not apply: \(update.batch)"
            return
        }
        sequential.items = next
    }

    func collectionDidStartLoad(_ c: SortedCollection<Card>) { loads += 1 }
    func collectionDidEndLoad(_ c: SortedCollection<Card>) { loadsEnded += 1 }
}

@MainActor
@Suite("SortedCollection mirrors")
struct SortedCollectionMirrorTests {
    enum Ordering: CaseIterable { case firebaseChild, swiftNested }

    func makeCollection(_ ordering: Ordering) -> SortedCollection<Card> {
        switch ordering {
        case .firebaseChild: return SortedCollection<Card>(order: .child("score"))
        case .swiftNested: return SortedCollection<Card>(sortedBy: { $0.info?.rank ?? -1 })
        }
    }

    func randomItem(_ r: inout Rng, key: Key) -> Card {
        Card(identifier: key,
             score: r.chance(10) ? nil : Double(r.below(8)),
             info: r.chance(10) ? nil : Card.Info(rank: r.below(8)))
    }

    @Test("100,000 random operations: sequential and batch mirrors equal the collection after every step",
          arguments: Ordering.allCases)
    func mirrors(_ ordering: Ordering) throws {
        let seed = testSeed(ordering == .firebaseChild ? 1 : 2)
        var r = Rng(seed)
        let collection = makeCollection(ordering)
        collection.validatesEveryMutation = true // every invariant after every mutation (debug builds)
        let observer = MirrorObserver()
        let token = collection.addObserver(observer)
        var updatesMirror: [Card] = []
        var updateProblem: String?
        let updates = collection.observeUpdates { update in
            guard let next = applyBatch(update, to: updatesMirror) else {
                updateProblem = "update does not apply: \(update.batch)"
                return
            }
            updatesMirror = next
        }
        defer { token.cancel(); updates.cancel() }
        let operations = TestScale.count(100_000)
        for step in 0..<operations {
            try randomOperation(&r, collection)
            let expected = collection.models
            let context = "seed \(seed) step \(step)"
            guard observer.broken == nil, updateProblem == nil else {
                Issue.record("\(context): \(observer.broken ?? updateProblem!)")
                return
            }
            guard observer.sequential.items == expected, updatesMirror == expected else {
                Issue.record("\(context): a mirror differs from the collection")
                return
            }
            if step % 1000 == 0, let problem = collection.invariantViolation() {
                Issue.record("\(context): \(problem)")
                return
            }
        }
        #expect(observer.loads == observer.loadsEnded)
    }

    func randomOperation(_ r: inout Rng, _ c: SortedCollection<Card>) throws {
        let key = keyPool[r.below(keyPool.count)]
        switch r.below(100) {
        case 0..<40: try c.add(randomItem(&r, key: key))
        case 40..<55:
            if let m = c.model(for: key) {
                var dict: JSONValue = try m.dictionary
                dict["score"] = r.chance(50) ? m.score.map { .number($0) } ?? .null : .number(Double(r.below(8)))
                try c.update(key, with: dict)
            }
        case 55..<85: c.remove(key)
        case 85..<88:
            var items: [Card] = []
            var used = Set<Key>()
            for _ in 0..<r.below(40) {
                let k = keyPool[r.below(keyPool.count)]
                if used.insert(k).inserted { items.append(randomItem(&r, key: k)) }
            }
            try c.reset(items)
        default:
            try c.performBatch {
                for _ in 0..<r.below(12) {
                    let k = keyPool[r.below(keyPool.count)]
                    if r.chance(60) { try c.add(randomItem(&r, key: k)) } else { c.remove(k) }
                }
            }
        }
    }
}
