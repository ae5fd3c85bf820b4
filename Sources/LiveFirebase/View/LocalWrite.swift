// LocalWrite.swift — one write this client made, as a view holds it, and
// which writes change which children.
import LiveModel

/// One write this client made, as the replacements it makes below a view's
/// location.
struct LocalWrite {
    let id: Int
    /// Each replacement: a path relative to the location, and its new value.
    let updates: [(path: [Key], value: Snapshot)]
    /// The children the server has spoken of since it was made (every one
    /// after a whole value).
    var spokenKeys = Set<Key>()
    var serverSpokeOfAll = false

    /// Whether the server has spoken of child `key` since it was made.
    func serverSpoke(of key: Key) -> Bool { serverSpokeOfAll || spokenKeys.contains(key) }

    /// Whether its values were estimated here (server values): the
    /// server's own data for its paths is then awaited even after the
    /// server confirmed it.
    var hasServerValues = false
    /// Confirmed, and shown until the server's data for its paths comes.
    var awaitsData = false

    /// Whether it replaces the whole location.
    var coversEveryChild: Bool { updates.contains { $0.path.isEmpty } }

    /// Whether it changes child `key`.
    func covers(_ key: Key) -> Bool { updates.contains { $0.path.first.map { $0 == key } ?? true } }

    /// Whether data at `path` is inside, or holds, one of its replacements.
    func overlaps(_ path: [Key]) -> Bool {
        updates.contains { $0.path.starts(with: path) || path.starts(with: $0.path) }
    }
}

/// Which local writes change each child (by the first key of each
/// replacement), and which replace the whole location: their ids, oldest
/// first. It follows the view's writes as they change (``follow(_:)``)
/// without a copy of them.
struct WriteCoverage {
    private var every: [Int] = []
    private var byKey: [Key: [Int]] = [:]
    /// The ids followed, oldest first, from `head` on.
    private var ids: [Int] = []
    private var head = 0
    /// The children each write changes (nil: every child).
    private var keysOf: [Int: [Key?]] = [:]

    init(_ writes: [LocalWrite]) {
        for write in writes { add(write) }
    }

    func covers(_ key: Key) -> Bool { !every.isEmpty || byKey[key] != nil }

    /// The ids of the writes that change child `key`, oldest first.
    /// - Complexity: O(k) for the k writes that change it.
    func writes(changing key: Key) -> [Int] {
        let own = byKey[key] ?? []
        guard !every.isEmpty else { return own }
        guard !own.isEmpty else { return every }
        var merged: [Int] = []
        merged.reserveCapacity(own.count + every.count)
        var i = 0, j = 0
        while i < own.count || j < every.count {
            if j == every.count || (i < own.count && own[i] < every[j]) {
                merged.append(own[i])
                i += 1
            } else {
                if i < own.count, own[i] == every[j] { i += 1 }
                merged.append(every[j])
                j += 1
            }
        }
        return merged
    }

    private var count: Int { ids.count - head }

    private mutating func add(_ write: LocalWrite) {
        var keys: [Key?] = []
        for (path, _) in write.updates {
            if let first = path.first {
                if byKey[first]?.last != write.id {
                    byKey[first, default: []].append(write.id)
                    keys.append(first)
                }
            } else if every.last != write.id {
                every.append(write.id)
                keys.append(nil)
            }
        }
        ids.append(write.id)
        keysOf[write.id] = keys
    }

    /// Counts out the write at place `i` of those followed.
    private mutating func remove(at i: Int) {
        let id = ids[head + i]
        for key in keysOf.removeValue(forKey: id) ?? [] {
            if let key {
                if let at = byKey[key]?.firstIndex(of: id) { byKey[key]!.remove(at: at) }
                if byKey[key]?.isEmpty == true { byKey[key] = nil }
            } else if let at = every.firstIndex(of: id) {
                every.remove(at: at)
            }
        }
        if i == 0 {
            head += 1
            if head > 64 && head * 2 > ids.count {
                ids.removeFirst(head)
                head = 0
            }
        } else {
            ids.remove(at: head + i)
        }
    }

    /// Follows the view's writes, now `writes`: one write added at the end,
    /// or one removed, is counted in or out; a write's flags changing
    /// changes nothing (its replacements never change); anything else
    /// counts them all again.
    /// - Complexity: O(u · k) for the replacements u of the write added or
    ///   removed and the k writes of the same children, and O(i) to find
    ///   the one removed at place i.
    mutating func follow(_ writes: [LocalWrite]) {
        if writes.count == count + 1, let added = writes.last, added.id > (ids.last ?? .min),
           count == 0 || writes[count - 1].id == ids.last {
            add(added)
        } else if writes.count + 1 == count {
            // Writes are only ever taken out: the one removed is where the
            // ids first differ (the first, for a confirmation).
            var i = 0
            while i < writes.count, writes[i].id == ids[head + i] { i += 1 }
            remove(at: i)
        } else if writes.count != count || writes.first?.id != ids[head...].first || writes.last?.id != ids.last {
            self = WriteCoverage(writes)
        }
    }
}
