// CollectionFeedLoadTests.swift — a load whose children are all made at
// once: the last child of each key decides, with or without repeated keys,
// into an empty collection or one that holds models.
import LiveCollection
import LiveModel
import Testing

@MainActor
@Suite("CollectionFeed loads made at once")
struct CollectionFeedLoadTests {
    /// Children made at once ("now", "skip-now", "fail-now"), with keys
    /// repeated when `repeats`.
    func children(_ r: inout Rng, repeats: Bool) throws -> [Snapshot] {
        let modes = ["now", "now", "now", "skip-now", "fail-now"]
        var out: [Snapshot] = []
        for i in 0..<(1 + r.below(120)) {
            let key = repeats && r.chance(30) ? "k\(r.below(40))" : "c\(i)"
            let mode = r.chance(25) ? modes[r.below(modes.count)] : "now"
            let json = #"{"\#(key)": {"score": \#(r.below(50)), "mode": "\#(mode)"}}"#
            out.append(try Snapshot.parse(json: json, order: .child("score")).children[0])
        }
        return out
    }

    /// What the collection must show after loading `children` over `before`:
    /// each key of the load as its last child says (a model, absent when
    /// skipped, as it was when failed), keys absent from the load removed.
    func expected(before: [Key: Double], children: [Snapshot]) -> [Key: Double] {
        var last: [Key: Snapshot] = [:]
        for child in children { last[child.key!] = child }
        var out: [Key: Double] = [:]
        for (key, child) in last {
            switch child.child("mode").value.stringValue {
            case "now": out[key] = child.child("score").value.numberValue
            case "fail-now": out[key] = before[key]
            default: break
            }
        }
        return out
    }

    @Test("the last child of each key decides, and observers see one batch that applies",
          arguments: [(false, false), (true, false), (false, true), (true, true)])
    func lastChildDecides(repeats: Bool, holding: Bool) async throws {
        let seed = testSeed(UInt64((repeats ? 1 : 0) + (holding ? 2 : 0)))
        var r = Rng(seed)
        for round in 0..<60 {
            let collection = SortedCollection<Card>(order: .child("score"))
            let feed = CollectionFeed(collection: collection, dataSource: ScriptedSource())
            var before: [Key: Double] = [:]
            if holding {
                for child in try children(&r, repeats: true) where child.child("mode").value.stringValue == "now" {
                    feed.receive(child)
                }
                for model in collection.models { before[model.identifier] = model.score }
            }
            let mirror = MirrorObserver(), failures = FailureLog()
            mirror.sequential.items = collection.models
            let tokens = [collection.addObserver(mirror), collection.addObserver(failures)]
            defer { tokens.forEach { $0.cancel() } }
            let load = try children(&r, repeats: repeats)
            await feed.load(load)

            var shown: [Key: Double] = [:]
            for model in collection.models { shown[model.identifier] = model.score }
            let context = "seed \(seed) round \(round)"
            #expect(shown == expected(before: before, children: load), "\(context)")
            #expect(mirror.broken == nil && mirror.sequential.items == collection.models, "\(context)")
            #expect(mirror.loads == 1 && mirror.loadsEnded == 1, "\(context)")
            let failing = Set(load.filter { $0.child("mode").value.stringValue == "fail-now" }.compactMap(\.key))
            #expect(Set(failures.failures) == failing, "\(context)")
            #expect(feed.pendingCount == 0, "\(context)")
        }
    }
}
