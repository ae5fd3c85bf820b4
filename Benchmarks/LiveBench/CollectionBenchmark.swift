// CollectionBenchmark.swift — the sorted collection (Swift layer) under the
// same mixed events as the C index, and an initial load through a data source.
import Foundation
import LiveCollection
import LiveModel
import LiveSections

/// A small model: a key and a score, with the model protocol written out
/// (no Codable round trip), as a performance-minded user would.
struct BenchItem: LiveModelProtocol {
    var identifier: Key
    var score: Double

    init(identifier: Key, score: Double) {
        self.identifier = identifier
        self.score = score
    }

    init(identifier: Key, dictionary: JSONValue) throws {
        guard case .number(let s)? = dictionary["score"] else { throw BenchError.noScore }
        self.init(identifier: identifier, score: s)
    }

    var dictionary: JSONValue { ["score": .number(score)] }

    mutating func update(with dictionary: JSONValue) throws {
        self = try BenchItem(identifier: identifier, dictionary: dictionary)
    }

    enum BenchError: Error { case noScore }
}

/// Counts what it hears, as a list view's data source would at minimum.
@MainActor
final class CountingObserver: SortedCollectionObserver {
    typealias Model = BenchItem
    var changes = 0, batches = 0
    func collection(_ c: SortedCollection<BenchItem>, didChange change: SequentialChange<BenchItem>) { changes += 1 }
    func collection(_ c: SortedCollection<BenchItem>, didApply update: CollectionUpdate<BenchItem>) { batches += 1 }
}

/// Makes models from the snapshot's sort value: no JSON parsing.
@MainActor
final class ScoreDataSource: ModelDataSource {
    typealias Model = BenchItem
    func prepareNow(_ snapshot: Snapshot, current: BenchItem?) throws -> Preparation<BenchItem>? {
        guard case .number(let s) = snapshot.sortValue, let key = snapshot.key else { return .skip }
        return .model(BenchItem(identifier: key, score: s))
    }
    func prepare(_ snapshot: Snapshot, current: BenchItem?) async throws -> Preparation<BenchItem> {
        try prepareNow(snapshot, current: current) ?? .skip
    }
}

@MainActor
enum CollectionBenchmark {
    /// Applies event `e` of `stream` (an add or update with its score, or a
    /// removal) to `collection`.
    @inline(__always)
    static func apply(_ stream: EventStream, _ e: Int, key: Key, to collection: SortedCollection<BenchItem>) {
        switch stream.ops[e] {
        case .update, .add:
            let s = stream.scores[e]
            try! collection.add(BenchItem(identifier: key, score: s), sortValue: .number(s))
        case .remove:
            collection.remove(key)
        }
    }

    /// Seconds per event through a `SortedCollection` in Firebase order with one observer.
    static func events(_ stream: EventStream) -> Double {
        let width = EventStream.keyLength
        func key(_ bytes: [UInt8], _ i: Int) -> Key {
            try! Key(String(decoding: bytes[(i * width)..<((i + 1) * width)], as: UTF8.self))
        }
        let initialKeys = (0..<stream.initialScores.count).map { key(stream.initialKeys, $0) }
        let eventKeys = (0..<stream.ops.count).map { key(stream.keys, $0) }
        let collection = SortedCollection<BenchItem>(order: .child("score"))
        for (i, k) in initialKeys.enumerated() {
            try! collection.add(BenchItem(identifier: k, score: stream.initialScores[i]),
                                sortValue: .number(stream.initialScores[i]))
        }
        let observer = CountingObserver()
        let token = collection.addObserver(observer)
        defer { token.cancel() }
        let seconds = Timing.seconds {
            for e in 0..<stream.ops.count { apply(stream, e, key: eventKeys[e], to: collection) }
        }
        precondition(collection.count == stream.finalCount && observer.changes > 0, "collection diverged")
        return seconds / Double(stream.ops.count)
    }

    /// Seconds per event through a `SectionedCollection` of 100 sections (by
    /// score bucket) over the collection, with one observer of its stages.
    static func sectionedEvents(_ stream: EventStream) -> Double {
        let width = EventStream.keyLength
        func key(_ bytes: [UInt8], _ i: Int) -> Key {
            try! Key(String(decoding: bytes[(i * width)..<((i + 1) * width)], as: UTF8.self))
        }
        let initialKeys = (0..<stream.initialScores.count).map { key(stream.initialKeys, $0) }
        let eventKeys = (0..<stream.ops.count).map { key(stream.keys, $0) }
        let collection = SortedCollection<BenchItem>(order: .child("score"))
        for (i, k) in initialKeys.enumerated() {
            try! collection.add(BenchItem(identifier: k, score: stream.initialScores[i]),
                                sortValue: .number(stream.initialScores[i]))
        }
        let sectioned = SectionedCollection(collection) { Int($0.score) / 10_000 } // 100 sections
        var stages = 0
        let token = sectioned.observeStages { stages += $0.count }
        defer { token.cancel() }
        let seconds = Timing.seconds {
            for e in 0..<stream.ops.count { apply(stream, e, key: eventKeys[e], to: collection) }
        }
        precondition(stages > 0 && sectioned.numberOfSections == 100, "sectioned collection diverged")
        return seconds / Double(stream.ops.count)
    }

    /// Seconds per grouped change (`performBatch`) of `groupSize` events of
    /// `stream` (updates that change the score and often the section, adds,
    /// removes) through a `SectionedCollection` of 100 sections, with one
    /// observer of its stages and one sequential observer; `groups` groups.
    static func sectionedGroupedChange(_ stream: EventStream, groupSize: Int, groups: Int) -> Double {
        let width = EventStream.keyLength
        func key(_ bytes: [UInt8], _ i: Int) -> Key {
            try! Key(String(decoding: bytes[(i * width)..<((i + 1) * width)], as: UTF8.self))
        }
        let collection = SortedCollection<BenchItem>(order: .child("score"))
        for i in 0..<stream.initialScores.count {
            try! collection.add(BenchItem(identifier: key(stream.initialKeys, i), score: stream.initialScores[i]),
                                sortValue: .number(stream.initialScores[i]))
        }
        let sectioned = SectionedCollection(collection) { Int($0.score) / 10_000 } // 100 sections
        var stages = 0, changes = 0
        let t1 = sectioned.observeStages { stages += $0.count }
        let t2 = sectioned.observe { _ in changes += 1 }
        defer { t1.cancel(); t2.cancel() }
        let groups = min(groups, stream.ops.count / groupSize)
        var times: [Double] = []
        for g in 0..<groups {
            let range = (g * groupSize)..<((g + 1) * groupSize)
            let eventKeys = range.map { key(stream.keys, $0) }
            times.append(Timing.seconds {
                collection.performBatch {
                    for (e, k) in zip(range, eventKeys) { apply(stream, e, key: k, to: collection) }
                }
            })
        }
        precondition(stages > 0 && changes > 0, "sectioned collection told nothing")
        return Timing.median(times)
    }

    /// Seconds to load `bytes` (a snapshot) into an empty collection through a
    /// data source, as one batch: parse, prepare every child, insert.
    static func load(_ bytes: [UInt8]) async -> (seconds: Double, count: Int) {
        let collection = SortedCollection<BenchItem>(order: .child("score"))
        let feed = CollectionFeed(collection: collection, dataSource: ScoreDataSource())
        let observer = CountingObserver()
        let token = collection.addObserver(observer)
        defer { token.cancel() }
        let clock = ContinuousClock()
        let start = clock.now
        let snapshot = try! Snapshot.parse(json: bytes, order: .child("score"))
        await feed.load(Array(snapshot.children))
        let elapsed = (clock.now - start).inSeconds
        precondition(observer.batches == 1, "the load was not one batch")
        return (elapsed, collection.count)
    }
}
