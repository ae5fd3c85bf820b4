// OrderIndex.swift — every child of one location in one query order, so
// that any query in that order is answered by positions in it.

import LiveModel

/// The children of one location, ordered as a query in ``order`` orders
/// them (the C core's ``CoreIndex``: `SortValue.compare`, then `Key`
/// order, as ``DatabaseQuery/window(of:)`` sorts). Every query in that
/// order is a range of positions in it: its bounds are found by binary
/// search, its limit cuts the range, so that its answer costs
/// O(log² n + k) rather than a read of every child.
///
/// Holds each child's key and sort value, not its value: the answer's
/// values are read from the location's node when asked.
///
/// Not thread-safe: guarded by the server's lock once kept.
final class OrderIndex {
    let order: QueryOrder
    /// A query in ``order`` without bounds or a limit: what reads a child's
    /// sort value.
    private let sorter: DatabaseQuery
    private let index: CoreIndex

    /// The index of the children of `node` (none for a leaf or an empty node).
    /// - Complexity: that of ``CoreIndex/ordering(childrenOf:by:where:)``.
    init(_ order: QueryOrder, of node: DataNode) {
        self.order = order
        sorter = DatabaseQuery(order: order)
        index = CoreIndex.ordering(childrenOf: node, by: sorter)
    }

    /// How many children the index holds.
    var count: Int { index.count }

    /// Takes in the children `touched` as they are now in `parent`, the
    /// location's value: each is placed again, or removed when empty.
    /// - Complexity: O(t log n) for t children touched, plus the depth of
    ///   the sort value's child path for each.
    func update(_ touched: some Sequence<Key>, in parent: DataNode) {
        for key in touched {
            let child = parent.child(key)
            if child.isEmpty {
                _ = index.remove(key)
            } else {
                _ = index.upsert(key, sorter.sortValue(of: child))
            }
        }
    }

    /// The positions of the children `query` (in ``order``) selects: its
    /// bounds as positions, then its limit.
    /// - Complexity: O(log² n).
    func positions(of query: DatabaseQuery) -> Range<Int> {
        precondition(query.order == order, "OrderIndex: a query in another order")
        let range = QueryRange(query)
        let count = index.count
        let low = range.hasStart ? partition(0, count) { range.isBeforeStart($0, $1) } : 0
        let high = range.hasEnd ? partition(low, count) { !range.isAfterEnd($0, $1) } : count
        switch query.limit {
        case .first(let n)?: return low..<min(high, low + max(n, 0))
        case .last(let n)?: return max(low, high - max(n, 0))..<high
        case nil: return low..<high
        }
    }

    /// The keys at `positions`, in order.
    /// - Complexity: O(log n + k) for k positions.
    func keys(at positions: Range<Int>) -> [Key] {
        var keys: [Key] = []
        guard !positions.isEmpty else { return keys }
        keys.reserveCapacity(positions.count)
        index.forEachID(from: positions.lowerBound) { id in
            keys.append(index.key(of: id))
            return keys.count < positions.count
        }
        return keys
    }

    /// The keys `query` (in ``order``) selects, in query order.
    /// - Complexity: O(log² n + k) for the k keys returned.
    func keys(of query: DatabaseQuery) -> [Key] {
        keys(at: positions(of: query))
    }

    /// The answer of `query` over `parent`, the location's value the index
    /// is up to date with: its children in query order.
    /// - Complexity: that of ``keys(of:)``.
    func window(of query: DatabaseQuery, in parent: DataNode) -> [(key: Key, node: DataNode)] {
        window(at: positions(of: query), in: parent)
    }

    /// The children of `parent` at `positions`, in order.
    /// - Complexity: O(log n + k) for k positions.
    func window(at positions: Range<Int>, in parent: DataNode) -> [(key: Key, node: DataNode)] {
        keys(at: positions).map { ($0, parent.child($0)) }
    }

    /// The first position in `low..<high` whose entry does not satisfy
    /// `isBefore`, which holds for a prefix of the entries.
    /// - Complexity: O(log² n): O(log n) probes of O(log n) each.
    private func partition(_ low: Int, _ high: Int, _ isBefore: (SortValue, Key) -> Bool) -> Int {
        var low = low, high = high
        while low < high {
            let middle = low + (high - low) / 2
            let id = index.id(at: middle)
            if isBefore(index.sortValue(of: id), index.key(of: id)) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }
}

extension CoreIndex {
    /// An index of the children of `node` in `query`'s order, those `admit`
    /// accepts by sort value and key: their keys and sort values are read,
    /// then sorted in C in one go.
    /// - Complexity: O(n · d) to read the sort values of n children at a
    ///   child path of depth d, then O(n log n) comparisons in C.
    static func ordering(childrenOf node: DataNode, by query: DatabaseQuery,
                         where admit: (SortValue, Key) -> Bool = { _, _ in true }) -> CoreIndex {
        let children = node.children
        var keys: [Key] = []
        var values: [SortValue] = []
        keys.reserveCapacity(children.count)
        values.reserveCapacity(children.count)
        for (key, child) in children where !child.isEmpty {
            let value = query.sortValue(of: child)
            guard admit(value, key) else { continue }
            keys.append(key)
            values.append(value)
        }
        let index = CoreIndex()
        // The keys of a dictionary are distinct: the build cannot refuse them.
        _ = index.build(keys: keys, values: values)
        return index
    }
}
