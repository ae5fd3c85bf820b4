// OrderPost.swift — a model's place in a collection's order, as a value.
import LiveModel

/// Where a model stands in its collection's order: its sort key and its key,
/// comparable with the posts of the same collection. Layers above use it to
/// keep subsets (sections) in the collection's order.
@usableFromInline
package struct OrderPost: Comparable {
    @usableFromInline
    enum Value {
        case firebase(SortValue)
        /// Boxed, so that a post stays small (sections keep millions of
        /// them in their trees) whatever the collection's sort key is.
        case custom(CustomSortKey)
    }

    /// The sort key of a collection ordered by the models' own `Comparable`
    /// sort key.
    @usableFromInline
    final class CustomSortKey {
        let value: any Comparable
        init(_ value: any Comparable) { self.value = value }
    }

    @usableFromInline let value: Value
    @usableFromInline package let key: Key

    /// The sort value, in Firebase order; nil for a sort key given in Swift.
    package var sortValue: SortValue? {
        guard case .firebase(let sortValue) = value else { return nil }
        return sortValue
    }

    @inlinable
    init(value: Value, key: Key) {
        self.value = value
        self.key = key
    }

    @usableFromInline
    package static func < (a: OrderPost, b: OrderPost) -> Bool {
        switch (a.value, b.value) {
        case (.firebase(.number(let x)), .firebase(.number(let y))) where x != y:
            return x < y
        case (.firebase(let x), .firebase(let y)):
            let c = SortValue.compare(x, y)
            return c != 0 ? c < 0 : a.key < b.key
        case (.custom(let boxX), .custom(let boxY)):
            let x = boxX.value, y = boxY.value
            if let less = lessThan(x, y) { return less ? true : (lessThan(y, x) == true ? false : a.key < b.key) }
            return a.key < b.key
        default:
            return a.key < b.key // posts of one collection never mix kinds
        }
    }

    @usableFromInline
    package static func == (a: OrderPost, b: OrderPost) -> Bool { !(a < b) && !(b < a) }

    private static func lessThan<T: Comparable>(_ a: T, _ b: any Comparable) -> Bool? {
        guard let b = b as? T else { return nil }
        return a < b
    }
}

extension SortedCollection {
    /// The order post of the model `key` now, or nil. - Complexity: O(1)
    /// expected in Firebase order, O(log n) otherwise.
    @inlinable
    package func orderPost(for key: Key) -> OrderPost? {
        if let core { return core.sortKey(for: key).map { OrderPost(value: .firebase($0), key: key) } }
        return post(key, in: backend)
    }

    /// Calls `body` with each model and its order post, in order.
    /// - Complexity: O(n) in Firebase order (no lookup by key), O(n log n) otherwise.
    @inlinable
    package func forEachPosted(_ body: (Model, OrderPost) -> Void) {
        if let core {
            core.forEachPosted(body)
            return
        }
        backend.forEach(from: 0) { model in
            body(model, orderPost(for: model.identifier)!)
            return true
        }
    }

    /// The model `key` and its order post now, or nil, found with one
    /// lookup by key in Firebase order. - Complexity: O(1) expected in
    /// Firebase order, O(log n) otherwise.
    @inlinable
    package func entry(for key: Key) -> (model: Model, post: OrderPost)? {
        if let core {
            guard let (model, value) = core.entry(for: key) else { return nil }
            return (model, OrderPost(value: .firebase(value), key: key))
        }
        guard let model = backend.model(for: key), let post = post(key, in: backend) else { return nil }
        return (model, post)
    }

    @usableFromInline
    func post<B: OrderingBackend<Model>>(_ key: Key, in b: B) -> OrderPost? {
        guard let sortKey = b.sortKey(for: key) else { return nil }
        if let value = sortKey as? SortValue, b is CoreBackend<Model> { return OrderPost(value: .firebase(value), key: key) }
        return OrderPost(value: .custom(OrderPost.CustomSortKey(sortKey as! any Comparable)), key: key)
    }
}
