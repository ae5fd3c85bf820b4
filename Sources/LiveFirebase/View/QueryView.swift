// QueryView.swift — the client's copy of a query's data and the window it
// shows, turning stream updates into child events.
import LiveCollection
import LiveModel

/// What a listener holds for one query: the children the server sent (the
/// cache), those inside the query's bounds in query order (the C index), and
/// the limit window over them — the part a user sees. When the server sends
/// exactly the query's children, those that leave the window are dropped.
///
/// Each update (a `put` or `patch`, or a resync's `put` at `/`) is turned
/// into the exact child events it causes. Only the children the update
/// touches, and for a limit window the children within that many places of
/// the window's edge, are examined.
///
/// Not thread-safe: confined to its owner's isolation domain.
final class QueryView {
    let query: DatabaseQuery
    private let range: QueryRange
    /// The children held, by key (see ``apply(_:filtered:)`` for which), as
    /// shown: with this client's unconfirmed writes over the server's data.
    var cache: [Key: Snapshot] = [:] { didSet { version &+= 1 } }
    /// Changes each time ``cache`` does: what a plan made away from the
    /// owner was made against (see `QueryView+Resync.swift`).
    private(set) var version = 0
    /// This client's writes the server has not confirmed or refused yet,
    /// oldest first (in the order of their ids); see
    /// `QueryView+LocalWrites.swift`.
    var localWrites: [LocalWrite] = [] { didSet { writeCoverage?.follow(localWrites) } }
    /// How many local writes change each child: kept as writes are added
    /// and removed, made again only after other changes (see
    /// ``covers(_:)``), so that asking of every held child costs O(1) each.
    var writeCoverage: WriteCoverage?
    /// The server's value of each child a local write covers (absent when
    /// the server has none): what shows again when the writes go.
    var serverChildren: [Key: Snapshot] = [:]
    /// The paths and values of confirmed writes whose data the server's
    /// stream has not brought yet (see ``serverSpeaks(of:)``).
    var expectedEchoes: [(path: [Key], digest: ValueDigest?)] = []
    /// Children out of a window the server cuts, held while local writes
    /// are shown: one of them shows again if a write goes (the server does
    /// not send it again: for the server it never left).
    var heldForWrites = Set<Key>()
    /// The children inside the bounds, in query order.
    private let index = CoreIndex()
    /// Whether the location's whole value has arrived (a `put` at `/`).
    private(set) var isComplete = false
    /// Whether the cache holds only what the query shows (it came from data
    /// the server filtered), so a child it lacks may still exist.
    private(set) var cacheIsFiltered = false
    /// The location's own value, beside its children: its primitive (then
    /// it has no children) and its priority, as the server last sent them.
    /// What a view above this location shows as this child (see
    /// ``ViewRegistry``).
    var own = OwnValue()
    /// Whether the server's whole value of the location is held, as its
    /// owner confirms: a stream's (or injected) value, not a cache's, nor a
    /// page seeded from an older view. Only such a view is shared
    /// (``ViewRegistry``). Set by the owner.
    var isConfirmed = false

    deinit {
        // A million children's snapshots: freed off this thread (the
        // index frees itself so).
        releaseInBackground(&cache, leaving: [:])
    }

    init(query: DatabaseQuery) {
        self.query = query
        self.range = QueryRange(query)
    }

    // MARK: Reading

    /// Positions of the visible children in the index.
    var window: Range<Int> {
        let n = index.count
        switch query.limit {
        case nil: return 0..<n
        case .first(let limit)?: return 0..<min(n, limit)
        case .last(let limit)?: return max(0, n - limit)..<n
        }
    }

    /// Whether nothing was received yet. - Complexity: O(1).
    var isEmpty: Bool { cache.isEmpty && !isComplete && localWrites.isEmpty }

    /// Number of visible children. - Complexity: O(1).
    var count: Int { window.count }

    /// The visible children in query order. - Complexity: O(k log n) for k children.
    var visible: [Snapshot] {
        let w = window
        var out: [Snapshot] = []
        out.reserveCapacity(w.count)
        index.forEachID(from: w.lowerBound) { id in
            guard out.count < w.count else { return false }
            out.append(cache[index.key(of: id)] ?? .absent(key: nil))
            return true
        }
        return out
    }

    /// Child `key` as shown, when it is in the window.
    /// - Complexity: O(log n).
    func shownChild(_ key: Key) -> Snapshot? {
        guard visiblePosition(key, in: window) != nil else { return nil }
        return cache[key]
    }

    // MARK: Updating

    /// Applies a stream event whose path is relative to this view's location
    /// (`filtered` as in ``apply(_:filtered:)``).
    /// - Returns: The child events, in Firebase's order.
    /// - Complexity: O((u + k) log n) for u touched children and a limit of
    ///   k, plus the cost of reading the touched values.
    ///
    /// `fillEvents: false` leaves out the `child_added` events of a first
    /// whole value that fills the view (``fillEvents()`` makes them later).
    func apply(_ payload: StreamPayload, filtered: Bool? = nil, fillEvents: Bool = true) -> [ChildEvent] {
        apply(payload.updates.map { (payload.path.keys + $0.path.keys, $0.value) }, filtered: filtered,
              fillEvents: fillEvents)
    }

    /// Makes `children` the location's whole value without raising events
    /// (a new window seeded with what an older one showed).
    func seed(_ children: [Snapshot]) {
        let updates = [([Key](), Snapshot.absent(key: nil))] + children.compactMap { child in
            child.key.map { ([$0], child) }
        }
        _ = apply(updates, filtered: false)
    }

    /// The children a view of `query` holding `held` (a view's ``cache``)
    /// shows, in no particular order: without a limit, those inside the
    /// bounds, found without ordering them; with one, ``visible(of:under:)``.
    /// - Complexity: O(n) for n children held without a limit (each one's
    ///   sort value read when there are bounds); O(n log n) with one.
    static func shown(of held: [Key: Snapshot], under query: DatabaseQuery) -> [Snapshot] {
        guard query.limit == nil else { return visible(of: held, under: query) }
        let range = QueryRange(query)
        if range.isUnbounded { return held.values.filter(\.exists) }
        return held.compactMap { key, child in child.exists && range.contains(child.sortValue, key) ? child : nil }
    }

    /// The children a view of `query` holding `held` (a view's ``cache``)
    /// shows, in order: what that view's ``visible`` is.
    /// - Complexity: O(n log n) for n children held; meant to run away
    ///   from the view's owner.
    static func visible(of held: [Key: Snapshot], under query: DatabaseQuery) -> [Snapshot] {
        let view = QueryView(query: query)
        for (key, child) in held where view.range.contains(child.sortValue, key) {
            _ = view.index.upsert(key, child.sortValue)
        }
        view.cache = held
        return view.visible
    }

    /// Whether the server sends exactly the query's children: then a child
    /// that leaves the window is dropped (the server stops telling about it,
    /// so a copy would go stale). Otherwise the server sends a superset and
    /// everything it sends is kept.
    var serverFilters: Bool { isFiltered && query.serverAppliesLimit }

    /// Applies replacements, each a path (relative to this location) and its
    /// new value, as one update.
    ///
    /// `filtered` says whether the data is the query's own (the server kept
    /// only what the query shows; by default ``serverFilters``): a filtered
    /// update leaves in the cache only the children shown, and the server
    /// sends a child whole when it enters. Unfiltered data (injected, or a
    /// server's answer to a query it cannot cut) is the location's: every
    /// child stays in the cache, so one that leaves a limit window can come
    /// back, and the next one slides in when it leaves.
    ///
    /// A change *inside* a child the view does not hold creates the child,
    /// holding just that path's value (a deep write to an empty node, as in
    /// Firebase), when the cache is complete and unfiltered: the child did
    /// not exist. Otherwise it is ignored, as Firebase's SDKs do: the view
    /// cannot know the rest of that child, and a server that cuts the window
    /// sends a child whole when it enters. Several paths below one child in
    /// one update build on each other. A path `k/.priority` sets `k`'s
    /// priority.
    func apply(_ updates: [(path: [Key], value: Snapshot)], filtered: Bool? = nil,
               fillEvents: Bool = true) -> [ChildEvent] {
        let filtered = (filtered ?? serverFilters) && isFiltered
        if updates.count == 1, updates[0].path.isEmpty, cache.isEmpty, query.limit == nil, localWrites.isEmpty {
            let events = fill(updates[0].value, filtered: filtered)
            return fillEvents ? events() : []
        }
        if !filtered, updates.contains(where: { $0.path.isEmpty }) { cacheIsFiltered = false }
        var next: [Key: Snapshot] = [:]
        var touched: [Key] = []
        func stage(_ key: Key, _ snapshot: Snapshot) {
            if next.updateValue(snapshot, forKey: key) == nil { touched.append(key) }
        }
        var released: [Key] = []
        if !localWrites.isEmpty || !expectedEchoes.isEmpty {
            // Confirmed writes that waited for this data show the server's
            // data again (their children are staged first, from it).
            released = serverSpeaks(of: updates)
            for key in released { stage(key, shown(key)) }
        }
        for (path, value) in updates {
            if !path.isEmpty { own.change(at: path, to: value) }
            if !localWrites.isEmpty, let key = path.first, covers(key) {
                // A child under a local write: the server's value changes
                // below it, and the write stays on top.
                let server = edited(serverChildren[key] ?? .absent(key: key), below: path.dropFirst(), to: value, key: key)
                serverChildren[key] = server
                stage(key, overlaid(key, on: server))
                continue
            }
            guard let key = path.first else {
                // The whole location: every child is replaced or removed. A
                // child held with the same data (compared by their texts,
                // then the core's digests) stays where it is: a resync touches only what
                // changed.
                isComplete = true
                cacheIsFiltered = filtered
                own = OwnValue(value)
                var incoming = Set<Key>(minimumCapacity: value.childrenCount)
                for child in value.children {
                    guard let k = child.key else { continue }
                    incoming.insert(k)
                    if !localWrites.isEmpty, covers(k) {
                        serverChildren[k] = child
                        stage(k, overlaid(k, on: child))
                        continue
                    }
                    if next[k] == nil, let held = cache[k], held.holdsSameData(as: child, priorities: true) {
                        // The same data, priorities at every level included:
                        // the new snapshot is kept (the old one's document
                        // can go), with no event and the same place.
                        cache[k] = child
                        continue
                    }
                    stage(k, child)
                }
                // A child the server no longer has: gone, unless a local
                // write keeps it.
                func vanish(_ old: Key) {
                    guard !localWrites.isEmpty, covers(old) else { return stage(old, .absent(key: old)) }
                    serverChildren[old] = .absent(key: old)
                    stage(old, overlaid(old, on: .absent(key: old)))
                }
                for old in cache.keys where !incoming.contains(old) { vanish(old) }
                for child in Array(next.keys) where !incoming.contains(child) && cache[child] == nil { vanish(child) }
                for old in Array(serverChildren.keys) where !incoming.contains(old) && next[old] == nil { vanish(old) }
                continue
            }
            if path.count == 1 {
                stage(key, value.asChild(key, order: query.order))
                continue
            }
            let held = next[key] ?? cache[key]
            guard let current = held ?? (isComplete && !cacheIsFiltered ? .absent(key: key) : nil) else { continue }
            stage(key, edited(current, below: path.dropFirst(), to: value, key: key))
        }
        if !released.isEmpty { pruneServerChildren() }
        let events = commit(touched, next, dropHidden: filtered || cacheIsFiltered)
        if own.priority != nil, cache.isEmpty, serverChildren.isEmpty { own.emptied() }
        return events
    }

    /// Child `key`'s value `current` with the value at `rest` (a path below
    /// the child) replaced by `value`; `k/.priority` sets its priority.
    /// - Complexity: O(size of the child and of `value`).
    func edited(_ current: Snapshot, below rest: ArraySlice<Key>, to value: Snapshot, key: Key) -> Snapshot {
        guard let first = rest.first else { return value.asChild(key, order: query.order) }
        if rest.count == 1, first.string == ".priority" {
            return Snapshot(key: key, value: current.value, priority: Priority(value.value), order: query.order)
        }
        if let edited = current.replacing(at: rest, with: value, key: key, order: query.order) {
            // A value inside an object child, from the texts alone.
            return edited
        }
        let edited = current.value.replacing(rest, with: value.value)
        return Snapshot(key: key, value: edited, priority: current.priority, order: query.order)
    }

    /// The `child_added` events of every child held, in order: those of a
    /// fill whose events were left out (`apply(_:filtered:fillEvents:)`),
    /// while nothing else has changed the view.
    /// - Complexity: O(n).
    func fillEvents() -> [ChildEvent] {
        addedEvents { cache[index.key(of: $0)]! }
    }

    /// The whole value arriving in an empty view without a limit (a first
    /// load): every child inside the bounds is added, in query order, with
    /// no candidate bookkeeping: nothing was shown, so nothing moves,
    /// changes or leaves. Returns what makes the events, which are those
    /// ``commit(_:_:dropHidden:)`` would give.
    /// - Complexity: O(n log n) for n children; the events O(n).
    private func fill(_ value: Snapshot, filtered: Bool) -> () -> [ChildEvent] {
        isComplete = true
        cacheIsFiltered = filtered
        own = OwnValue(value)
        let children = value.children
        cache.reserveCapacity(children.count)
        if range.isUnbounded, index.build(fromChildrenOf: value, order: query.order) {
            // Every child is inside the bounds: ordered in bulk, entry id i
            // for child i.
            let snapshots = Array(children)
            for child in snapshots { cache[child.key!] = child }
            return { self.addedEvents { snapshots[Int($0)] } }
        }
        for child in children {
            guard let key = child.key, child.exists else { continue }
            // Every child is indexed if inside the bounds; one outside is
            // kept only when the data is the location's, not the server's
            // answer to the query.
            if range.contains(child.sortValue, key) {
                _ = index.upsert(key, child.sortValue)
                cache[key] = child
            } else {
                // (A key given twice: the last one holds.)
                if cache.removeValue(forKey: key) != nil { _ = index.remove(key) }
                if !filtered { cache[key] = child }
            }
        }
        return fillEvents
    }

    /// A `child_added` for each indexed child, in order; `child` gives the
    /// snapshot of an entry id.
    private func addedEvents(_ child: (UInt32) -> Snapshot) -> [ChildEvent] {
        var events: [ChildEvent] = []
        events.reserveCapacity(index.count)
        var previous: Key?
        index.forEachID { id in
            let snapshot = child(id)
            let key = snapshot.key!
            events.append(ChildEvent(kind: .added, key: key, snapshot: snapshot, previousKey: previous))
            previous = key
            return true
        }
        return events
    }

    /// Notes that the location's whole value arrived; `filtered` as in
    /// ``apply(_:filtered:fillEvents:)``.
    func markComplete(filtered: Bool) {
        isComplete = true
        cacheIsFiltered = filtered
    }

    /// Whether the query shows only part of the location (bounds or a limit).
    var isFiltered: Bool { query.limit != nil || !range.isUnbounded }

    /// One candidate child: its state before and after the update.
    private struct Candidate {
        let key: Key
        var oldPosition: Int?
        var newPosition: Int?
        var old: Snapshot?
        var new: Snapshot?
        var touched: Bool
    }

    func commit(_ touched: [Key], _ next: [Key: Snapshot], dropHidden: Bool) -> [ChildEvent] {
        // Before: the touched children, and those near the window's edge
        // that the update may push in or out.
        var candidates: [Key: Candidate] = [:]
        let oldWindow = window
        for key in touched {
            candidates[key] = Candidate(key: key, oldPosition: visiblePosition(key, in: oldWindow),
                                        old: cache[key], touched: true)
        }
        for key in edgeKeys(margin: touched.count) where candidates[key] == nil {
            candidates[key] = Candidate(key: key, oldPosition: visiblePosition(key, in: oldWindow),
                                        old: cache[key], touched: false)
        }
        // Apply.
        for key in touched {
            let snapshot = next[key]!
            if snapshot.exists {
                cache[key] = snapshot
                if range.contains(snapshot.sortValue, key) {
                    _ = index.upsert(key, snapshot.sortValue)
                } else {
                    _ = index.remove(key)
                }
            } else {
                cache[key] = nil
                _ = index.remove(key)
            }
        }
        // After.
        let newWindow = window
        for key in Array(candidates.keys) {
            candidates[key]!.newPosition = visiblePosition(key, in: newWindow)
            candidates[key]!.new = cache[key]
        }
        let events = events(Array(candidates.values), newWindow)
        if dropHidden {
            for c in candidates.values where c.newPosition == nil && cache[c.key] != nil {
                guard localWrites.isEmpty else {
                    heldForWrites.insert(c.key)
                    continue
                }
                cache[c.key] = nil
                _ = index.remove(c.key)
            }
            if localWrites.isEmpty, !heldForWrites.isEmpty { dropHeldForWrites() }
        }
        return events
    }

    /// Drops the children held for local writes that are not shown (none
    /// is shown any more).
    func dropHeldForWrites() {
        // Decided before any goes: a removal moves the positions after it.
        let w = window
        let hidden = heldForWrites.filter { key in
            guard cache[key] != nil else { return false }
            guard let found = index.find(key) else { return true }
            return !w.contains(found.position)
        }
        for key in hidden {
            cache[key] = nil
            _ = index.remove(key)
        }
        heldForWrites.removeAll()
    }

    private func events(_ candidates: [Candidate], _ newWindow: Range<Int>) -> [ChildEvent] {
        func previous(_ position: Int) -> Key? {
            position == newWindow.lowerBound ? nil : index.key(at: position - 1)
        }
        var removed: [(Int, ChildEvent)] = [], added: [(Int, ChildEvent)] = []
        var moved: [(Int, ChildEvent)] = [], changed: [(Int, ChildEvent)] = []
        for c in candidates {
            switch (c.oldPosition, c.newPosition) {
            case (let old?, nil):
                removed.append((old, ChildEvent(kind: .removed, key: c.key, snapshot: c.old!, previousKey: nil)))
            case (nil, let new?):
                added.append((new, ChildEvent(kind: .added, key: c.key, snapshot: c.new!, previousKey: previous(new))))
            case (_?, let new?) where c.touched:
                // As Firebase: a change, preceded by a move when the order's
                // indexed part of the child changed.
                let old = c.old!, snapshot = c.new!
                // A child whose order value changed holds other data; else
                // compared by their texts, then the core's digests: neither value is built.
                let moves = query.order.movesChild(from: old, to: snapshot)
                guard moves || old.priority != snapshot.priority
                        || !old.holdsSameData(as: snapshot, priorities: false) else { break }
                if moves {
                    moved.append((new, ChildEvent(kind: .moved, key: c.key, snapshot: snapshot, previousKey: previous(new))))
                }
                changed.append((new, ChildEvent(kind: .changed, key: c.key, snapshot: snapshot, previousKey: previous(new))))
            default:
                break
            }
        }
        return [removed, added, moved, changed].flatMap { group in group.sorted { $0.0 < $1.0 }.map(\.1) }
    }

    /// The child just before `key` in the query's order, among those the
    /// view holds (every child, when it is fed the whole location).
    /// - Complexity: O(log n).
    func child(before key: Key) -> Snapshot? {
        guard let found = index.find(key), found.position > 0 else { return nil }
        var before: Key?
        index.forEachID(from: found.position - 1) { id in
            before = index.key(of: id)
            return false
        }
        return before.flatMap { cache[$0] }
    }

    private func visiblePosition(_ key: Key, in window: Range<Int>) -> Int? {
        guard let found = index.find(key), window.contains(found.position) else { return nil }
        return found.position
    }

    /// The children within `margin` places of the limit window's edge (none
    /// without a limit): the only untouched children whose visibility an
    /// update of `margin` children can change.
    private func edgeKeys(margin: Int) -> [Key] {
        guard let limit = query.limit, margin > 0 else { return [] }
        let n = index.count
        let edge: Int
        switch limit {
        case .first(let k): edge = k
        case .last(let k): edge = n - k
        }
        let lower = max(0, edge - margin), upper = min(n, edge + margin)
        guard lower < upper else { return [] }
        return (lower..<upper).map { index.key(at: $0) }
    }
}
