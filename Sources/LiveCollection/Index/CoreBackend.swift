// CoreBackend.swift — Firebase order through the C index.
import LiveModel

/// Models in Firebase order under a ``QueryOrder``: the C index holds
/// `(sort value, key)` entries; models live in an array by entry id.
///
/// Not thread-safe: confined to its collection, or to the task that
/// prepares a fill (``PreparedFill``) until the collection takes it.
@usableFromInline
final class CoreBackend<Model: LiveModelProtocol>: OrderingBackend {
    @usableFromInline
    typealias SortKey = SortValue

    @usableFromInline let order: QueryOrder
    @usableFromInline let index = CoreIndex()
    @usableFromInline var models: [Model?] = []

    @usableFromInline
    init(order: QueryOrder) { self.order = order }

    @usableFromInline
    var count: Int { index.count }

    @inlinable
    func sortKey(of model: Model, hint: SortValue?) throws -> SortValue {
        if let hint { return hint }
        if case .key = order { return .null }
        return order.sortValue(of: try model.dictionary, priority: nil)
    }

    @usableFromInline
    func model(for key: Key) -> Model? { index.id(of: key).flatMap { models[Int($0)] } }

    @inlinable
    func sortKey(for key: Key) -> SortValue? { index.id(of: key).map { index.sortValue(of: $0) } }

    /// The model of `key` and its sort value, found once. - Complexity: O(1) expected.
    @inlinable
    func entry(for key: Key) -> (model: Model, sortValue: SortValue)? {
        guard let id = index.id(of: key), let model = models[Int(id)] else { return nil }
        return (model, index.sortValue(of: id))
    }

    @usableFromInline
    func position(of key: Key) -> Int? { index.find(key)?.position }

    @usableFromInline
    func model(at position: Int) -> Model { models[Int(index.id(at: position))]! }

    @usableFromInline
    func key(at position: Int) -> Key { index.key(at: position) }

    @inlinable
    func upsert(_ key: Key, model: Model, sortKey: SortValue) -> (old: Int?, new: Int) {
        let (old, new, id) = index.upsert(key, sortKey)
        if old == nil { store(model, id: Int(id)) } else { models[Int(id)] = model }
        return (old, new)
    }

    @inlinable
    func remove(_ key: Key, model: inout Model?) -> Int? {
        guard let (position, id) = index.remove(key) else { return nil }
        model = models[Int(id)].take()
        return position
    }

    @usableFromInline
    func lowerBound(_ sortKey: SortValue, _ key: Key) -> Int { index.lowerBound(sortKey, key) }

    @usableFromInline
    func record(_ sortKey: SortValue) -> RecordedSortKey { .firebase(sortKey) }

    @usableFromInline
    func sortKey(recorded: RecordedSortKey) -> SortValue {
        guard case .firebase(let value) = recorded else { preconditionFailure("a sort key of another kind of order") }
        return value
    }

    @usableFromInline
    func less(_ a: SortValue, _ ak: Key, _ b: SortValue, _ bk: Key) -> Bool { CoreIndex.less(a, ak, b, bk) }

    @usableFromInline
    func forEach(from position: Int, _ body: (Model) -> Bool) {
        index.forEachID(from: position) { body(models[Int($0)]!) }
    }

    /// Calls `body` with each model, its key and its sort value, in order.
    /// - Complexity: O(n), with no lookup by key.
    @inlinable
    func forEachEntry(_ body: (Model, Key, SortValue) -> Void) {
        models.withUnsafeBufferPointer { models in
            index.forEachEntry { id, key, value in
                precondition(Int(id) < models.count, "CoreBackend: an entry without a model slot")
                body(models[Int(id)]!, key, value)
                return true
            }
        }
    }

    /// Calls `body` with each model and its order post, in order.
    /// - Complexity: O(n), with no lookup by key.
    @inlinable
    func forEachPosted(_ body: (Model, OrderPost) -> Void) {
        forEachEntry { model, key, value in body(model, OrderPost(value: .firebase(value), key: key)) }
    }

    /// Calls `body` with each model and its sort value in order, from
    /// `position`, until it returns false.
    /// - Complexity: O(log n) to start, then O(1) per model.
    @inlinable
    func forEachModel(from position: Int, _ body: (Model, SortValue) -> Bool) {
        models.withUnsafeBufferPointer { models in
            index.forEachEntry(from: position) { id, _, value in body(models[Int(id)]!, value) }
        }
    }

    /// Orders every child of `value` in bulk, child `i` at entry id `i`,
    /// when `value` is a whole parsed document ordered under ``order`` and
    /// the backend is empty; models are then set with ``setBuilt(_:id:)``
    /// or their entries removed.
    /// - Returns: false, changing nothing, otherwise.
    /// - Complexity: O(n log n) in the C core, with no lookup by key.
    @inlinable
    func build(fromChildrenOf value: Snapshot) -> Bool {
        guard index.count == 0, index.build(fromChildrenOf: value, order: order) else { return false }
        models = Array(repeating: nil, count: index.count)
        return true
    }

    /// Orders the models in bulk, model `i` (of key `keys[i]` and sort
    /// value `values[i]`) at entry id `i`, when the backend is empty.
    /// - Returns: false, changing nothing, when a key is given twice or the
    ///   backend is not empty.
    /// - Complexity: O(n log n) in the C core, with no lookup by key.
    @usableFromInline
    func build(keys: [Key], values: [SortValue], models: [Model?]) -> Bool {
        guard index.count == 0, index.build(keys: keys, values: values) else { return false }
        self.models = models
        return true
    }

    /// Sets the model of an entry made by ``build(fromChildrenOf:)``.
    @inlinable
    func setBuilt(_ model: Model, id: UInt32) {
        models[Int(id)] = model
    }

    /// Calls `body` with the id of each entry and its model, if set, in order.
    /// - Complexity: O(n), with no lookup by key.
    @inlinable
    func forEachBuilt(_ body: (UInt32, Model?) -> Void) {
        models.withUnsafeBufferPointer { models in
            index.forEachID { id in
                precondition(Int(id) < models.count, "CoreBackend: an entry without a model slot")
                body(id, models[Int(id)])
                return true
            }
        }
    }

    /// Makes room for `count` models in all.
    func reserveCapacity(_ count: Int) {
        models.reserveCapacity(count)
    }

    /// Keeps `model` in the slot of `id`, the id the C index just gave a
    /// new entry.
    @inlinable
    func store(_ model: Model, id: Int) {
        if id == models.count {
            // The usual case: the C index hands out ids in sequence.
            models.append(model)
            return
        }
        storeOutOfSequence(model, id: id)
    }

    /// ``store(_:id:)`` at an id other than the next one: a freed id used
    /// again, or one past the end (the slots between are left empty).
    @usableFromInline
    func storeOutOfSequence(_ model: Model, id: Int) {
        if id > models.count {
            let grow = id + 1 - models.count
            models.append(contentsOf: repeatElement(nil, count: grow))
        }
        models[id] = model
    }
}
