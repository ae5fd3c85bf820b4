// SortedCollection.swift — a collection of models that is always sorted and
// tells its observers exactly what changed.
import LiveModel

/// A collection of models kept sorted — by Firebase's order (through the C
/// index) or by a sort key given in Swift — that reports every change.
///
/// The API is Backbone-like: ``add(_:sortValue:)``, ``update(_:with:sortValue:)``,
/// ``remove(_:)``, ``reset(_:)``, access by position and by key. Every change
/// costs O(log n) at any size.
///
/// ## Contracts
/// - Single changes reach observers in the **sequential contract**
///   (``SequentialChange``): each position is relative to the state after the
///   previous change.
/// - ``performBatch(_:)`` groups changes: observers get one
///   ``CollectionUpdate`` in the **batch contract** (``CollectionBatch``: old
///   positions for deletions, updates and move sources, new ones for
///   insertions and move destinations, minimal moves), between did-start-load
///   and did-end-load.
/// - ``observeUpdates(_:)`` and ``updates()`` give every change, single or
///   grouped, in the batch contract.
///
/// ## Isolation
/// The collection lives on the main actor, like the views it feeds; it is not
/// `Sendable`. Models need not be `Sendable` either, except for
/// ``updates()``, whose elements may cross to other tasks.
@MainActor
public final class SortedCollection<Model: LiveModelProtocol> {
    /// Replaced when an empty collection takes a ``PreparedFill``, and by a
    /// new order (``setOrder(_:sortValues:)``).
    @usableFromInline var backend: any OrderingBackend<Model> { didSet { core = backend as? CoreBackend<Model> } }
    /// The backend when it is the C index (Firebase order), for the lookups
    /// layers above make on every change.
    @usableFromInline var core: CoreBackend<Model>?
    /// The observers, in the order they were added; they are told in that order.
    var observers = ObserverList<Observer>() {
        didSet { handlers = Handlers(Array(observers)) }
    }
    /// The observers in registration order, and their handlers by kind,
    /// rebuilt when observers change.
    @usableFromInline var handlers = Handlers([])
    /// The batch being recorded by ``performBatch(_:)``, if any.
    @usableFromInline var recording: BatchRecording<Model>?
    /// The fill being taken, while its update is told (``fill(_:)``).
    @usableFromInline var takingFill: PreparedFill<Model>?
    /// Set by tests: check every invariant after every mutation (debug builds).
    package var validatesEveryMutation = false

    /// A collection in Firebase order under `order` (by default priority,
    /// then key, as Firebase orders when no order is given).
    public init(order: QueryOrder = .priority) {
        let core = CoreBackend<Model>(order: order)
        backend = core
        self.core = core
    }

    /// A collection ordered by `sortKey` (which may read nested fields), ties
    /// broken by key in Firebase key order.
    ///
    /// The sort key is read when a model is added or updated through the
    /// collection and kept as a value: a model must not change its sort key
    /// behind the collection's back.
    public init<K: Comparable>(sortedBy sortKey: @escaping (Model) -> K) {
        backend = TreeBackend<Model, K>(sortKey: sortKey)
    }

    /// Whether models are in Firebase order (through the C index), where a
    /// snapshot's sort value orders its model.
    @inlinable var ordersByQuery: Bool { core != nil }

    // MARK: Reading

    /// Number of models.
    /// - Complexity: O(1).
    public var count: Int { backend.count }

    /// Whether there are no models.
    /// - Complexity: O(1).
    public var isEmpty: Bool { backend.count == 0 }

    /// The model at `position` (0 ..< count).
    /// - Complexity: O(log n).
    public subscript(position: Int) -> Model {
        precondition(position >= 0 && position < count, "position \(position) out of 0..<\(count)")
        return backend.model(at: position)
    }

    /// The model with this key.
    /// - Complexity: O(1) expected.
    public func model(for key: Key) -> Model? { backend.model(for: key) }

    /// The position of the model with this key.
    /// - Complexity: O(log n).
    public func position(of key: Key) -> Int? { backend.position(of: key) }

    /// The key at `position`.
    /// - Complexity: O(log n).
    public func key(at position: Int) -> Key {
        precondition(position >= 0 && position < count, "position \(position) out of 0..<\(count)")
        return backend.key(at: position)
    }

    /// The first model in order, or nil when empty.
    /// - Complexity: O(log n).
    public var first: Model? { isEmpty ? nil : backend.model(at: 0) }
    /// The last model in order, or nil when empty.
    /// - Complexity: O(log n).
    public var last: Model? { isEmpty ? nil : backend.model(at: count - 1) }

    /// The models in order, as an array.
    /// - Complexity: O(n).
    public var models: [Model] {
        var all: [Model] = []
        all.reserveCapacity(count)
        backend.forEach(from: 0) { all.append($0); return true }
        return all
    }

    /// The models at `positions`, in order: a page of the collection.
    /// - Complexity: O(k + log n) for k positions.
    public func models(in positions: Range<Int>) -> [Model] {
        precondition(positions.lowerBound >= 0 && positions.upperBound <= count,
                     "positions \(positions) out of 0..<\(count)")
        var page: [Model] = []
        page.reserveCapacity(positions.count)
        guard !positions.isEmpty else { return page }
        backend.forEach(from: positions.lowerBound) { model in
            page.append(model)
            return page.count < positions.count
        }
        return page
    }

    // MARK: Changing

    /// Adds `model`, or replaces the model with the same identifier (which may
    /// move it).
    /// - Parameters:
    ///   - model: The model to add or replace.
    ///   - sortValue: In Firebase order, the model's sort value when the
    ///     caller knows it (from the snapshot); nil computes it from the
    ///     model's `dictionary`, which holds no priority (under priority
    ///     order, that is null). A collection ordered by a sort key ignores
    ///     it.
    /// - Throws: What computing the sort value throws (the model's `dictionary`).
    /// - Complexity: O(log n).
    @inlinable
    public func add(_ model: Model, sortValue: SortValue? = nil) throws {
        // In Firebase order, through the C index's own type (no witness table).
        if let core { return try add(model, sortValue: sortValue, in: core) }
        try addBySortKey(model, sortValue: sortValue)
    }

    /// ``add(_:sortValue:)`` in an order by a Swift sort key, through the
    /// backend's protocol: not compiled into callers, who would gain
    /// nothing from it.
    @usableFromInline
    func addBySortKey(_ model: Model, sortValue: SortValue?) throws {
        try add(model, sortValue: sortValue, in: backend)
    }

    @inlinable
    func add<B: OrderingBackend<Model>>(_ model: Model, sortValue: SortValue?, in b: B) throws {
        let key = model.identifier
        let sortKey = try b.sortKey(of: model, hint: sortValue)
        let first = record(key)
        recording?.changed(key)
        if first { notifyWillChange(key) }
        switch b.upsert(key, model: model, sortKey: sortKey) {
        case (nil, let at): notify(.inserted(model, at: at))
        case (let old?, let new) where old == new: notify(.updated(model, at: new))
        case (let old?, let new): notify(.moved(model, from: old, to: new))
        }
        validate()
    }

    /// Updates the model `key` from a new value (its `update(with:)`), which
    /// may move it. Nothing happens if there is no such model.
    /// - Parameters:
    ///   - key: The model's key.
    ///   - dictionary: The child's new value.
    ///   - sortValue: The new sort value, as for ``add(_:sortValue:)``.
    /// - Throws: What the model's `update(with:)` throws; the model is then unchanged.
    /// - Complexity: O(log n), plus the model's update.
    @inlinable
    public func update(_ key: Key, with dictionary: JSONValue, sortValue: SortValue? = nil) throws {
        let current = if let core { core.model(for: key) } else { backend.model(for: key) }
        guard var model = current else { return }
        try model.update(with: dictionary)
        try add(model, sortValue: sortValue)
    }

    /// Removes the model `key`; nothing happens if there is none.
    /// - Complexity: O(log n).
    @inlinable @discardableResult
    public func remove(_ key: Key) -> Model? {
        if let core { return remove(key, in: core) }
        return removeBySortKey(key)
    }

    /// ``remove(_:)`` in an order by a Swift sort key (see
    /// ``addBySortKey(_:sortValue:)``).
    @usableFromInline
    func removeBySortKey(_ key: Key) -> Model? { remove(key, in: backend) }

    @inlinable
    func remove<B: OrderingBackend<Model>>(_ key: Key, in b: B) -> Model? {
        // An absent key: nothing to record (a batch's observers are told
        // only of keys noted before their change), nothing to tell.
        guard b.sortKey(for: key) != nil else { return nil }
        if record(key) { notifyWillChange(key) }
        var model: Model?
        guard let at = b.remove(key, model: &model), let model else { return nil }
        notify(.removed(model, at: at))
        validate()
        return model
    }

    /// Replaces the whole content by `models`, as one batch: models whose
    /// identifier stays are updated in place (and move if they must).
    /// - Throws: What computing a sort value throws; the collection then holds
    ///   the changes made so far, reported as one batch.
    /// - Complexity: O((n + m) log n) for n models held and m given.
    public func reset(_ models: [Model]) throws {
        try performBatch {
            var keep = Set<Key>()
            keep.reserveCapacity(models.count)
            for m in models { keep.insert(m.identifier) }
            var gone: [Key] = []
            for position in 0..<count where !keep.contains(backend.key(at: position)) {
                gone.append(backend.key(at: position))
            }
            for key in gone { remove(key) }
            for m in models { try add(m) }
        }
    }

    /// Removes every model, as one batch.
    /// - Complexity: O(n log n).
    public func removeAll() {
        performBatch {
            while let key = isEmpty ? nil : backend.key(at: count - 1) { remove(key) }
        }
    }
}

extension SortedCollection: @MainActor Sequence {
    /// Iterates over the models in order, as they are when iteration starts
    /// (later changes do not affect it).
    /// - Complexity: O(n) to start.
    public func makeIterator() -> IndexingIterator<[Model]> { models.makeIterator() }

    /// The number of models.
    /// - Complexity: O(1).
    public var underestimatedCount: Int { count }
}
