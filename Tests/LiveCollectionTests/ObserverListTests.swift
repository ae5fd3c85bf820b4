// ObserverListTests.swift — the one registry of observers: order of
// addition, removal by token, release ends an observation.
@testable import LiveCollection
import LiveModel
import LiveTestSupport
import Testing

@MainActor
@Suite("Observers are told in the order they were added")
struct ObserverListTests {
    @Test("random adds and removals keep the order of addition", arguments: [0, 1, 2])
    func randomAddsAndRemovals(round: Int) {
        let seed = TestSeed.current("ObserverListTests.randomAddsAndRemovals(\(round))", default: 20_261_126 + UInt64(round)).value
        var r = SplitMix64(seed: seed)
        var list = ObserverList<Int>(), model: [(id: Int, value: Int)] = []
        for value in 0..<500 {
            if !model.isEmpty, r.next() % 3 == 0 {
                let at = Int(r.next() % UInt64(model.count))
                #expect(list.remove(model[at].id) == model[at].value, "seed \(seed)")
                model.remove(at: at)
            } else {
                model.append((list.add(value), value))
            }
            #expect(Array(list) == model.map(\.value), "seed \(seed)")
        }
        #expect(list.remove(-1) == nil)
    }

    @Test("a sorted collection tells its observers of every kind in the order they were added, 50 times over")
    func sortedCollectionOrder() throws {
        for round in 0..<50 {
            let collection = SortedCollection<ObservedEntry>(order: .child("n"))
            var told: [String] = []
            let observers = (0..<6).map { i in Recorder(name: "o\(i)") { told.append($0) } }
            var tokens: [ObservationToken] = []
            for (i, o) in observers.enumerated() {
                tokens.append(i % 2 == 0 ? collection.addObserver(o)
                                         : collection.observeUpdates { _ in told.append(o.name) })
            }
            tokens[2].cancel()
            try collection.add(ObservedEntry(identifier: "a", n: 1))
            try collection.performBatch { try collection.add(ObservedEntry(identifier: "b", n: 2)) }
            let expected = ["o0", "o1", "o3", "o4", "o5"]
            #expect(told == expected + expected, "round \(round): \(told)")
        }
    }

    @Test("releasing a token ends its observation")
    func releaseEnds() throws {
        let collection = SortedCollection<ObservedEntry>(order: .child("n"))
        var told = 0
        var token: ObservationToken? = collection.observeUpdates { _ in told += 1 }
        try collection.add(ObservedEntry(identifier: "a", n: 1))
        #expect(token != nil)
        token = nil
        try collection.add(ObservedEntry(identifier: "b", n: 2))
        #expect(told == 1)
    }
}

struct ObservedEntry: LiveModelProtocol, Codable {
    var identifier: Key
    var n: Int
}

@MainActor
private final class Recorder: SortedCollectionObserver {
    let name: String
    let told: (String) -> Void
    init(name: String, told: @escaping (String) -> Void) {
        self.name = name
        self.told = told
    }
    func collection(_ c: SortedCollection<ObservedEntry>, didChange change: SequentialChange<ObservedEntry>) { told(name) }
    func collection(_ c: SortedCollection<ObservedEntry>, didApply update: CollectionUpdate<ObservedEntry>) { told(name) }
}
