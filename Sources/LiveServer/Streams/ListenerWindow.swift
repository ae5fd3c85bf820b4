// ListenerWindow.swift — what a query stream holds: the children in its
// window and, for a limited query, the order of every child in range.

import LiveModel

/// The children a query listener was last told about (its window), and,
/// under a limit, an ordered index of the location's children within the
/// query's bounds, so that a write costs the children it touches rather
/// than the size of the location.
///
/// The index holds each child's key and sort value in Firebase order (the
/// C core's ``CoreIndex``, whose order is `SortValue.compare`, then `Key`
/// order, as ``DatabaseQuery/window(of:)`` sorts), not the children's values. The
/// window is then the first or last n entries of the index.
///
/// Not thread-safe: a listener's window is guarded by the server's lock
/// once installed.
final class ListenerWindow {
    let query: DatabaseQuery
    /// The query's bounds, ready to test children against.
    private let range: QueryRange
    /// The children in the window, by key.
    private(set) var members: [Key: DataNode] = [:]
    /// Every child within the bounds, in query order; nil without a limit.
    private var index: CoreIndex?

    /// The window of `query` over `node`, the value at the location.
    /// - Complexity: O(1) without bounds or a limit; without a limit,
    ///   O(n · d) to check the bounds of n children (no sort); with one,
    ///   O(n log n) for the n children within the bounds.
    init(_ query: DatabaseQuery, of node: DataNode) {
        self.query = query
        range = QueryRange(query)
        members = window(of: node)
    }

    /// The window as the first `put` tells it, as ``DatabaseQuery/json(of:export:)``.
    /// - Complexity: the size of the children in the window.
    func json(export: Bool) -> JSONValue {
        if members.isEmpty { return .null }
        var object = JSONObject()
        object.reserveCapacity(members.count)
        for (key, child) in members { object[key.string] = child.json(export: export) }
        return .object(object)
    }

    /// Appends the text of ``json(export:)``, written straight from the
    /// nodes.
    func write(to out: inout [UInt8], export: Bool) {
        DataNode.writeMembers(members, to: &out, export: export)
    }

    /// The stream's first `put`: the window, written as the connection
    /// takes it.
    func firstPut(export: Bool) -> JSONTextChunks {
        let (prefix, suffix) = FramedEvent.putFrame(.root)
        return JSONTextChunks(members: DataNode.Children(members), export: export, prefix: prefix, suffix: suffix)
    }

    /// The window in query order, as ``DatabaseQuery/window(of:)`` finds
    /// it, when the window keeps an ordered index (under a limit); nil
    /// otherwise.
    /// - Complexity: O(log n + k) for a window of k children among n
    ///   within the bounds.
    func ordered() -> [(key: Key, node: DataNode)]? {
        guard let index else { return nil }
        let window = range(count: index.count)
        var result: [(key: Key, node: DataNode)] = []
        result.reserveCapacity(window.count)
        guard !window.isEmpty else { return result }
        index.forEachID(from: window.lowerBound) { id in
            let key = index.key(of: id)
            if let node = members[key] { result.append((key, node)) }
            return result.count < window.count
        }
        return result
    }

    /// What changed for the listener, as `(key, new value)` with nil for a
    /// child that left the window.
    typealias Change = (key: Key, node: DataNode?)

    /// Replaces everything by the window over `node` (after a write at or
    /// above the location) and returns what changed.
    /// - Complexity: as ``init(_:of:)``, plus the size of both windows.
    func reset(to node: DataNode) -> [Change] {
        let next = window(of: node)
        var changes: [Change] = []
        for (key, _) in members where next[key] == nil { changes.append((key, nil)) }
        for (key, child) in next where members[key] != child { changes.append((key, child)) }
        members = next
        return changes
    }

    /// The window over `node`, the value at the location; keeps the ordered
    /// index under a limit.
    /// - Complexity: O(1) without bounds or a limit: the window shares the
    ///   location's children (a first write there copies them once); see
    ///   ``init(_:of:)`` otherwise.
    private func window(of node: DataNode) -> [Key: DataNode] {
        if query.limit == nil, query.start == nil, query.end == nil { return node.children.dictionary }
        var next: [Key: DataNode] = [:]
        if query.limit == nil {
            for child in query.members(of: node) { next[child.key] = child.node }
        } else {
            let bounds = range
            let index = CoreIndex.ordering(childrenOf: node, by: query) { bounds.contains($0, $1) }
            self.index = index
            let window = range(count: index.count)
            if !window.isEmpty {
                index.forEachID(from: window.lowerBound) { id in
                    let key = index.key(of: id)
                    next[key] = node.child(key)
                    return next.count < window.count
                }
            }
        }
        return next
    }

    /// Takes in writes at or below the children `touched` of the location,
    /// whose value is now `parent`, and returns what changed.
    ///
    /// Without a limit, a child's membership depends on that child alone.
    /// With one, each touched child moves in the index, and only the
    /// children near the end its limit cuts can enter or leave otherwise. A
    /// child is in a `limitToFirst(n)` window when fewer than n children
    /// precede it (in a `limitToLast(n)` one, when fewer than n follow it),
    /// and each touched child's insertion, removal or move changes that
    /// count by at most one for an untouched child: so with
    /// `t = touched.count`, an untouched child that enters lies within t
    /// positions inside the new window's cut end, and one that leaves
    /// within t positions beyond it. When no touched child was or is in the
    /// window, the window is the same first or last n untouched children.
    /// - Complexity: O(t log n) for n children within the bounds, plus the
    ///   depth of the sort value's child path for each touched child.
    func update(_ touched: [Key], in parent: DataNode) -> [Change] {
        guard let index else { return updateUnlimited(touched, in: parent) }
        var positions: [Int?] = []
        positions.reserveCapacity(touched.count)
        for key in touched {
            let child = parent.child(key)
            if query.bounds(admit: key, child, in: range) {
                positions.append(index.upsert(key, query.sortValue(of: child)).new)
            } else {
                _ = index.remove(key)
                positions.append(nil)
            }
        }
        let window = range(count: index.count)
        var changes: [Change] = []
        var moved = false
        for (i, key) in touched.enumerated() {
            // A later touched child may have moved an earlier one.
            let position = touched.count == 1 ? positions[i] : index.find(key)?.position
            let child = position.map(window.contains) == true ? parent.child(key) : nil
            let old = members[key]
            if old != nil || child != nil { moved = true }
            guard child != old else { continue }
            members[key] = child
            changes.append((key, child))
        }
        guard moved else { return changes }
        // Touched children are settled: a member found beyond the cut end
        // leaves, and a child found inside it that is no member enters.
        for position in beyondCutEnd(count: index.count, reach: touched.count) {
            let key = index.key(at: position)
            guard members[key] != nil else { continue }
            members[key] = nil
            changes.append((key, nil))
        }
        for position in cutEnd(of: window, reach: touched.count) {
            let key = index.key(at: position)
            guard members[key] == nil else { continue }
            let child = parent.child(key)
            members[key] = child
            changes.append((key, child))
        }
        return changes
    }

    private func updateUnlimited(_ touched: [Key], in parent: DataNode) -> [Change] {
        var changes: [Change] = []
        for key in touched {
            let child = parent.child(key)
            let next = query.bounds(admit: key, child, in: range) ? child : nil
            guard next != members[key] else { continue }
            members[key] = next
            changes.append((key, next))
        }
        return changes
    }

    /// The positions of the window among `count` children within bounds.
    private func range(count: Int) -> Range<Int> {
        switch query.limit {
        case .first(let n)?: return 0..<min(max(n, 0), count)
        case .last(let n)?: return max(0, count - max(n, 0))..<count
        case nil: return 0..<count
        }
    }

    /// The `reach` positions just beyond the end the limit cuts, among
    /// `count` children within bounds.
    private func beyondCutEnd(count: Int, reach: Int) -> Range<Int> {
        switch query.limit {
        case .first(let n)?:
            let start = min(count, max(n, 0))
            return start..<min(count, start + reach)
        case .last(let n)?:
            let end = max(0, count - max(n, 0))
            return max(0, end - reach)..<end
        case nil:
            return 0..<0
        }
    }

    /// The positions of `window` within `reach` of the end its limit cuts:
    /// its last ones under `limitToFirst`, its first under `limitToLast`.
    private func cutEnd(of window: Range<Int>, reach: Int) -> Range<Int> {
        if case .last? = query.limit {
            return window.lowerBound..<min(window.upperBound, window.lowerBound + reach)
        }
        return max(window.lowerBound, window.upperBound - reach)..<window.upperBound
    }
}
