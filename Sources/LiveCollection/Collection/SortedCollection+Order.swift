// SortedCollection+Order.swift — a new order while live: every model placed
// again, told as one batch of minimal moves.
import LiveModel

extension SortedCollection {
    /// The order of a collection in Firebase order; nil for one ordered by
    /// a sort key given in Swift.
    public var order: QueryOrder? { core?.order }

    /// The sort value the model `key` is ordered by, in Firebase order (under
    /// ``order``); nil for an absent key or a collection ordered by a Swift
    /// sort key.
    /// - Complexity: O(1) expected.
    public func sortValue(for key: Key) -> SortValue? { core?.sortKey(for: key) }

    /// Orders the models by `order` from now on, and tells the change as
    /// **one batch**: models that keep their relative order stay, the others
    /// move (the fewest moves, as any batch's), and nothing is inserted,
    /// deleted or updated. Observers (and `SectionedCollection`s on the
    /// collection) get it as any batch, between did-start-load and
    /// did-end-load; inside ``performBatch(_:)``, it joins that batch.
    ///
    /// Each model's sort value under `order` is taken from `sortValues`,
    /// else computed from the model's `dictionary`, which holds no priority
    /// (under `QueryOrder.priority` that is null): give the snapshots'
    /// sort values when the models come from snapshots. Every sort value is
    /// found before anything changes, so a failure changes nothing.
    /// - Parameters:
    ///   - order: The new order.
    ///   - sortValues: Sort values under `order`, by key.
    /// - Throws: ``OrderChangeError/sortedBySortKey`` for a collection
    ///   ordered by a Swift sort key; ``OrderChangeError/sortValue(_:_:)``
    ///   when a model's sort value cannot be computed.
    /// - Complexity: O(n log n) for n models.
    public func setOrder(_ order: QueryOrder, sortValues: [Key: SortValue] = [:]) throws(OrderChangeError) {
        guard let current = core else { throw .sortedBySortKey }
        let next = CoreBackend<Model>(order: order)
        var keys: [Key] = [], values: [SortValue] = [], models: [Model?] = []
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
        models.reserveCapacity(count)
        var failure: OrderChangeError?
        current.forEachEntry { model, key, _ in
            guard failure == nil else { return }
            if let value = sortValues[key] {
                values.append(value)
            } else {
                do { values.append(try next.sortKey(of: model, hint: nil)) } catch {
                    failure = .sortValue(key, "\(error)")
                    return
                }
            }
            keys.append(key)
            models.append(model)
        }
        if let failure { throw failure }
        guard !keys.isEmpty else {
            // Nothing to place, nothing to tell.
            backend = next
            return
        }
        performBatch {
            // Every model is noted where it stands, so the batch places each
            // from its old position to its new one.
            for key in keys where record(key) { notifyWillChange(key) }
            let built = next.build(keys: keys, values: values, models: models)
            precondition(built, "SortedCollection: a key held twice")
            backend = next
        }
    }
}

/// Why ``SortedCollection/setOrder(_:sortValues:)`` changed nothing.
public enum OrderChangeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The collection is ordered by a sort key given in Swift, not in
    /// Firebase order: make a new collection to order it otherwise.
    case sortedBySortKey
    /// The sort value of the model with this key could not be computed
    /// (its `dictionary` threw this error).
    case sortValue(Key, String)

    /// What went wrong, and what to do.
    public var description: String {
        switch self {
        case .sortedBySortKey:
            return "a collection ordered by a Swift sort key keeps it; make a new collection for a Firebase order"
        case .sortValue(let key, let error):
            return "the sort value of \(key.string.debugDescription) could not be computed: \(error)"
        }
    }
}
