import LiveModel

extension Store {
    /// `PATCH`: a multi-path update below `path`.
    ///
    /// The body must be an object. Each member name is a relative path
    /// (`"a/b/c"`) and each value replaces the data there as
    /// ``set(_:json:now:)`` would (`null` deletes; server values resolve
    /// against the data as it was before the update). A name ending in
    /// `.priority` sets the priority of the node there (a number, a string,
    /// or `null` to remove it; an absent node gets none) once the other
    /// members are written, told as a write of that node. No member may be
    /// the ancestor of another, nor name the same location; a priority is
    /// below its node and beside the node's children, as Firebase has it:
    /// `{"a/.priority": 1, "a/b": 2}` is one update, `{"a": 1,
    /// "a/.priority": 2}` is refused.
    /// - Returns: One write per member that is no priority, at its absolute
    ///   path, in key order of the paths; then one per priority that
    ///   changes, deepest first, with the node it leaves. A write held whole
    ///   by a later one (below a node whose priority is set) is left out.
    ///   An empty object writes nothing.
    /// - Throws: ``StoreError`` (400) for a body that is not an object, a
    ///   bad path, overlapping paths or bad data in any member; nothing is
    ///   changed then.
    /// - Complexity: O(size of the body + m log m · depth) for m members.
    package mutating func update(_ path: DatabasePath, json: JSONValue, now: Int64) throws(StoreError) -> [Write] {
        guard case .object(let members) = json else {
            throw .badRequest("Invalid data; couldn't parse JSON object. An update must be a JSON object.")
        }
        var targets: [(name: String, relative: DatabasePath, isPriority: Bool, value: JSONValue)] = []
        targets.reserveCapacity(members.count)
        for (name, value) in members {
            let named: NamedLocation
            do { named = try NamedLocation(name) } catch { throw .invalidPath(error) }
            guard !named.path.isRoot || named.isPriority else {
                throw .badRequest("Invalid path: \"\(name)\" names no child in an update.")
            }
            targets.append((name, named.path, named.isPriority, value))
        }
        // Any member below a node written whole overlaps it; a priority
        // overlaps its own node only (members below it are its children).
        // Sorted by position: moving the members themselves costs more than comparing them.
        let order = targets.indices.sorted { targets[$0].relative.keys.lexicographicallyPrecedes(targets[$1].relative.keys) }
        for (p, n) in zip(order, order.dropFirst()) where targets[n].relative.starts(with: targets[p].relative) {
            let previous = targets[p], next = targets[n]
            if next.relative == previous.relative && next.isPriority == previous.isPriority {
                throw .badRequest("Path '\(previous.name)' and '\(next.name)' are the same location in an update.")
            }
            if next.relative == previous.relative {
                throw .badRequest("Path '\(previous.name)' and '\(next.name)' write one node and its priority in an update.")
            }
            if previous.isPriority { continue }
            throw .badRequest("Path '\(previous.name)' is an ancestor of '\(next.name)' in an update.")
        }
        // Everything is checked before anything changes.
        var writes: [Write] = []
        writes.reserveCapacity(targets.count)
        var priorities: [(path: DatabasePath, priority: Priority?)] = []
        for target in order.lazy.map({ targets[$0] }) {
            let absolute: DatabasePath
            do { absolute = try path.appending(target.relative) } catch { throw .invalidPath(error) }
            if target.isPriority {
                priorities.append((absolute, try Store.priority(written: target.value)))
                continue
            }
            let node = try DataNode(json: target.value, writtenAt: absolute, current: root.child(at: absolute), now: now)
            writes.append(Write(path: absolute, node: node))
        }
        apply(writes)
        guard !priorities.isEmpty else { return writes }
        // Priorities last, deepest first: each node as the writes below it left it.
        for (absolute, priority) in priorities.sorted(by: { $0.path.depth > $1.path.depth }) {
            writes += setPriority(priority, of: absolute)
        }
        return Self.withoutContained(writes)
    }

    /// `writes` less those a later write holds whole (a write below a node
    /// whose priority a later write sets), so that the journal and the
    /// streams get each change once, as one value.
    /// - Complexity: O(w · d) for w writes of depth d.
    private static func withoutContained(_ writes: [Write]) -> [Write] {
        var later = Set<DatabasePath>()
        var kept: [Write] = []
        for write in writes.reversed() {
            let keys = write.path.keys
            let held = (0..<keys.count).contains { later.contains(DatabasePath(uncheckedKeys: Array(keys[..<$0]))) }
            if !held { kept.append(write) }
            later.insert(write.path)
        }
        return kept.reversed()
    }
}
