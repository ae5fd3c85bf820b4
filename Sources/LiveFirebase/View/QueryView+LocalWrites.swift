// QueryView+LocalWrites.swift — this client's writes, shown over the
// server's data until the server confirms or refuses them.
import LiveModel

extension QueryView {
    /// Whether a local write changes child `key`.
    /// - Complexity: O(1); O(u) for the u replacements of all local writes
    ///   the first time after they changed other than by one write added or
    ///   removed.
    func covers(_ key: Key) -> Bool { coverage.covers(key) }

    /// Which writes change which children, made when missing.
    private var coverage: WriteCoverage {
        if let writeCoverage { return writeCoverage }
        let made = WriteCoverage(localWrites)
        writeCoverage = made
        return made
    }

    /// The local write `id`. Writes are held in the order of their ids.
    /// - Complexity: O(log w).
    private func localWrite(_ id: Int) -> LocalWrite? {
        var low = 0, high = localWrites.count
        while low < high {
            let mid = (low + high) / 2
            if localWrites[mid].id < id { low = mid + 1 } else { high = mid }
        }
        if low < localWrites.count, localWrites[low].id == id { return localWrites[low] }
        return localWrites.first { $0.id == id }
    }

    /// The server's value of child `key`, as far as this view knows it.
    func serverValue(_ key: Key) -> Snapshot {
        serverChildren[key] ?? cache[key] ?? .absent(key: key)
    }

    /// The server's value of every child this view holds: the cache
    /// itself (shared, not copied) when no local write covers a child.
    /// - Complexity: O(1) without local writes; else O(n).
    var serverChildrenHeld: [Key: Snapshot] {
        guard !serverChildren.isEmpty else { return cache }
        var children = cache
        for (key, server) in serverChildren { children[key] = server.exists ? server : nil }
        return children
    }

    /// Child `key` with the local writes over `server`, oldest first. A
    /// write below a child the view does not know is not shown (as in
    /// Firebase's SDKs): the rest of that child is unknown.
    func overlaid(_ key: Key, on server: Snapshot) -> Snapshot {
        var current = server
        var known = isKnown(server)
        let ids = coverage.writes(changing: key)
        // A write that replaces the whole child hides every write before
        // it: start from the last one (a child written n times costs one
        // edit, not n).
        var first = 0
        for n in ids.indices.reversed() {
            guard let write = localWrite(ids[n]),
                  write.updates.contains(where: { $0.path.count == 0 || ($0.path.count == 1 && $0.path[0] == key) }) else { continue }
            first = n
            break
        }
        for id in ids[first...] {
            guard let write = localWrite(id) else { continue }
            for (path, value) in write.updates {
                if let first = path.first {
                    guard first == key, known || path.count == 1 else { continue }
                    current = edited(current, below: path.dropFirst(), to: value, key: key)
                } else {
                    current = value.child(key).asChild(key, order: query.order)
                }
                known = true
            }
        }
        return current
    }

    /// Whether `server` is a child's whole value: it exists, or the view
    /// holds the whole location, so that a child it lacks does not exist.
    func isKnown(_ server: Snapshot) -> Bool { server.exists || (isComplete && !cacheIsFiltered) }

    /// Child `key` as it is to be shown.
    func shown(_ key: Key) -> Snapshot { overlaid(key, on: serverValue(key)) }

    /// Shows a write of this client at once, over the server's data, until
    /// ``acknowledge(_:)`` or ``revert(_:)``; the server's data for the
    /// children it changes is kept beneath it meanwhile.
    /// - Parameters:
    ///   - updates: Each replacement: a path relative to the location and
    ///     its value (absent to remove), applied in order.
    ///   - id: Names the write for its acknowledgement or revert.
    /// - Returns: The child events, in Firebase's order.
    /// - Complexity: O((u + k) log n) for u children changed (every child
    ///   for a write of the whole location) and a limit of k.
    func applyLocal(_ updates: [(path: [Key], value: Snapshot)], id: Int, hasServerValues: Bool = false) -> [ChildEvent] {
        var write = LocalWrite(id: id, updates: updates)
        write.hasServerValues = hasServerValues
        let keys = childKeys(of: write)
        for key in keys where serverChildren[key] == nil { serverChildren[key] = serverValue(key) }
        localWrites.append(write)
        return restage(keys)
    }

    /// Write `id` is being sent: what the server said before cannot hold
    /// it, so it no longer counts against it (a write made offline, then a
    /// resync, then sent, is taken into the server's data when confirmed).
    /// - Complexity: O(w) for w writes.
    func sending(_ id: Int) {
        guard let i = localWrites.firstIndex(where: { $0.id == id }) else { return }
        localWrites[i].spokenKeys = []
        localWrites[i].serverSpokeOfAll = false
    }

    /// The server confirmed write `id`, which goes. Where the server has
    /// spoken of a child since the write was made, its data is the truth
    /// (its stream brought the write, or what followed it); elsewhere the
    /// server's data beneath takes the write, which its stream may bring
    /// later.
    ///
    /// A write whose values were estimated here (server values) is not
    /// taken into the server's data: it stays shown until the server's
    /// data for its paths comes, then that data shows.
    /// - Returns: The child events (none when the server's data shows the
    ///   write).
    func acknowledge(_ id: Int) -> [ChildEvent] {
        guard let i = localWrites.firstIndex(where: { $0.id == id }) else { return [] }
        if localWrites[i].hasServerValues, !localWrites[i].serverSpokeOfAll,
           !localWrites[i].updates.allSatisfy({ $0.path.first.map(localWrites[i].spokenKeys.contains) ?? false }) {
            localWrites[i].awaitsData = true
            return []
        }
        let write = localWrites.remove(at: i)
        let keys = childKeys(of: write)
        for (path, value) in write.updates {
            if let first = path.first {
                let server = serverValue(first)
                guard !write.serverSpoke(of: first), isKnown(server) || path.count == 1 else { continue }
                serverChildren[first] = edited(server, below: path.dropFirst(), to: value, key: first)
            } else {
                for key in keys where !write.serverSpoke(of: key) {
                    serverChildren[key] = value.child(key).asChild(key, order: query.order)
                }
            }
        }
        // Its data may still come back (again: a server may send a write
        // that changed nothing), and is not news then.
        for (path, value) in write.updates {
            expectedEchoes.append((path, Self.digest(value)))
        }
        if expectedEchoes.count > Self.expectedEchoLimit {
            expectedEchoes.removeFirst(expectedEchoes.count - Self.expectedEchoLimit)
        }
        return restage(keys)
    }

    /// The server refused write `id`: what it changed shows the server's
    /// data again, under the later writes.
    /// - Returns: The child events.
    func revert(_ id: Int) -> [ChildEvent] {
        guard let i = localWrites.firstIndex(where: { $0.id == id }) else { return [] }
        let write = localWrites.remove(at: i)
        return restage(childKeys(of: write))
    }

    /// Notes, in each local write, the children the server speaks of.
    ///
    /// The server's data for a path that a write, pending or confirmed
    /// before its data came, wrote with the same value is taken as that
    /// write's own data coming back: it does not count for the writes made
    /// after it (else two quick writes of one child would show the first
    /// again when the second is confirmed). A write with server values
    /// matches by path alone (the server's values differ from the
    /// estimates). Any other data counts for every write it overlaps.
    /// - Returns: The children of confirmed writes that waited for this
    ///   data and go now: the caller shows them again.
    func serverSpeaks(of updates: [(path: [Key], value: Snapshot)]) -> [Key] {
        var released: [Key] = []
        for (path, value) in updates {
            // Digested only when a path matches.
            var digested: ValueDigest??
            func digest() -> ValueDigest? {
                if let digested { return digested }
                let d = Self.digest(value)
                digested = .some(d)
                return d
            }
            if let j = expectedEchoes.firstIndex(where: { $0.path == path && $0.digest == digest() }) {
                expectedEchoes.remove(at: j)
                continue
            }
            if let i = localWrites.firstIndex(where: { write in
                write.updates.contains { $0.path == path && (write.hasServerValues || Self.digest($0.value) == digest()) }
            }) {
                if let first = path.first { localWrites[i].spokenKeys.insert(first) } else { localWrites[i].serverSpokeOfAll = true }
                if localWrites[i].awaitsData { released += childKeys(of: localWrites.remove(at: i)) }
                continue
            }
            guard let first = path.first else {
                for i in localWrites.indices { localWrites[i].serverSpokeOfAll = true }
                released += localWrites.filter(\.awaitsData).flatMap(childKeys(of:))
                localWrites.removeAll { $0.awaitsData }
                expectedEchoes.removeAll()
                continue
            }
            for i in localWrites.indices where !localWrites[i].serverSpokeOfAll && localWrites[i].overlaps(path) {
                localWrites[i].spokenKeys.insert(first)
            }
        }
        return released
    }

    private static func digest(_ value: Snapshot) -> ValueDigest? {
        value.exists ? value.digest(priorities: true) : nil
    }

    /// Forgets the server's values of children no local write changes any
    /// more (they are shown as they are).
    func pruneServerChildren() {
        if localWrites.isEmpty {
            serverChildren = [:]
        } else {
            serverChildren = serverChildren.filter { covers($0.key) }
        }
    }

    /// Takes over `old`'s local writes (a new window of the same location).
    func adoptLocalWrites(of old: QueryView) {
        localWrites = old.localWrites
        serverChildren = old.serverChildren
        expectedEchoes = old.expectedEchoes
    }

    /// Shows `keys` as they are to be shown now.
    private func restage(_ keys: [Key]) -> [ChildEvent] {
        var next: [Key: Snapshot] = [:]
        var touched: [Key] = []
        for key in keys where next[key] == nil {
            next[key] = shown(key)
            touched.append(key)
        }
        pruneServerChildren()
        // What a local write pushes out of a window the server cuts stays
        // held while writes are shown: it shows again if the write goes.
        return commit(touched, next, dropHidden: cacheIsFiltered)
    }

    /// The children `write` changes: every child held or named for a write
    /// of the whole location.
    func childKeys(of write: LocalWrite) -> [Key] {
        guard write.coversEveryChild else {
            var seen = Set<Key>()
            return write.updates.compactMap { $0.path.first }.filter { seen.insert($0).inserted }
        }
        var keys = Set(cache.keys).union(serverChildren.keys)
        for (path, value) in write.updates {
            if let first = path.first { keys.insert(first) } else { keys.formUnion(value.children.compactMap(\.key)) }
        }
        return Array(keys)
    }

    /// Most confirmed writes whose data is awaited (``serverSpeaks(of:)``).
    static var expectedEchoLimit: Int { 64 }

    /// Whether two values of a child are the same, priorities included.
    static func same(_ a: Snapshot, _ b: Snapshot?) -> Bool {
        guard let b else { return !a.exists }
        guard a.exists, b.exists else { return a.exists == b.exists }
        return a.digest(priorities: true) == b.digest(priorities: true)
    }
}
