// FirebaseCollection+Cache.swift — a cache-first start, and keeping the
// cache up to date with what the server confirmed.
import LiveCollection
import LiveModel

extension FirebaseCollection {
    /// What identifies this collection's file in its cache: the cache's
    /// scope, the location and the query the stream asks for.
    var cacheIdentity: String { cache?.identity(reference, view.query) ?? "" }

    /// Starts showing the cache's children, when there is a cache, nothing
    /// is loaded and its file holds this query's: read and parsed away from
    /// the main actor, then applied as a first load whose status is
    /// ``CollectionStatus/cached``, then the writes the cache kept over
    /// them. The stream's messages (and ``receive(_:)``) wait for it.
    func showCached() {
        guard !hasLoaded, cacheLoad == nil else { return }
        if showShared() { return }
        guard let cache else { return }
        let identity = cacheIdentity, order = view.query.order
        cacheLoads += 1
        let load = cacheLoads
        cacheLoad = Task { [weak self] in
            let read = await Self.readCache(cache, identity, order)
            await self?.applyCached(read, identity: identity, load: load)
            // The writes kept with the cache show over its children.
            self?.restoreWrites()
        }
    }

    /// Starts showing what the other collections of the ``sharedCache``
    /// hold of this location, as ``showCached()`` shows a file's children:
    /// in place of the file when they hold the location's whole value (it
    /// is newer), or when there is no file to read; otherwise (some
    /// children known, and a ``cache``) the file is read. The writes kept
    /// with the cache show over them.
    /// - Returns: Whether something is shown this way.
    private func showShared() -> Bool {
        guard let known = sharedCache?.known(at: reference) else { return false }
        if case .children = known, cache != nil { return false }
        cacheLoads += 1
        let load = cacheLoads, query = view.query, box = KnownBox(known)
        cacheLoad = Task { [weak self] in
            let payload = await SharedCache.payload(box, order: query.order)
            guard let self, load == self.cacheLoads else { return }
            defer { self.cacheLoad = nil }
            // Not if something came first, nor for another query.
            if let payload, !self.hasLoaded, self.stream != nil || self.listensWhenOnline, query == self.view.query {
                // The location's data, not a window the server cut.
                await self.handle(payload.kind == .put ? .put(payload) : .patch(payload), isWholeData: true,
                                  fromCache: true)
            }
            self.restoreWrites()
        }
        return true
    }

    /// Drops a cache read under way (the query changed before anything
    /// loaded): what it reads is not applied.
    func dropCacheLoad() {
        cacheLoad = nil
        cacheLoads += 1
    }

    /// The cached children of `identity` as a `put`, and the file as read;
    /// nil when there are none (or the file is not whole).
    @concurrent
    nonisolated static func readCache(_ cache: CollectionCache, _ identity: String, _ order: QueryOrder) async
        -> (payload: StreamPayload, file: CacheFile)? {
        cache.load(identity, order: order)
    }

    private func applyCached(_ read: (payload: StreamPayload, file: CacheFile)?, identity: String, load: Int) async {
        guard load == cacheLoads else { return } // dropped
        defer { cacheLoad = nil }
        // Not if something came first (a value from elsewhere, a stop), nor
        // for another query than the one read (set meanwhile).
        guard let read, !hasLoaded, stream != nil || listensWhenOnline, identity == cacheIdentity else { return }
        await handle(.put(read.payload), fromCache: true)
        // Shown: what changes them from now on (and what the writes shown
        // over them change) is appended to the file read.
        if showsCached, identity == cacheIdentity { cacheFile = read.file }
    }

    /// Notes the children an applied update changed, for the next save
    /// (also while a save that will know its file runs); past a quarter of
    /// the window, the next save writes every child instead.
    func noteCacheChanges(_ events: [ChildEvent]) {
        cacheChanges &+= 1
        guard cache != nil, !cacheChangesOverflow else { return }
        guard cacheChangedKeys.count + events.count <= cacheChangeLimit * 2 else {
            // More than a save appends (a whole value that changed much):
            // not each key noted, on the main actor.
            cacheChangesOverflow = true
            cacheChangedKeys.removeAll()
            return
        }
        for event in events { cacheChangedKeys.insert(event.key) }
        if cacheChangedKeys.count > cacheChangeLimit {
            cacheChangesOverflow = true
            cacheChangedKeys.removeAll()
        }
    }

    /// The most changed children a save appends; more are written whole.
    private var cacheChangeLimit: Int { max(16, view.count / 4) }

    /// Takes the changes noted so far, for a save.
    private func takeCacheChanges() -> (keys: Set<Key>, overflow: Bool) {
        defer {
            cacheChangedKeys.removeAll()
            cacheChangesOverflow = false
        }
        return (cacheChangedKeys, cacheChangesOverflow)
    }

    /// Whether what is shown may be saved: the server confirmed it, no new
    /// query waits for its value, and no write of this client is shown
    /// unconfirmed.
    var canSaveCache: Bool { cache != nil && cacheConfirmed && replacing == nil && view.localWrites.isEmpty }

    /// Saves the children to the cache after its interval (now with `now`),
    /// when something changed since the last save and the server confirmed
    /// it; changes meanwhile are saved together. One write runs at a time:
    /// a save asked for during one follows it, with what is shown then.
    func saveCacheSoon(now: Bool = false) {
        guard let cache, canSaveCache, cacheChanges != cacheSavedChanges, !isTooLargeForCache else { return }
        if now {
            cacheSave?.cancel()
            cacheSave = nil
            startCacheWrite(cache)
            return
        }
        guard cacheSave == nil else { return }
        let wait = cacheWait
        cacheSave = Task { [weak self] in
            await wait(cache.interval)
            guard !Task.isCancelled, let self else { return }
            self.cacheSave = nil
            self.saveCacheSoon(now: true)
        }
    }

    /// Whether the window was found too large to keep and holds no fewer
    /// children since.
    private var isTooLargeForCache: Bool {
        guard let count = cacheTooLargeAt else { return false }
        return view.count >= count
    }

    /// What a save writes, taken on the main actor: the children changed
    /// since the file was last read or written, when it holds this query's
    /// children; otherwise every child the query holds.
    /// - Complexity: O(t log n) for t changed children; O(1) for a whole save
    ///   (its children are found where it is written).
    private func cacheWork() -> CacheWork {
        let identity = cacheIdentity
        let changed = takeCacheChanges()
        if let file = cacheFile, file.identity == identity, !changed.overflow {
            return .changes(changed.keys.map { ($0, view.shownChild($0) ?? .absent(key: $0)) }, file)
        }
        // The children are found away from the main actor.
        return .whole(held: view.cache, query: view.query, identity: identity)
    }

    /// Writes what changed since the last save, away from the main actor,
    /// unless a write runs (then once it is done).
    private func startCacheWrite(_ cache: CollectionCache) {
        guard !cacheWriting else {
            cacheDirty = true
            return
        }
        cacheWriting = true
        let work = cacheWork(), changes = cacheChanges, forgets = cacheForgets
        lastCacheWrite = Task { [weak self] in
            let result = await Self.write(work, to: cache)
            self?.finishCacheWrite(result, changes: changes, forgets: forgets)
        }
    }

    private func finishCacheWrite(_ result: Result<CacheSave, DatabaseError>, changes: Int, forgets: Int) {
        cacheWriting = false
        guard forgets == cacheForgets else {
            // Refused by the server while it was written: not kept.
            cacheFile = nil
            cache?.remove(cacheIdentity)
            return
        }
        switch result {
        case .success(.saved(let file)):
            cacheFile = file
            cacheTooLargeAt = nil
            cacheSavedChanges = changes
            cacheError = nil
        case .success(.tooLarge):
            cacheFile = nil
            cacheTooLargeAt = view.count
            cacheSavedChanges = changes
            cacheError = nil
        case .success(.needsWhole):
            // Written whole at once.
            cacheFile = nil
            cacheDirty = true
        case .failure(let error):
            // Written whole next time.
            cacheFile = nil
            cacheError = error
        }
        if cacheDirty {
            cacheDirty = false
            saveCacheSoon(now: true)
        }
    }

    /// Writes `work`: the children changed on the concurrency pool; every
    /// child on a thread of its own (``ThreadedWork``), so that a large
    /// window read and written keeps no thread of the pool.
    private static func write(_ work: CacheWork, to cache: CollectionCache) async
        -> Result<CacheSave, DatabaseError> {
        switch work {
        case .whole(let held, let query, let identity):
            return await ThreadedWork {
                Result { () throws(DatabaseError) in try cache.save(QueryView.shown(of: held, under: query), for: identity) }
            }.value()
        case .changes(let changes, let file):
            return await append(changes, to: file, in: cache)
        }
    }

    @concurrent
    nonisolated private static func append(_ changes: [(key: Key, value: Snapshot)], to file: CacheFile,
                                           in cache: CollectionCache) async -> Result<CacheSave, DatabaseError> {
        Result { () throws(DatabaseError) in try cache.append(changes, to: file) }
    }

    /// Saves the children the query holds to the ``cache`` now, and returns
    /// once they are on disk: for an app about to be suspended, and for
    /// tests. Only what the server confirmed is saved: nothing while the
    /// cached children are shown unconfirmed, or while a new query waits
    /// for its value.
    /// - Throws: ``DatabaseError/cache(_:)`` when the file cannot be written.
    /// - Complexity: O(size of the children's text).
    public func saveCache() async throws(DatabaseError) {
        cacheSave?.cancel()
        cacheSave = nil
        while cacheWriting, let writing = lastCacheWrite { await writing.value }
        while let cache, canSaveCache, cacheChanges != cacheSavedChanges, !isTooLargeForCache {
            cacheWriting = true
            let work = cacheWork(), changes = cacheChanges, forgets = cacheForgets
            let result = await Self.write(work, to: cache)
            if case .success(.needsWhole) = result {
                // Appending was refused: written whole now.
                cacheWriting = false
                cacheFile = nil
                continue
            }
            finishCacheWrite(result, changes: changes, forgets: forgets)
            _ = try result.get()
            return
        }
    }

    /// Forgets the cached children of a collection the server refused.
    func forgetCache() {
        cacheForgets += 1
        cacheConfirmed = false
        cacheFile = nil
        cache?.remove(cacheIdentity)
    }
}

/// What one save of a collection's cache writes.
enum CacheWork: Sendable {
    /// Every child the query shows, as `identity`'s file: those of a view
    /// of `query` holding `held` (its ``QueryView/cache``, taken in O(1);
    /// the children are read where the file is written).
    case whole(held: [Key: Snapshot], query: DatabaseQuery, identity: String)
    /// The children changed since `file` was read or written, and their
    /// values now (absent for one that left).
    case changes([(key: Key, value: Snapshot)], CacheFile)
}
