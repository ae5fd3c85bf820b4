// DatabaseQuery+Window.swift — a query's answer over the server's nodes:
// the children it selects, in order when a limit needs it, and their JSON.
import HeapModule
import LiveModel

/// A child in a query's window: ordered by its sort value, then its key.
struct WindowEntry: Comparable {
    let key: Key
    let node: DataNode
    let value: SortValue

    static func < (a: WindowEntry, b: WindowEntry) -> Bool {
        let byValue = SortValue.compare(a.value, b.value)
        return byValue != 0 ? byValue < 0 : a.key < b.key
    }

    /// Keys are unique among children: equal entries are the same child.
    static func == (a: WindowEntry, b: WindowEntry) -> Bool { a.key == b.key }
}

extension DatabaseQuery {
    /// The query a request's parameters ask for (see
    /// ``DatabaseQuery/init(parameters:)``); nil when they ask for none.
    /// - Throws: ``StoreError`` (400) with the reason, as the database
    ///   answers it.
    package static func requested(by parameters: [String: String]) throws(StoreError) -> DatabaseQuery? {
        do { return try DatabaseQuery(parameters: parameters) } catch { throw .badRequest(error.reason) }
    }

    /// The children of `node` the query selects, in query order. A leaf or
    /// an empty node has none.
    ///
    /// With a limit of k, only the k children at its end are kept while the
    /// children are read (a heap), and only they are sorted.
    /// - Complexity: O(n · d) to read the sort values of n children at a
    ///   child path of depth d; then O(n log k) with a limit of k, or
    ///   O(m log m) to sort the m children in range without one.
    package func window(of node: DataNode) -> [(key: Key, node: DataNode)] {
        let range = QueryRange(self)
        let inRange = node.children.lazy.compactMap { key, child -> WindowEntry? in
            let value = sortValue(of: child)
            return range.contains(value, key) ? WindowEntry(key: key, node: child, value: value) : nil
        }
        let entries: [WindowEntry]
        switch limit {
        case .first(let k)?: entries = Self.kept(k, of: inRange, first: true)
        case .last(let k)?: entries = Self.kept(k, of: inRange, first: false)
        case nil: entries = inRange.sorted()
        }
        return entries.map { ($0.key, $0.node) }
    }

    /// The first (or last) `k` of `entries`, in order.
    /// - Complexity: O(n log k) for n entries.
    private static func kept(_ k: Int, of entries: some Sequence<WindowEntry>, first: Bool) -> [WindowEntry] {
        guard k > 0 else { return [] }
        var heap = Heap<WindowEntry>()
        for entry in entries {
            if heap.count < k {
                heap.insert(entry)
            } else if first, entry < heap.max! {
                _ = heap.replaceMax(with: entry)
            } else if !first, heap.min! < entry {
                _ = heap.replaceMin(with: entry)
            }
        }
        return heap.unordered.sorted()
    }

    /// Whether the query keeps some children out: it has a limit or bounds.
    /// A query without either (an order alone) selects every child.
    var filters: Bool { limit != nil || start != nil || end != nil }

    /// Whether the child `key` with the value `child` lies within the
    /// query's bounds (the limit aside). An empty node is no child.
    /// - Complexity: O(d) for a sort value at a child path of depth d.
    package func bounds(admit key: Key, _ child: DataNode) -> Bool {
        bounds(admit: key, child, in: QueryRange(self))
    }

    /// ``bounds(admit:_:)`` with the query's range made once, for many children.
    func bounds(admit key: Key, _ child: DataNode, in range: QueryRange) -> Bool {
        if child.isEmpty { return false }
        if range.isUnbounded { return true }
        return range.contains(sortValue(of: child), key)
    }

    /// The window as the database answers a query: an object of the
    /// children kept (unordered, as JSON objects are), or `null` when none.
    /// - Parameter export: Render priorities, as ``DataNode/json(export:)``.
    /// - Complexity: that of ``window(of:)`` with a limit; without one, no
    ///   sort: O(n · d) for the bounds (nothing without bounds); plus the size
    ///   of the children kept.
    package func json(of node: DataNode, export: Bool) -> JSONValue {
        Self.json(of: members(of: node), export: export)
    }

    /// The text of ``json(of:export:)``, written a chunk at a time from the
    /// nodes. Without a limit or bounds, every child, by key (no copy of
    /// the children).
    /// - Complexity: as ``json(of:export:)``, spread over the chunks.
    func text(of node: DataNode, export: Bool) -> JSONTextChunks {
        guard filters else { return JSONTextChunks(members: node.children, export: export) }
        return JSONTextChunks(members: members(of: node), export: export)
    }

    /// The children the query selects, in query order only when a limit
    /// needs the order to cut the window (an answer without a limit is an
    /// unordered object, so it is not sorted).
    /// - Complexity: with a limit, that of ``window(of:)``; without, O(n · d)
    ///   to check the bounds (O(n) without bounds).
    func members(of node: DataNode) -> [(key: Key, node: DataNode)] {
        if limit != nil { return window(of: node) }
        if start == nil && end == nil { return node.children.map { ($0.key, $0.value) } }
        let range = QueryRange(self)
        return node.children.compactMap { bounds(admit: $0.key, $0.value, in: range) ? ($0.key, $0.value) : nil }
    }

    /// The JSON of a window ``window(of:)`` returned.
    /// - Complexity: the size of the children in it.
    package static func json(of window: [(key: Key, node: DataNode)], export: Bool) -> JSONValue {
        if window.isEmpty { return .null }
        var members = JSONObject()
        members.reserveCapacity(window.count)
        for (key, child) in window {
            members[key.string] = child.json(export: export)
        }
        return .object(members)
    }

    /// The value `child` is ordered by (``SortValue/null`` under
    /// ``QueryOrder/key``, which orders by key alone).
    /// - Complexity: O(depth of the child path).
    package func sortValue(of child: DataNode) -> SortValue {
        switch order {
        case .key:
            return .null
        case .priority:
            return child.priority.sortValue
        case .value:
            return Self.sortValue(ofNode: child)
        case .child(let path):
            return Self.sortValue(ofNode: child.child(at: path))
        }
    }

    /// The sort value of a node's own value: its leaf, ``SortValue/object``
    /// for children, ``SortValue/null`` when empty.
    static func sortValue(ofNode node: DataNode) -> SortValue {
        switch node.leaf {
        case .bool(let b)?: return .bool(b)
        case .number(let d)?: return .number(d)
        case .string(let s)?: return .string(s)
        default: return node.hasChildren ? .object : .null
        }
    }
}
