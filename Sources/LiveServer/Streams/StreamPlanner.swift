// StreamPlanner.swift — which stream events one applied change causes for
// one listener.

import LiveModel

/// One applied change: the writes of one request, and whether it was a
/// merge (PATCH, told as a `patch` event) at `base`.
struct Mutation: Sendable {
    let base: DatabasePath
    let isMerge: Bool
    let writes: [Write]
}

/// Turns a ``Mutation`` into the events a listener gets.
enum StreamPlanner {
    /// Events for a listener at `location` without a query.
    ///
    /// A write at or above the location is one `put` at `/` of the new value;
    /// a merge below it is one `patch`; other writes below it are `put`s at
    /// their relative paths.
    /// - Complexity: O(writes), plus rendering the values sent.
    static func events(for mutation: Mutation, at location: DatabasePath, in store: Store, export: Bool) -> [FramedEvent] {
        if mutation.writes.contains(where: { location.starts(with: $0.path) }) {
            let node = store.get(location)
            return [.put(.root) { node.write(to: &$0, export: export) }]
        }
        let below = mutation.writes.filter { $0.path.starts(with: location) }
        guard !below.isEmpty else { return [] }
        if mutation.isMerge {
            // The patch sits at the deepest of the base and the location.
            let at = mutation.base.starts(with: location) ? mutation.base : location
            let members = below.map { (name: $0.path.relative(to: at)!.relativeText, node: Optional($0.node)) }
            return [.patch(at.relative(to: location)!, members, export: export)]
        }
        return below.map { write in .put(write.path.relative(to: location)!) { write.node.write(to: &$0, export: export) } }
    }

    /// Whether `mutation` touches `location` or anything above or below it.
    static func touches(_ mutation: Mutation, _ location: DatabasePath) -> Bool {
        mutation.writes.contains { $0.path.starts(with: location) || location.starts(with: $0.path) }
    }

    /// What `mutation` changes in a query's window: the children that left
    /// it (as nil), entered it or changed in it, as `window` takes in the
    /// mutation. Call once per mutation for each window.
    /// - Complexity: when every write lies below the location, that of
    ///   ``ListenerWindow/update(_:in:)``: O(t log n) for t children touched
    ///   and n within the bounds; otherwise that of
    ///   ``ListenerWindow/reset(to:)``.
    static func windowChanges(for mutation: Mutation, at location: DatabasePath, in store: Store,
                              window: ListenerWindow) -> [ListenerWindow.Change] {
        let parent = store.get(location)
        if let touched = touchedChildren(mutation, below: location) {
            return window.update(touched, in: parent)
        }
        return window.reset(to: parent)
    }

    /// Events for a listener whose query is an order alone (no limit, no
    /// bounds): its window is every child of the location, so it keeps no
    /// copy of them. A write at or above the location is one `put` at `/`
    /// of the children (`null` without any: a leaf has none, as a read of
    /// the query answers); writes below it are told as a plain listener is
    /// told them (``events(for:at:in:export:)``), deep paths included.
    /// - Complexity: O(writes) plus rendering the values sent.
    static func childEvents(for mutation: Mutation, at location: DatabasePath, in store: Store,
                            export: Bool) -> [FramedEvent] {
        guard mutation.writes.contains(where: { location.starts(with: $0.path) }) else {
            return events(for: mutation, at: location, in: store, export: export)
        }
        let parent = store.get(location)
        return [.put(.root) { writeChildren(of: parent, to: &$0, export: export) }]
    }

    /// Writes the children of `node` as one object, `null` without any (a
    /// leaf has none).
    static func writeChildren(of node: DataNode, to out: inout [UInt8], export: Bool) {
        let children = node.children
        if children.isEmpty {
            out.append(contentsOf: "null".utf8)
        } else {
            DataNode.writeMembers(children, to: &out, export: export)
        }
    }

    /// The events that tell a query listener `changes`: one `put` for one
    /// child, else one `patch` at `/`.
    /// - Complexity: rendering the values sent.
    static func events(telling changes: [ListenerWindow.Change], export: Bool) -> [FramedEvent] {
        if changes.isEmpty { return [] }
        if changes.count == 1 {
            let node = changes[0].node ?? .empty
            return [.put(DatabasePath(uncheckedKeys: [changes[0].key])) { node.write(to: &$0, export: export) }]
        }
        return [.patch(.root, changes.map { (name: $0.key.string, node: $0.node) }, export: export)]
    }

    /// The children of `location` that `mutation` writes at or below, in
    /// order of first write; nil when a write lies at or above the location.
    static func touchedChildren(_ mutation: Mutation, below location: DatabasePath) -> [Key]? {
        var keys: [Key] = []
        var seen = Set<Key>()
        for write in mutation.writes {
            if location.starts(with: write.path) { return nil }
            guard write.path.starts(with: location) else { continue }
            let key = write.path.keys[location.depth]
            if seen.insert(key).inserted { keys.append(key) }
        }
        return keys
    }
}
