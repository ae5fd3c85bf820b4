// SyncFingerprintTests.swift — the fingerprint `sync` follows a changing
// collection with equals, after every change, the fingerprint of the rows
// made from scratch.

import LiveCollection
import LiveModel
@testable import LiveREPL
import LiveTestSupport
import Testing

@MainActor
@Suite("sync's fingerprint of a changing collection")
struct SyncFingerprintTests {
    /// The fingerprint of the rows now, made from scratch.
    static func scratch(_ collection: SortedCollection<REPLChild>) -> ChildrenFingerprint {
        var print = ChildrenFingerprint()
        for model in collection {
            print.add(.init(key: model.identifier, digest: model.digest,
                            sortValue: collection.sortValue(for: model.identifier) ?? .null))
        }
        return print
    }

    static func child(_ key: String, _ n: Int, order: QueryOrder) throws -> (REPLChild, SortValue) {
        let snapshot = try #require(try Snapshot.parse(json: #"{"\#(key)":{"n":\#(n),"m":"v\#(n % 3)"}}"#, order: order)
            .children.first)
        return (try REPLChild(snapshot: snapshot), snapshot.sortValue)
    }

    @Test("seeded: single changes, batches, a reset and a new order; changes before the first hashing is done count")
    func followsEveryChange() async throws {
        let seed = TestSeed.current("sync fingerprint", default: 20_261_128)
        var rng = SplitMix64(seed: seed.value)
        var order = QueryOrder.child("n")
        let collection = SortedCollection<REPLChild>(order: order)
        for i in 0..<50 {
            let (model, sortValue) = try Self.child("k\(i)", i, order: order)
            try collection.add(model, sortValue: sortValue)
        }
        let tracker = SyncTracker(collection)
        defer { tracker.cancel() }
        // Changed before the rows taken at the start are hashed.
        let (early, earlyValue) = try Self.child("k1", 1_000, order: order)
        try collection.add(early, sortValue: earlyValue)
        collection.remove("k2")
        let started = AsyncStream<Void>.makeStream()
        tracker.onChange = { started.continuation.yield() }
        for await _ in started.stream where tracker.fingerprint != nil { break }
        tracker.onChange = nil
        #expect(tracker.fingerprint == Self.scratch(collection), "\(seed): after the start")

        for step in 0..<300 {
            let key = "k\(Int.random(in: 0..<70, using: &rng))", n = Int.random(in: -20..<20, using: &rng)
            let kind = Int.random(in: 0..<12, using: &rng)
            switch kind {
            case 0..<5:
                let (model, sortValue) = try Self.child(key, n, order: order)
                try collection.add(model, sortValue: sortValue)
            case 5..<7:
                collection.remove(Key(unchecked: key))
            case 7..<10:
                try collection.performBatch {
                    for _ in 0..<Int.random(in: 1..<6, using: &rng) {
                        let k = "k\(Int.random(in: 0..<70, using: &rng))"
                        if Bool.random(using: &rng) {
                            let (model, sortValue) = try Self.child(k, Int.random(in: -20..<20, using: &rng), order: order)
                            try collection.add(model, sortValue: sortValue)
                        } else {
                            collection.remove(Key(unchecked: k))
                        }
                    }
                }
            case 10:
                // A new order: every sort value changes, no value does.
                order = order == .key ? .child("n") : .key
                try collection.setOrder(order)
            default:
                try collection.reset((0..<Int.random(in: 0..<8, using: &rng)).map { i in
                    try Self.child("r\(i)", i, order: order).0
                })
            }
            #expect(tracker.fingerprint == Self.scratch(collection), "\(seed): step \(step), change \(kind)")
            if tracker.fingerprint != Self.scratch(collection) { return }
        }
    }

    @Test("the same children with another value, sort value or key give another fingerprint")
    func distinguishes() throws {
        let order = QueryOrder.child("n")
        let (a, av) = try Self.child("a", 1, order: order)
        let (b, bv) = try Self.child("a", 2, order: order)
        let (c, cv) = try Self.child("c", 1, order: order)
        let one = ChildrenFingerprint.Child(key: a.identifier, digest: a.digest, sortValue: av)
        #expect(one != .init(key: b.identifier, digest: b.digest, sortValue: bv))
        #expect(one != .init(key: c.identifier, digest: c.digest, sortValue: cv))
        #expect(one != .init(key: a.identifier, digest: a.digest, sortValue: .number(7)))
        var print = ChildrenFingerprint()
        print.add(one)
        print.remove(one)
        #expect(print == ChildrenFingerprint())
    }
}
