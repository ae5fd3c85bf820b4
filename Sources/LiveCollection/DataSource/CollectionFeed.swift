// CollectionFeed.swift — feeding a sorted collection from received data
// through a data source, with the rules of asynchronous preparation.
import LiveModel

/// Feeds a ``SortedCollection`` with received children (snapshots) through a
/// ``ModelDataSource``.
///
/// Rules: a preparation's result is applied only if no later event for
/// that key arrived meanwhile (events are numbered per key once a
/// preparation can wait), so a later event wins, a removal cancels a
/// pending preparation, results apply in event order per key, and a model
/// is never shown stale or twice. A failed
/// preparation is reported to the collection's observers
/// (`didFailToPrepare`) and leaves the key as it was.
@MainActor
public final class CollectionFeed<Source: ModelDataSource> {
    /// The models the data source makes.
    public typealias Model = Source.Model

    /// The collection fed.
    public let collection: SortedCollection<Model>
    /// What turns each child's snapshot into a model.
    public let dataSource: Source
    /// The number of each key's latest event: a result applies only if its
    /// event is still the latest for its key.
    @usableFromInline var latest: [Key: UInt64] = [:]
    @usableFromInline var pending: [Key: Task<Void, Never>] = [:]
    @usableFromInline var counter: UInt64 = 0
    /// Loads under way (``load(_:)`` waits for preparations).
    @usableFromInline var loading = 0
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []

    /// A feed of `collection` through `dataSource`.
    ///
    /// The feed's rules hold among the events it is given: it keeps its own
    /// record of each key's latest event.
    public init(collection: SortedCollection<Model>, dataSource: Source) {
        self.collection = collection
        self.dataSource = dataSource
    }

    /// Number of preparations in flight.
    package var pendingCount: Int { pending.count }

    /// Whether a preparation for `key` is in flight.
    package func isPreparing(_ key: Key) -> Bool { pending[key] != nil }

    /// A child was added or changed. Snapshots without a key are ignored.
    /// - Complexity: O(log n), plus the preparation.
    public func receive(_ snapshot: Snapshot) {
        guard let key = snapshot.key else { return }
        // With nothing pending and no load under way, a model made at once
        // needs no number: no other event can come between. Only events
        // that wait are numbered, so that a long list changed over time does
        // not keep a number for every key it ever changed.
        let settled = pending.isEmpty && loading == 0
        var gen: UInt64 = 0
        if settled {
            if !latest.isEmpty { latest[key] = nil }
        } else {
            gen = supersede(key)
        }
        let current = collection.model(for: key)
        do {
            if let ready = try dataSource.prepareNow(snapshot, current: current) {
                apply(ready, key: key, sortValue: snapshot.sortValue)
                return
            }
        } catch {
            collection.notifyFailure(key, error)
            return
        }
        if settled { gen = supersede(key) }
        let source = dataSource
        pending[key] = Task { [weak self] in
            let result: Result<Preparation<Model>, any Error>
            do { result = .success(try await source.prepare(snapshot, current: current)) } catch { result = .failure(error) }
            self?.finish(key: key, generation: gen, result: result, sortValue: snapshot.sortValue)
        }
    }

    /// A child was removed: a pending preparation for it is cancelled.
    /// - Complexity: O(log n).
    public func receiveRemoval(of key: Key) {
        supersede(key)
        latest[key] = nil // nothing can apply for this key any more
        collection.remove(key)
    }

    /// Replaces the whole content by `children` (an initial load or a resync)
    /// as one batch once every child is prepared: keys absent from `children`
    /// are removed, and a key that gets a newer event while loading keeps the
    /// newer one. Observers hear did-start-load when the load begins.
    ///
    /// Compiled for the caller's data source and model (`@inlinable`): a
    /// large load runs without generic indirection.
    /// - Complexity: O((n + m) log(n + m)) for n children and m models
    ///   held, plus the preparations.
    @inlinable
    public func load(_ children: [Snapshot]) async {
        loading += 1
        defer { loading -= 1 }
        collection.notifyLoad(started: true)
        let loadStart = counter
        let wasEmpty = collection.isEmpty
        // Generations tell which of a key's events is the latest once
        // something can come between the children: a preparation pending
        // before the load, or one that waits. Until then (the usual large
        // load, every child made at once), none are given.
        var numbered = !pending.isEmpty
        // Per child, by position in `children` (keyless children are skipped).
        var keys: [Key] = [], generations: [UInt64] = [], sortValues: [SortValue] = []
        var prepared: [Preparation<Model>?] = []
        keys.reserveCapacity(children.count)
        sortValues.reserveCapacity(children.count)
        prepared.reserveCapacity(children.count)
        var waits: [Task<Void, Never>] = []
        for child in children {
            guard let key = child.key else { continue }
            let i = keys.count
            keys.append(key)
            if numbered { generations.append(supersede(key)) }
            sortValues.append(child.sortValue)
            prepared.append(nil)
            let current = wasEmpty ? nil : collection.model(for: key)
            do {
                if let ready = try dataSource.prepareNow(child, current: current) {
                    prepared[i] = ready
                    continue
                }
            } catch {
                collection.notifyFailure(key, error)
                continue
            }
            if !numbered {
                // The first child that waits: the children so far get their
                // generations now, as they would have in order (nothing has
                // run in between, and nothing was pending).
                numbered = true
                latest.reserveCapacity(latest.count + children.count)
                generations.reserveCapacity(children.count)
                for k in keys { generations.append(supersede(k)) }
            }
            let gen = generations[i]
            let source = dataSource
            let task = Task { [weak self] in
                do {
                    let result = try await source.prepare(child, current: current)
                    guard let self, self.latest[key] == gen else { return }
                    prepared[i] = result
                } catch {
                    self?.collection.notifyFailure(key, error)
                }
            }
            pending[key] = task
            waits.append(task)
        }
        for task in waits { await task.value }
        let snapshotOrder = usesSnapshotOrder
        if !numbered, collection.isEmpty,
           let models = Self.modelOfEachChild(prepared, keys: keys, sortValues: snapshotOrder ? sortValues : nil),
           collection.fillDistinct(models) {
            // Every child made a model of its key, and no key came twice:
            // each child is its key's latest.
            collection.notifyLoad(started: false)
            return
        }
        let keep = collection.isEmpty ? [] : Set(keys)
        // Children whose event is still the latest for their key.
        let current: [Int]
        if numbered {
            current = keys.indices.filter { latest[keys[$0]] == generations[$0] }
        } else if !keep.isEmpty && keep.count == keys.count {
            current = Array(keys.indices)
        } else {
            current = Self.lastOfEachKey(keys)
        }
        for i in current where !pending.isEmpty { pending[keys[i]] = nil }
        if collection.isEmpty {
            // A first load: every child is an insertion.
            var models: [(model: Model, sortValue: SortValue?)] = []
            models.reserveCapacity(current.count)
            for i in current {
                guard case .model(let m)? = prepared[i] else { continue }
                if m.identifier == keys[i] {
                    models.append((m, snapshotOrder ? sortValues[i] : nil))
                } else {
                    collection.notifyFailure(keys[i], FeedError.identifierMismatch(expected: keys[i], got: m.identifier))
                }
            }
            collection.fill(models)
        } else {
            collection.performBatch(notifyingLoad: false) {
                var gone: [Key] = []
                for position in 0..<collection.count {
                    let key = collection.key(at: position)
                    // Absent from the load, and no event since the load began.
                    if !keep.contains(key) && (latest[key] ?? 0) <= loadStart { gone.append(key) }
                }
                for key in gone { collection.remove(key) }
                for i in current {
                    if let result = prepared[i] { apply(result, key: keys[i], sortValue: sortValues[i]) }
                }
            }
        }
        collection.notifyLoad(started: false)
        signalIfIdle()
    }

    /// Fills the empty collection with `prepared` (see ``PreparedFill``), as
    /// ``load(_:)`` fills it: observers hear did-start-load, the failures,
    /// one update inserting every model, and did-end-load.
    /// - Returns: false, changing nothing, when the collection is not empty
    ///   or a preparation is pending (call ``load(_:)`` then), or when the
    ///   collection is not in the fill's order.
    /// - Complexity: O(1), plus the observers' work.
    public func load(_ prepared: sending PreparedFill<Model>) -> Bool {
        guard pending.isEmpty, collection.isEmpty, usesSnapshotOrder else { return false }
        collection.notifyLoad(started: true)
        let filled = collection.fill(prepared)
        collection.notifyLoad(started: false)
        return filled
    }

    /// Returns once no preparation is pending.
    package func settle() async {
        while !pending.isEmpty {
            await withCheckedContinuation { idleWaiters.append($0) }
        }
    }

    // MARK: Internals

    /// The model of every child with its sort value (none without
    /// `sortValues`), when every child made a model of its own key (nothing
    /// skipped, failed or mismatched).
    /// - Complexity: O(n).
    @inlinable
    static func modelOfEachChild(_ prepared: [Preparation<Model>?], keys: [Key], sortValues: [SortValue]?)
        -> [(model: Model, sortValue: SortValue?)]? {
        var models: [(model: Model, sortValue: SortValue?)] = []
        models.reserveCapacity(keys.count)
        for i in keys.indices {
            guard case .model(let m)? = prepared[i], m.identifier == keys[i] else { return nil }
            models.append((m, sortValues?[i]))
        }
        return models
    }

    /// The position of the last occurrence of each key of `keys`, in order.
    /// - Complexity: O(n).
    @usableFromInline
    static func lastOfEachKey(_ keys: [Key]) -> [Int] {
        var last: [Key: Int] = [:]
        last.reserveCapacity(keys.count)
        for (i, key) in keys.enumerated() { last[key] = i }
        return keys.indices.filter { last[keys[$0]] == $0 }
    }

    /// Starts a new generation for `key`, cancelling what was pending for it.
    @discardableResult @usableFromInline
    func supersede(_ key: Key) -> UInt64 {
        counter += 1
        latest[key] = counter
        if !pending.isEmpty, let task = pending.removeValue(forKey: key) {
            task.cancel()
            signalIfIdle()
        }
        return counter
    }

    private func finish(key: Key, generation gen: UInt64, result: Result<Preparation<Model>, any Error>,
                        sortValue: SortValue) {
        guard latest[key] == gen else { return } // superseded: dropped
        pending[key] = nil
        switch result {
        case .success(let prepared): apply(prepared, key: key, sortValue: sortValue)
        case .failure(let error): collection.notifyFailure(key, error)
        }
        signalIfIdle()
    }

    @inlinable
    func apply(_ prepared: Preparation<Model>, key: Key, sortValue: SortValue) {
        switch prepared {
        case .model(let model):
            guard model.identifier == key else {
                collection.notifyFailure(key, FeedError.identifierMismatch(expected: key, got: model.identifier))
                return
            }
            do { try collection.add(model, sortValue: usesSnapshotOrder ? sortValue : nil) } catch {
                collection.notifyFailure(key, error)
            }
        case .skip:
            collection.remove(key)
        }
    }

    /// Whether the collection orders by Firebase order (so the snapshot's sort value applies).
    @inlinable var usesSnapshotOrder: Bool { collection.ordersByQuery }

    @usableFromInline
    func signalIfIdle() {
        guard pending.isEmpty, !idleWaiters.isEmpty else { return }
        let waiters = idleWaiters
        idleWaiters.removeAll()
        for w in waiters { w.resume() }
    }
}

/// Errors a ``CollectionFeed`` reports through `didFailToPrepare`.
public enum FeedError: Error, Equatable, Sendable {
    /// The data source made a model whose identifier is not the child's key.
    case identifierMismatch(expected: Key, got: Key)
}
