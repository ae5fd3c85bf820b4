// QueryRange.swift — whether a child falls inside a query's bounds: the
// one test of the client and the server.

/// A query's bounds, ready to test children against: each bound's sort
/// value (or key, under `orderByKey`) computed once.
package struct QueryRange: Sendable {
    private struct Post: Sendable {
        let value: SortValue
        let key: Key?
        let isInclusive: Bool
    }

    private let byKey: Bool
    private let start: Post?
    private let end: Post?

    package init(_ query: DatabaseQuery) {
        byKey = query.order == .key
        func post(_ bound: DatabaseQuery.Bound?) -> Post? {
            guard let bound else { return nil }
            if query.order == .key, case .string(let s) = bound.value {
                // Under orderByKey the bound is a key (validated by the query).
                return Post(value: .null, key: Key(unchecked: s), isInclusive: bound.isInclusive)
            }
            return Post(value: SortValue(bound.value), key: bound.key, isInclusive: bound.isInclusive)
        }
        start = post(query.start)
        end = post(query.end)
    }

    /// Whether the query has bounds at all.
    package var isUnbounded: Bool { start == nil && end == nil }

    /// Whether the child `(sortValue, key)` is inside both bounds.
    /// - Complexity: O(1) comparisons.
    package func contains(_ sortValue: SortValue, _ key: Key) -> Bool {
        !isBeforeStart(sortValue, key) && !isAfterEnd(sortValue, key)
    }

    /// Whether the child `(sortValue, key)` comes before the start bound.
    /// Monotone in query order: true for a prefix of any ordered children.
    /// - Complexity: O(1) comparisons.
    package func isBeforeStart(_ sortValue: SortValue, _ key: Key) -> Bool {
        guard let start else { return false }
        let c = compare(sortValue, key, start)
        return start.isInclusive ? c < 0 : c <= 0
    }

    /// Whether the child `(sortValue, key)` comes after the end bound.
    /// Monotone in query order: true for a suffix of any ordered children.
    /// - Complexity: O(1) comparisons.
    package func isAfterEnd(_ sortValue: SortValue, _ key: Key) -> Bool {
        guard let end else { return false }
        let c = compare(sortValue, key, end)
        return end.isInclusive ? c > 0 : c >= 0
    }

    /// Whether the query has a start bound, and an end bound.
    package var hasStart: Bool { start != nil }
    package var hasEnd: Bool { end != nil }

    /// The child against a bound: a bound without a key compares equal to
    /// every child with its value, so `startAt(v)` takes them all and
    /// `startAfter(v)` none.
    private func compare(_ value: SortValue, _ key: Key, _ post: Post) -> Int {
        if byKey, let boundKey = post.key { return Key.compare(key, boundKey) }
        let c = SortValue.compare(value, post.value)
        guard c == 0, let boundKey = post.key else { return c }
        return Key.compare(key, boundKey)
    }
}
