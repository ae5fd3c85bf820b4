// BatchRecording.swift — what a batch touched, and the batch it makes.
import LiveModel

/// The state of each key a batch touched, as it was before the batch.
@usableFromInline
struct BatchRecording<Model> {
    struct Before {
        var existed: Bool
        /// The backend's sort key before the batch, as the backend records it.
        var sortKey: RecordedSortKey?
        /// The model before the batch, if it existed.
        var model: Model?
        /// Whether the model was replaced or updated during the batch.
        var changed = false
    }

    /// A touched key at the end of the batch.
    struct Touched {
        let key: Key
        let before: Before
        let new: Int?
    }

    let oldCount: Int
    var before: [Key: Before] = [:]

    init(oldCount: Int) { self.oldCount = oldCount }

    @usableFromInline
    mutating func changed(_ key: Key) { before[key]?.changed = true }
}

extension SortedCollection {
    /// Whether a batch is being recorded.
    @usableFromInline package var isRecording: Bool { recording != nil }

    /// Notes the state of `key` before its first change in the current batch.
    /// - Returns: whether this is the key's first change: outside a batch
    ///   always, inside one the first time the batch touches it. Observers
    ///   are told that a key will change (``notifyWillChange(_:)``) once,
    ///   before its first change.
    @inlinable
    func record(_ key: Key) -> Bool {
        recording == nil || recordInBatch(key)
    }

    /// ``record(_:)`` inside a batch (`recording` is not nil): whether this
    /// is the key's first change in the batch, its state before noted if so.
    @usableFromInline
    func recordInBatch(_ key: Key) -> Bool {
        guard recording!.before[key] == nil else { return false }
        if let core {
            recording!.before[key] = Self.before(key, in: core)
        } else {
            recording!.before[key] = Self.before(key, in: backend)
        }
        return true
    }

    /// What `key` holds in `b` now, as a batch keeps it.
    private static func before<B: OrderingBackend<Model>>(_ key: Key, in b: B) -> BatchRecording<Model>.Before {
        guard let sortKey = b.sortKey(for: key) else { return .init(existed: false, sortKey: nil, model: nil) }
        return .init(existed: true, sortKey: b.record(sortKey), model: b.model(for: key))
    }

    /// The keys the batch being recorded touched so far (none outside a
    /// batch): an observer added in the middle of a batch notes them, as it
    /// would have before their first change.
    package var keysTouchedInBatch: [Key] { recording.map { Array($0.before.keys) } ?? [] }

    /// Groups the changes `body` makes into one batch: observers hear
    /// did-start-load, one ``CollectionUpdate`` (if anything changed) and
    /// did-end-load. Nested calls join the outer batch.
    /// - Complexity: O(t log n) beyond the changes themselves, for t keys touched.
    public func performBatch<R>(_ body: () throws -> R) rethrows -> R {
        try performBatch(notifyingLoad: true, body)
    }

    @usableFromInline
    func performBatch<R>(notifyingLoad: Bool, _ body: () throws -> R) rethrows -> R {
        if recording != nil { return try body() }
        recording = BatchRecording(oldCount: count)
        if notifyingLoad { notifyLoad(started: true) }
        defer {
            let done = recording!
            recording = nil
            let update = core.map { makeUpdate($0, done) } ?? makeUpdate(backend, done)
            if !update.batch.isEmpty {
                notifyGrouped(update)
            } else if !update.touched.isEmpty {
                // Nothing to tell, but the keys noted before their changes are done with.
                for observer in handlers.ordered { observer.unchanged?(update.touched.map(\.key)) }
            }
            validate()
            if notifyingLoad { notifyLoad(started: false) }
        }
        return try body()
    }

    /// Fills an empty collection with `models` as one batch: every model is
    /// an insertion, so nothing is recorded and the update is made from the
    /// models in order. A model whose sort value cannot be computed is
    /// reported to observers (`didFailToPrepare`) and left out; models sharing
    /// an identifier: the last wins. Load events are the caller's.
    /// - Complexity: O(n log n).
    @usableFromInline
    func fill(_ models: [(model: Model, sortValue: SortValue?)]) {
        precondition(isEmpty && recording == nil, "fill needs an empty collection outside a batch")
        if let core = backend as? CoreBackend<Model>, fillInBulk(models, core) { return }
        fill(models, in: backend)
    }

    /// Fills an empty collection in Firebase order with `models`, as
    /// ``fill(_:)`` does, when no two of them share an identifier.
    /// - Returns: false, having changed and told nothing, when two models
    ///   share an identifier or the collection is not in Firebase order.
    /// - Complexity: O(n log n).
    @inlinable
    func fillDistinct(_ models: [(model: Model, sortValue: SortValue?)]) -> Bool {
        precondition(isEmpty && !isRecording, "fill needs an empty collection outside a batch")
        guard let core = backend as? CoreBackend<Model> else { return false }
        return fillInBulk(models, core)
    }

    /// Fills the empty C index in one bulk build, as ``fill(_:)`` describes.
    /// - Returns: false, having changed and told nothing, when two models
    ///   share an identifier (the fill then goes model by model, so that the
    ///   last one wins).
    /// - Complexity: O(n log n); compiled for the caller's model (`@inlinable`).
    @inlinable
    func fillInBulk(_ models: [(model: Model, sortValue: SortValue?)], _ core: CoreBackend<Model>) -> Bool {
        var keys: [Key] = [], values: [SortValue] = [], kept: [Model?] = []
        keys.reserveCapacity(models.count)
        values.reserveCapacity(models.count)
        kept.reserveCapacity(models.count)
        var failures: [(key: Key, error: any Error)] = []
        for (model, sortValue) in models {
            do {
                values.append(try core.sortKey(of: model, hint: sortValue))
                keys.append(model.identifier)
                kept.append(model)
            } catch {
                failures.append((model.identifier, error))
            }
        }
        guard core.build(keys: keys, values: values, models: kept) else { return false }
        for failure in failures { notifyFailure(failure.key, failure.error) }
        if core.count > 0 { notifyGrouped(fillUpdate(core)) }
        validate()
        return true
    }

    private func fill<B: OrderingBackend<Model>>(_ models: [(model: Model, sortValue: SortValue?)], in b: B) {
        for (model, sortValue) in models {
            do {
                _ = b.upsert(model.identifier, model: model, sortKey: try b.sortKey(of: model, hint: sortValue))
            } catch {
                notifyFailure(model.identifier, error)
            }
        }
        if b.count > 0 { notifyGrouped(fillUpdate(b)) }
        validate()
    }

    @usableFromInline
    func fillUpdate<B: OrderingBackend<Model>>(_ b: B) -> CollectionUpdate<Model> {
        var inOrder: [Model] = []
        inOrder.reserveCapacity(b.count)
        b.forEach(from: 0) { inOrder.append($0); return true }
        return CollectionUpdate(batch: CollectionBatch(inserted: Array(0..<b.count), oldCount: 0, newCount: b.count),
                                insertedModels: inOrder, movedModels: [], updatedModels: [])
    }

    /// The batch of a recording: old positions of touched keys are found from
    /// the current index alone (an entry's old position is the number of
    /// entries before its old post in the current state, less the touched
    /// entries now before it, plus the touched entries that were before it).
    private func makeUpdate<B: OrderingBackend<Model>>(_ b: B, _ rec: BatchRecording<Model>) -> CollectionUpdate<Model> {
        typealias Touched = BatchRecording<Model>.Touched
        let touched = rec.before.map { Touched(key: $0.key, before: $0.value, new: b.position(of: $0.key)) }
        let newPositions = touched.compactMap { $0.new }.sorted()
        // The keys that existed, with their old sort keys (cast once each),
        // ranked in their old order by sorting indexes, not the entries.
        var existed: [Int] = [], oldKeys: [Key] = [], oldSortKeys: [B.SortKey] = []
        for (i, t) in touched.enumerated() where t.before.existed {
            existed.append(i)
            oldKeys.append(t.key)
            oldSortKeys.append(b.sortKey(recorded: t.before.sortKey!))
        }
        // Where each old post falls among the entries now: a bound that
        // grows with the post, so the old order is the order of the bounds,
        // the posts compared only where bounds tie.
        let bounds = existed.indices.map { b.lowerBound(oldSortKeys[$0], oldKeys[$0]) }
        let ranked = existed.indices.sorted { i, j in
            bounds[i] != bounds[j] ? bounds[i] < bounds[j] : b.less(oldSortKeys[i], oldKeys[i], oldSortKeys[j], oldKeys[j])
        }
        var deleted: [Int] = [], inserted: [Int] = [], kept: [BatchDiff.Kept] = []
        var keyAtOld: [Int: Key] = [:]
        for (rank, e) in ranked.enumerated() {
            let t = touched[existed[e]]
            let bound = bounds[e]
            let old = bound - countBelow(newPositions, bound) + rank
            if let new = t.new {
                kept.append(BatchDiff.Kept(old: old, new: new, changed: t.before.changed))
                keyAtOld[old] = t.key
            } else {
                deleted.append(old)
            }
        }
        for t in touched where !t.before.existed { if let new = t.new { inserted.append(new) } }
        let batch: CollectionBatch
        do {
            batch = try BatchDiff.compute(oldCount: rec.oldCount, newCount: b.count, deleted: deleted,
                                          inserted: inserted, kept: kept)
        } catch {
            assertionFailure("LiveCollection: inconsistent batch: \(error)")
            // Still a valid batch: everything out, everything in.
            batch = CollectionBatch(deleted: Array(0..<rec.oldCount), inserted: Array(0..<b.count),
                                    oldCount: rec.oldCount, newCount: b.count)
        }
        return CollectionUpdate(
            batch: batch,
            insertedModels: batch.inserted.map { b.model(at: $0) },
            movedModels: batch.moved.map { b.model(at: $0.to) },
            updatedModels: batch.updated.map { b.model(for: keyAtOld[$0]!)! },
            touched: touched.map { TouchedKey(key: $0.key, before: $0.before.model, changed: $0.before.changed) })
    }

    /// Number of sorted values below `bound`.
    private func countBelow(_ sorted: [Int], _ bound: Int) -> Int {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < bound { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
