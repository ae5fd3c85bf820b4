// CollectionFeedTests.swift — the rules of asynchronous preparation, under
// random interleavings the test controls.
import LiveCollection
import LiveModel
import LiveTestSupport
import Testing

struct PrepareFailure: Error, Equatable {}

/// A data source whose children say how to prepare them ("mode"): "now"
/// (immediately), "wait" (until the test resolves it), "fail-now", "skip-now".
/// Waiting preparations finish, in any order the test picks, with a model, a
/// failure or a skip.
@MainActor
final class ScriptedSource: ModelDataSource {
    typealias Model = Card
    enum Outcome { case model, failure, skip }
    struct Waiting {
        let id: Int
        let snapshot: Snapshot
        let continuation: CheckedContinuation<Outcome, Never>
    }
    var waiting: [Waiting] = []
    var resumedNotFinished = 0
    private var nextID = 0

    func prepareNow(_ snapshot: Snapshot, current: Card?) throws -> Preparation<Card>? {
        switch snapshot.child("mode").value {
        case "now": return .model(try Card(snapshot: snapshot))
        case "fail-now": throw PrepareFailure()
        case "skip-now": return .skip
        default: return nil
        }
    }

    func prepare(_ snapshot: Snapshot, current: Card?) async throws -> Preparation<Card> {
        nextID += 1
        let id = nextID
        let outcome = await withCheckedContinuation { waiting.append(Waiting(id: id, snapshot: snapshot, continuation: $0)) }
        defer { resumedNotFinished -= 1 }
        switch outcome {
        case .model: return .model(try Card(snapshot: snapshot))
        case .failure: throw PrepareFailure()
        case .skip: return .skip
        }
    }

    /// Finishes one waiting preparation and waits until the feed has handled it.
    func resolve(at index: Int, with outcome: Outcome) async {
        let w = waiting.remove(at: index)
        resumedNotFinished += 1
        w.continuation.resume(returning: outcome)
        while resumedNotFinished > 0 { await Task.yield() }
    }
}

@MainActor
final class FailureLog: SortedCollectionObserver {
    typealias Model = Card
    var failures: [Key] = []
    func collection(_ c: SortedCollection<Card>, didFailToPrepare key: Key, error: any Error) { failures.append(key) }
}

@MainActor
@Suite("CollectionFeed")
struct CollectionFeedTests {
    func snapshot(_ key: Key, score: Int, mode: String, event: Int = 0) throws -> Snapshot {
        let json = #"{"\#(key.string)": {"score": \#(score), "mode": "\#(mode)", "event": \#(event)}}"#
        return try Snapshot.parse(json: json, order: .child("score")).children.first!
    }

    @Test("random events and resolutions: the collection shows exactly the latest event's outcome per key")
    func randomInterleavings() async throws {
        let seed = testSeed(3)
        var r = Rng(seed)
        let collection = SortedCollection<Card>(order: .child("score"))
        let source = ScriptedSource()
        let feed = CollectionFeed(collection: collection, dataSource: source)
        let failures = FailureLog()
        let token = collection.addObserver(failures)
        defer { token.cancel() }
        let observer = MirrorObserver()
        let mirrorToken = collection.addObserver(observer)
        defer { mirrorToken.cancel() }
        var updatesMirror: [Card] = []
        let updates = collection.observeUpdates { updatesMirror = applyBatch($0, to: updatesMirror) ?? [] }
        defer { updates.cancel() }

        // The oracle: what each key must show, and the latest event per key.
        var expected: [Key: Double] = [:]
        var latest: [Key: Int] = [:]          // key -> id of its latest event
        var pendingEvent: [Int: (key: Key, score: Double)] = [:]  // event id -> what it carries
        var events = 0, expectedFailures = 0
        let keys = Array(keyPool.prefix(20))

        for step in 0..<TestScale.count(100_000) {
            let context = "seed \(seed) step \(step)"
            let choice = r.below(100)
            if choice >= 97 {
                // Direct changes, grouped: they do not cancel the feed's pending
                // events, which still apply when they finish.
                let changes = (0..<(1 + r.below(6))).map { _ in (keys[r.below(keys.count)], r.below(50), r.chance(70)) }
                try collection.performBatch {
                    for (key, score, add) in changes {
                        if add {
                            try collection.add(Card(identifier: key, score: Double(score), info: nil))
                            expected[key] = Double(score)
                        } else {
                            collection.remove(key)
                            expected[key] = nil
                        }
                    }
                }
            } else if choice < 45 || source.waiting.isEmpty && choice < 90 {
                let key = keys[r.below(keys.count)]
                let score = r.below(50)
                let modes = ["now", "wait", "wait", "fail-now", "skip-now"]
                let mode = modes[r.below(modes.count)]
                events += 1
                latest[key] = events
                feed.receive(try snapshot(key, score: score, mode: mode, event: events))
                switch mode {
                case "now": expected[key] = Double(score)
                case "skip-now": expected[key] = nil
                case "fail-now": expectedFailures += 1
                default:
                    pendingEvent[events] = (key, Double(score))
                }
            } else if choice < 90, !source.waiting.isEmpty {
                let i = r.below(source.waiting.count)
                guard case .number(let n) = source.waiting[i].snapshot.child("event").value else {
                    Issue.record("\(context): a waiting preparation without its event")
                    return
                }
                let event = Int(n)
                let outcome: ScriptedSource.Outcome = [.model, .model, .failure, .skip][r.below(4)]
                let (key, score) = pendingEvent.removeValue(forKey: event)!
                let isLatest = latest[key] == event
                await source.resolve(at: i, with: outcome)
                if isLatest {
                    switch outcome {
                    case .model: expected[key] = score
                    case .skip: expected[key] = nil
                    case .failure: expectedFailures += 1
                    }
                }
            } else {
                let key = keys[r.below(keys.count)]
                events += 1
                latest[key] = events
                feed.receiveRemoval(of: key)
                expected[key] = nil
            }
            let shown = Dictionary(uniqueKeysWithValues: collection.models.map { ($0.identifier, $0.score ?? -1) })
            guard shown == expected else {
                Issue.record("\(context): shown \(shown.count) keys, expected \(expected.count)")
                return
            }
            guard observer.sequential.items == collection.models, updatesMirror == collection.models else {
                Issue.record("\(context): a mirror differs from the collection")
                return
            }
        }
        // Finish what is still in flight (superseded preparations never apply).
        while feed.pendingCount > 0 || !source.waiting.isEmpty {
            if source.waiting.isEmpty { await Task.yield() } else { await source.resolve(at: 0, with: .model) }
        }
        #expect(failures.failures.count == expectedFailures, "seed \(seed)")
        #expect(feed.pendingCount == 0)
    }

    @Test("load applies every child as one batch, keeps newer events, and removes absent keys")
    func load() async throws {
        let collection = SortedCollection<Card>(order: .child("score"))
        let source = ScriptedSource()
        let feed = CollectionFeed(collection: collection, dataSource: source)
        let observer = MirrorObserver()
        let token = collection.addObserver(observer)
        defer { token.cancel() }
        feed.receive(try snapshot("old", score: 1, mode: "now"))
        let children = [try snapshot("a", score: 3, mode: "now"), try snapshot("b", score: 2, mode: "wait"),
                        try snapshot("c", score: 1, mode: "wait")]
        let loading = Task { await feed.load(children) }
        while source.waiting.count < 2 { await Task.yield() }
        #expect(observer.loads == 1 && observer.loadsEnded == 0)
        feed.receive(try snapshot("c", score: 9, mode: "now"))   // newer than the load's c
        await source.resolve(at: 0, with: .model)
        await source.resolve(at: 0, with: .model)
        await loading.value
        #expect(collection.models.map(\.identifier) == ["b", "a", "c"])
        #expect(collection.model(for: "c")?.score == 9)
        #expect(observer.loadsEnded == 1 && observer.sequential.items == collection.models)
    }

    @Test("a first load into an empty collection is one batch of insertions, in order")
    func firstLoad() async throws {
        let collection = SortedCollection<Card>(order: .child("score"))
        let source = ScriptedSource()
        let feed = CollectionFeed(collection: collection, dataSource: source)
        let observer = MirrorObserver()
        let token = collection.addObserver(observer)
        let failures = FailureLog()
        let failureToken = collection.addObserver(failures)
        defer { token.cancel(); failureToken.cancel() }
        var batches: [CollectionBatch] = []
        let updates = collection.observeUpdates { batches.append($0.batch) }
        defer { updates.cancel() }
        var children = try (0..<50).map { try snapshot(Key($0), score: 100 - $0, mode: $0 % 7 == 0 ? "wait" : "now") }
        children.append(try snapshot("broken", score: 1, mode: "fail-now"))
        let loading = Task { await feed.load(children) }
        while source.waiting.count < 8 { await Task.yield() }
        while !source.waiting.isEmpty { await source.resolve(at: 0, with: .model) }
        await loading.value
        #expect(collection.models.map(\.identifier) == (0..<50).reversed().map { Key($0) })
        #expect(batches.count == 1 && batches[0].inserted == Array(0..<50) && batches[0].oldCount == 0)
        #expect(observer.loads == 1 && observer.loadsEnded == 1 && observer.sequential.items == collection.models)
        #expect(failures.failures == ["broken"] && feed.pendingCount == 0)
    }

    @Test("a model with another identifier is reported, not shown")
    func identifierMismatch() async throws {
        final class Wrong: ModelDataSource {
            typealias Model = Card
            func prepare(_ snapshot: Snapshot, current: Card?) async throws -> Preparation<Card> {
                .model(Card(identifier: "other", score: 1, info: nil))
            }
        }
        let collection = SortedCollection<Card>(order: .child("score"))
        let feed = CollectionFeed(collection: collection, dataSource: Wrong())
        let log = FailureLog()
        let token = collection.addObserver(log)
        defer { token.cancel() }
        feed.receive(try snapshot("a", score: 1, mode: "x"))
        await feed.settle()
        #expect(collection.isEmpty && log.failures == ["a"])
    }
}
