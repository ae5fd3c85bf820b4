// ObservedCollectionTests.swift — a sorted collection as Observation state:
// it follows every change, and a change invalidates only what it touched.
import LiveCollection
import LiveTestSupport
import Observation
import Synchronization
import Testing

/// Which tracked reads were invalidated, by name: each read is tracked
/// once until it fires.
final class Invalidations: Sendable {
    /// What fired since the last take, and what is being tracked.
    private let state = Mutex<(fired: [String], armed: Set<String>)>(([], []))

    /// Tracks the reads `read` makes; the next change of any of them records `name`.
    @MainActor
    func arm(_ name: String, _ read: () -> Void) {
        // Armed once until it fires: a tracking stays armed until then.
        guard state.withLock({ $0.armed.insert(name).inserted }) else { return }
        withObservationTracking(read) { [self] in
            self.state.withLock { s in
                s.fired.append(name)
                s.armed.remove(name)
            }
        }
    }

    /// The names recorded since the last call, sorted, and forgets them.
    func take() -> [String] { state.withLock { s in defer { s.fired = [] }; return s.fired.sorted() } }
}

struct Scored: LiveModelProtocol, Codable, Equatable {
    var identifier: Key
    var score: Int
    var label: Int = 0
}

@MainActor
@Suite("ObservedCollection")
struct ObservedCollectionTests {
    @Test("seeded random changes, single and grouped: the rows always equal the collection")
    func followsTheCollection() throws {
        let seed = TestSeed.current("ObservedCollectionTests.followsTheCollection", default: 20_261_126)
        var r = seed.generator
        let collection = SortedCollection<Scored>(order: .child("score"))
        let observed = ObservedCollection(collection)
        for step in 0..<TestScale.count(2_000) {
            let change = {
                let key = Key(stringLiteral: "k\(Int.random(in: 0..<40, using: &r))")
                switch Int.random(in: 0..<3, using: &r) {
                case 0: collection.remove(key)
                case 1: try collection.add(Scored(identifier: key, score: Int.random(in: 0..<20, using: &r)))
                default:
                    if let model = collection.model(for: key) {
                        try collection.add(Scored(identifier: key, score: model.score, label: model.label + 1))
                    }
                }
            }
            if Int.random(in: 0..<4, using: &r) == 0 {
                try collection.performBatch { for _ in 0..<Int.random(in: 1...6, using: &r) { try change() } }
            } else {
                try change()
            }
            #expect(observed.rows.map(\.id) == collection.models.map(\.identifier), "\(seed), step \(step)")
            #expect(observed.rows.map(\.model) == collection.models, "\(seed), step \(step)")
        }
    }

    @Test("a change in place invalidates only its row; an insertion only the list")
    func invalidatesWhatChanged() throws {
        let collection = SortedCollection<Scored>(order: .child("score"))
        for (i, key) in ["a", "b", "c"].enumerated() { try collection.add(Scored(identifier: Key(stringLiteral: key), score: i)) }
        let observed = ObservedCollection(collection)
        let seen = Invalidations()
        func arm() {
            seen.arm("rows") { _ = observed.rows }
            for row in observed.rows { seen.arm(row.id.string) { _ = row.model } }
        }
        arm()
        try collection.add(Scored(identifier: "b", score: 1, label: 7))      // b changes in place
        #expect(seen.take() == ["b"])
        arm()
        try collection.add(Scored(identifier: "d", score: 9))                // a new row at the end
        #expect(seen.take() == ["rows"])
        arm()
        try collection.performBatch {                                        // one grouped change
            try collection.add(Scored(identifier: "e", score: 10))
            collection.remove("a")
            try collection.add(Scored(identifier: "c", score: 2, label: 1))
        }
        #expect(seen.take() == ["c", "rows"])
        #expect(observed.rows.map(\.id) == ["b", "c", "d", "e"])
    }
}
