// PreparedFillTests.swift — a fill prepared away from the main actor gives
// what the feed's load gives, and is refused where it cannot apply.
import LiveCollection
import LiveModel
import Testing

/// The preparation of ``ScriptedSource``'s immediate modes ("now",
/// "fail-now", "skip-now"), callable from any executor.
@Sendable
func scriptedPreparation(_ snapshot: Snapshot) throws -> Preparation<Card> {
    switch snapshot.child("mode").value {
    case "fail-now": throw PrepareFailure()
    case "skip-now": return .skip
    case "other-id": return .model(Card(identifier: "other", score: 1, info: nil))
    default: return .model(try Card(snapshot: snapshot))
    }
}

/// Prepares every child at once with ``scriptedPreparation``.
@MainActor
final class ImmediateSource: ModelDataSource {
    typealias Model = Card
    func prepareNow(_ snapshot: Snapshot, current: Card?) throws -> Preparation<Card>? { try scriptedPreparation(snapshot) }
    func prepare(_ snapshot: Snapshot, current: Card?) async throws -> Preparation<Card> { try scriptedPreparation(snapshot) }
}

/// Prepares a fill on the global concurrent executor, as a first load does.
@concurrent
func prepareAway(_ children: [Snapshot], order: QueryOrder) async -> sending PreparedFill<Card> {
    PreparedFill(children, order: order, prepare: scriptedPreparation)
}

@MainActor
@Suite("PreparedFill")
struct PreparedFillTests {
    func children(seed: UInt64) throws -> [Snapshot] {
        var r = Rng(seed)
        let modes = ["now", "now", "now", "now", "fail-now", "skip-now", "other-id"]
        // Children in random order, keys drawn from a small set (a key given
        // twice: the last one holds), scores with ties.
        var children: [Snapshot] = []
        for i in 0..<(20 + r.below(200)) {
            let key = r.chance(20) ? "k\(r.below(30))" : "c\(i)"
            let json = #"{"\#(key)": {"score": \#(r.below(40)), "mode": "\#(modes[r.below(modes.count)])"}}"#
            children.append(try Snapshot.parse(json: json, order: .child("score")).children[0])
        }
        return children
    }

    func observe(_ collection: SortedCollection<Card>) -> (MirrorObserver, FailureLog, [ObservationToken]) {
        let mirror = MirrorObserver(), failures = FailureLog()
        return (mirror, failures, [collection.addObserver(mirror), collection.addObserver(failures)])
    }

    @Test("a prepared fill gives the models, the one batch, the load events and the failures the feed's load gives",
          arguments: 0..<20)
    func sameAsLoad(round: Int) async throws {
        let seed = testSeed(UInt64(round))
        let children = try self.children(seed: seed)
        let source = ImmediateSource()
        let loaded = SortedCollection<Card>(order: .child("score"))
        let (loadMirror, loadFailures, loadTokens) = observe(loaded)
        defer { loadTokens.forEach { $0.cancel() } }
        await CollectionFeed(collection: loaded, dataSource: source).load(children)

        let filled = SortedCollection<Card>(order: .child("score"))
        let (fillMirror, fillFailures, fillTokens) = observe(filled)
        defer { fillTokens.forEach { $0.cancel() } }
        let feed = CollectionFeed(collection: filled, dataSource: source)
        let prepared = await prepareAway(children, order: .child("score"))
        #expect(feed.load(prepared), "seed \(seed)")

        #expect(filled.models == loaded.models, "seed \(seed)")
        #expect(fillMirror.sequential.items == filled.models && fillMirror.broken == nil, "seed \(seed)")
        #expect(fillMirror.loads == 1 && fillMirror.loadsEnded == 1, "seed \(seed)")
        #expect(loadMirror.sequential.items == loaded.models, "seed \(seed)")
        // Failures of the children that hold (the last of each key); the
        // feed's load also reports some it superseded.
        var last: [Key: String] = [:]
        for child in children { last[child.key!] = child.child("mode").value.stringValue }
        let failing = children.compactMap(\.key).filter { ["fail-now", "other-id"].contains(last[$0]) }
        var expected: [Key] = []
        for key in failing where !expected.contains(key) { expected.append(key) }
        #expect(Set(fillFailures.failures) == Set(expected) && fillFailures.failures.count == expected.count,
                "seed \(seed)")
        #expect(Set(expected).isSubset(of: loadFailures.failures), "seed \(seed)")
    }

    @Test("a fill ordered in bulk from a whole document is the fill of its children one by one, and takes changes after",
          arguments: 0..<20)
    func bulkSameAsOneByOne(round: Int) async throws {
        let seed = testSeed(UInt64(round) &+ 1_000)
        var r = Rng(seed)
        let modes = ["now", "now", "now", "now", "fail-now", "skip-now", "other-id"]
        // One document, a key given twice now and then (the last holds).
        var members: [String] = []
        for i in 0..<(1 + r.below(300)) {
            let key = r.chance(10) ? "c\(r.below(i + 1))" : "c\(i)"
            members.append(#""\#(key)": {"score": \#(r.below(40)), "mode": "\#(modes[r.below(modes.count)])"}"#)
        }
        let document = try Snapshot.parse(json: "{" + members.joined(separator: ",") + "}", order: .child("score"))
        let ordered = document.orderedChildren()
        let oneByOne = PreparedFill(ordered, order: .child("score"), prepare: scriptedPreparation)
        let bulk = try #require(PreparedFill(everyChildOf: document, count: ordered.count, order: .child("score"),
                                             prepare: scriptedPreparation), "seed \(seed)")
        #expect(bulk.count == oneByOne.count, "seed \(seed)")

        let a = SortedCollection<Card>(order: .child("score")), b = SortedCollection<Card>(order: .child("score"))
        let (mirrorA, failuresA, tokensA) = observe(a), (_, failuresB, tokensB) = observe(b)
        defer { (tokensA + tokensB).forEach { $0.cancel() } }
        #expect(CollectionFeed(collection: a, dataSource: ImmediateSource()).load(bulk) && b.fill(oneByOne),
                "seed \(seed)")
        #expect(a.models == b.models, "seed \(seed)")
        // Observers are told the models in order, in one batch inside the load.
        #expect(mirrorA.sequential.items == a.models && mirrorA.broken == nil, "seed \(seed)")
        #expect(failuresA.failures == failuresB.failures, "seed \(seed)")
        // Later changes land alike: new keys take ids past the document's.
        for step in 0..<200 {
            let key = try Key("c\(r.below(400))")
            if r.chance(33) {
                a.remove(key)
                b.remove(key)
            } else {
                let card = Card(identifier: key, score: Double(r.below(40)), info: nil)
                try a.add(card, sortValue: .number(card.score!))
                try b.add(card, sortValue: .number(card.score!))
            }
            #expect(a.models == b.models, "seed \(seed) step \(step)")
        }
    }

    @Test("a bulk fill is refused for a patch, a child, another order, no children or a count the caller does not expect")
    func bulkRefusals() throws {
        let json = #"{"a": {"score": 2}, "b": {"score": 1}}"#
        let whole = try Snapshot.parse(json: json, order: .child("score"))
        let filled = SortedCollection<Card>(order: .child("score"))
        #expect(filled.fill(try #require(PreparedFill(everyChildOf: whole, count: 2, order: .child("score"),
                                                      prepare: scriptedPreparation))))
        #expect(filled.models.map(\.identifier) == ["b", "a"])
        #expect(PreparedFill(everyChildOf: whole, count: 1, order: .child("score"), prepare: scriptedPreparation) == nil)
        #expect(PreparedFill(everyChildOf: whole, count: 2, order: .key, prepare: scriptedPreparation) == nil)
        #expect(PreparedFill(everyChildOf: whole.child("a"), count: 1, order: .child("score"),
                             prepare: scriptedPreparation) == nil)
        let empty = try Snapshot.parse(json: "{}", order: .child("score"))
        #expect(PreparedFill(everyChildOf: empty, count: 0, order: .child("score"), prepare: scriptedPreparation) == nil)
        let patch = try StreamPayload.parse(json: #"{"path": "/", "data": \#(json)}"#, kind: .patch, order: .child("score"))
        #expect(PreparedFill(everyChildOf: patch.data, count: 2, order: .child("score"),
                             prepare: scriptedPreparation) == nil)
    }

    @Test("a fill is refused, changing nothing, by a collection that holds models, is in another order or orders in Swift")
    func refusals() async throws {
        let children = try Snapshot.parse(json: #"{"a": {"score": 2}, "b": {"score": 1}}"#, order: .child("score"))
            .children.map { $0 }
        let holding = SortedCollection<Card>(order: .child("score"))
        try holding.add(Card(identifier: "z", score: 0, info: nil))
        #expect(!holding.fill(await prepareAway(children, order: .child("score"))))
        #expect(holding.models.map(\.identifier) == ["z"])

        let other = SortedCollection<Card>(order: .key)
        #expect(!other.fill(await prepareAway(children, order: .child("score"))) && other.isEmpty)

        let swift = SortedCollection<Card>(sortedBy: { $0.score ?? 0 })
        #expect(!swift.fill(await prepareAway(children, order: .child("score"))) && swift.isEmpty)

        let inBatch = SortedCollection<Card>(order: .child("score"))
        let prepared = await prepareAway(children, order: .child("score"))
        inBatch.performBatch { #expect(!inBatch.fill(prepared)) }
        #expect(inBatch.isEmpty)

        let empty = SortedCollection<Card>(order: .child("score"))
        #expect(empty.fill(await prepareAway(children, order: .child("score"))))
        #expect(empty.models.map(\.identifier) == ["b", "a"])
    }

    @Test("the feed refuses a fill while a preparation is pending")
    func pendingPreparation() async throws {
        let source = ScriptedSource()
        let collection = SortedCollection<Card>(order: .child("score"))
        let feed = CollectionFeed(collection: collection, dataSource: source)
        let waiting = try Snapshot.parse(json: #"{"w": {"score": 1, "mode": "wait"}}"#, order: .child("score")).children[0]
        feed.receive(waiting)
        let children = try Snapshot.parse(json: #"{"a": {"score": 2}}"#, order: .child("score")).children.map { $0 }
        #expect(!feed.load(await prepareAway(children, order: .child("score"))))
        #expect(collection.isEmpty && feed.pendingCount == 1)
        await source.resolve(at: 0, with: .model)
        #expect(collection.models.map(\.identifier) == ["w"])
    }

    @Test("a decoding data source prepares away from the main actor what it prepares on it")
    func decodingDetached() throws {
        let source = DecodingDataSource<Card>()
        let child = try Snapshot.parse(json: #"{"a": {"score": 2, "info": {"rank": 3}}}"#, order: .child("score")).children[0]
        let prepare = try #require(source.detachedPreparation)
        guard case .model(let detached) = try prepare(child), case .model(let now)? = try source.prepareNow(child, current: nil)
        else { Issue.record("no model"); return }
        #expect(detached == now && detached.info?.rank == 3)
        let bad = try Snapshot.parse(json: #"{"b": {"score": "x"}}"#, order: .child("score")).children[0]
        #expect(throws: DecodingError.self) { try prepare(bad) }
    }
}
