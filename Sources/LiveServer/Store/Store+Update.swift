import LiveModel

extension Store {
    /// `PATCH`: a multi-path update below `path`.
    ///
    /// The body must be an object. Each member name is a relative path
    /// (`"a/b/c"`) and each value replaces the data there as
    /// ``set(_:json:now:)`` would (`null` deletes; server values resolve
    /// against the data as it was before the update). A name ending in
    /// `/.priority` sets the priority of the node there (a number, a string,
    /// or `null` to remove it; an absent node gets none), told as a write of
    /// that node. No member may be the ancestor of another, nor name the
    /// same location; a node's priority overlaps what the node does.
    /// - Returns: One write per member, at its absolute path, in key order
    ///   of the paths. An empty object writes nothing.
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
        // A priority's location is its node's: it overlaps what overlaps the node.
        targets.sort { $0.relative.keys.lexicographicallyPrecedes($1.relative.keys) }
        for (previous, next) in zip(targets, targets.dropFirst()) where next.relative.starts(with: previous.relative) {
            if next.relative == previous.relative && next.isPriority == previous.isPriority {
                throw .badRequest("Path '\(previous.name)' and '\(next.name)' are the same location in an update.")
            }
            if next.relative == previous.relative {
                throw .badRequest("Path '\(previous.name)' and '\(next.name)' write one node and its priority in an update.")
            }
            throw .badRequest("Path '\(previous.name)' is an ancestor of '\(next.name)' in an update.")
        }
        var writes: [Write] = []
        writes.reserveCapacity(targets.count)
        for target in targets {
            let absolute: DatabasePath
            do { absolute = try path.appending(target.relative) } catch { throw .invalidPath(error) }
            let current = root.child(at: absolute)
            if target.isPriority {
                // An absent node has no priority: nothing to write.
                let priority = try Store.priority(written: target.value)
                guard !current.isEmpty, current.priority != priority else { continue }
                var node = current
                node.priority = priority
                writes.append(Write(path: absolute, node: node))
                continue
            }
            let node = try DataNode(json: target.value, writtenAt: absolute, current: current, now: now)
            writes.append(Write(path: absolute, node: node))
        }
        apply(writes)
        return writes
    }
}
