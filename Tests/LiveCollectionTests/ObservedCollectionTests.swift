// ObservedCollectionTests.swift — a sorted collection as Observation state:
// it follows every change, and a change invalidates only what it touched.
import LiveCollection
import LiveTestSupport
import Testing

struct Scored: LiveModelProtocol, Codable, Equatable {
    var identifier: Key
    var score: Int
    var label: Int = 0
}

@MainActor
@Suite("ObservedCollection")
struct ObservedCollectionTests {
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
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
            let objects = Dictionary(uniqueKeysWithValues: observed.rows.map { ($0.id, ObjectIdentifier($0)) })
            if Int.random(in: 0..<4, using: &r) == 0 {
                try collection.performBatch { for _ in 0..<Int.random(in: 1...6, using: &r) { try change() } }
            } else {
                try change()
            }
            #expect(observed.rows.map(\.id) == collection.models.map(\.identifier), "\(seed), step \(step)")
            // A row that stays, moved or not, keeps its object.
            #expect(observed.rows.allSatisfy { row in objects[row.id].map { $0 == ObjectIdentifier(row) } ?? true },
                    "\(seed), step \(step)")
            #expect(observed.rows.map(\.model) == collection.models, "\(seed), step \(step)")
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
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

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("made in the middle of a batch, it follows the batch's update")
    func madeInsideABatch() throws {
        let collection = SortedCollection<Scored>(order: .child("score"))
        for (i, key) in ["a", "b", "c"].enumerated() { try collection.add(Scored(identifier: Key(stringLiteral: key), score: i)) }
        var observed: ObservedCollection<Scored>?
        try collection.performBatch {
            collection.remove("a")
            observed = ObservedCollection(collection)
            try collection.add(Scored(identifier: "b", score: 1, label: 3))
            try collection.add(Scored(identifier: "d", score: 0))
        }
        let rows = try #require(observed).rows
        #expect(rows.map(\.id) == ["d", "b", "c"])
        #expect(rows.map(\.model) == collection.models)
    }
}

/// Changes the collection from inside its handler, once.
@MainActor
private final class Meddler: SortedCollectionObserver {
    var change: (() throws -> Void)?
    func collection(_ c: SortedCollection<Scored>, didChange change: SequentialChange<Scored>) {
        guard let next = self.change else { return }
        self.change = nil
        try? next()
    }
}

@MainActor
@Suite("ObservedCollection with changes made inside handlers")
struct ObservedCollectionReentryTests {
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("a change made by an earlier observer while one is told: the rows still end equal to the collection",
          arguments: 0..<6)
    func changeInsideAHandler(kind: Int) throws {
        let collection = SortedCollection<Scored>(order: .child("score"))
        for (i, key) in ["a", "b", "c"].enumerated() { try collection.add(Scored(identifier: Key(stringLiteral: key), score: i)) }
        let meddler = Meddler()
        let token = collection.addObserver(meddler)
        let observed = ObservedCollection(collection)
        meddler.change = {
            switch kind {
            case 0: try collection.add(Scored(identifier: "x", score: 9, label: 1))     // in place
            case 1: collection.remove("a")
            case 2: try collection.add(Scored(identifier: "y", score: -1))
            case 3: try collection.add(Scored(identifier: "b", score: 7))
            case 4: try collection.add(Scored(identifier: "b", score: 1, label: 9))
            default: try collection.performBatch {
                collection.remove("c")
                try collection.add(Scored(identifier: "z", score: 5))
            }
            }
        }
        try collection.add(Scored(identifier: "x", score: 9))
        #expect(observed.rows.map(\.id) == collection.models.map(\.identifier))
        #expect(observed.rows.map(\.model) == collection.models)
        token.cancel()
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("a grouped change made while another is told, with the same positions: the rows end equal to the collection")
    func groupedInsideAGroupedHandler() throws {
        let collection = SortedCollection<Scored>(order: .child("score"))
        for (i, key) in ["a", "b", "c"].enumerated() { try collection.add(Scored(identifier: Key(stringLiteral: key), score: i)) }
        var nested: (() throws -> Void)? = {
            try collection.performBatch {
                collection.remove("b")
                try collection.add(Scored(identifier: "y", score: 10))
            }
        }
        let token = collection.observeUpdates { _ in
            guard let change = nested else { return }
            nested = nil
            try? change()
        }
        defer { token.cancel() }
        let observed = ObservedCollection(collection)
        // [a, b, c] -> [b, c, x]; inside, [b, c, x] -> [c, x, y]: both delete
        // row 0 and insert at row 2, told to the rows in the other order.
        try collection.performBatch {
            collection.remove("a")
            try collection.add(Scored(identifier: "x", score: 9))
        }
        #expect(observed.rows.map(\.id) == collection.models.map(\.identifier))
        #expect(observed.rows.map(\.model) == collection.models)
    }
}
