// FirebaseCollection+Cache.swift — a cache-first start, and keeping the
// cache up to date with what the server confirmed.
import LiveCollection
import LiveModel

extension FirebaseCollection {
    /// What identifies this collection's file in its cache: the cache's
    /// scope, the location and the query the stream asks for.
    var cacheIdentity: String { cache?.identity(reference, view.query) ?? "" }

    /// Starts showing, when nothing is loaded, what is kept of this query:
    /// the whole value the other collections of the ``sharedCache`` hold
    /// (newer than a file), else the ``cache``'s file when it holds this
    /// query's children, else the children the shared cache knows. Read
    /// and parsed away from the main actor, then applied with the status
    /// ``CollectionStatus/cached`` (a whole value as a first load), then
    /// the writes the cache kept over them. The stream's messages (and
    /// ``receive(_:)``) wait for it.
    func showCached() {
        guard !hasLoaded, cacheLoad == nil else { return }
        let data = sharedCache?.known(at: reference)
        guard cache != nil || data != nil else { return }
        let knownIsWhole = data?.isWhole ?? false
        let known = data.map(Handover.init)
        let identity = cacheIdentity, query = view.query, cache = cache
        cacheLoads += 1
        let load = cacheLoads
        cacheLoad = Task { [weak self] in
            var shown = false
            if let known, cache == nil || knownIsWhole {
                shown = await self?.applyShared(known, query: query, load: load) ?? false
            } else if let cache {
                let read = await Self.readCache(cache, identity, query.order)
                shown = await self?.applyCached(read, identity: identity, load: load) ?? false
                if !shown, let known { shown = await self?.applyShared(known, query: query, load: load) ?? false }
            }
            guard let self else { return }
            if load == self.cacheLoads { self.cacheLoad = nil }
            // The writes kept with the cache show over its children.
            self.restoreWrites()
        }
    }

    /// Shows what the ``sharedCache`` knows of this location (written out
    /// and parsed on a thread of its own), as ``applyCached(_:identity:load:)``
    /// shows a file's: a whole value as a first load, known children each
    /// whole (the rest unknown until the stream's value).
    /// - Returns: Whether it was shown.
    private func applyShared(_ known: Handover<KnownData>, query: DatabaseQuery, load: Int) async -> Bool {
        let payload = await SharedCache.payload(known, order: query.order)
        // Not if dropped, if something came first, nor for another query.
        guard load == cacheLoads, let payload, !hasLoaded, stream != nil || listensWhenOnline, query == view.query
        else { return false }
        await handle(payload.kind == .put ? .put(payload) : .patch(payload), fromCache: true)
        return showsCached
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

    /// Shows a file's children as a first load.
    /// - Returns: Whether they were shown.
    private func applyCached(_ read: (payload: StreamPayload, file: CacheFile)?, identity: String, load: Int) async
        -> Bool {
        // Not if dropped, if something came first (a value from elsewhere,
        // a stop), nor for another query than the one read (set meanwhile).
        guard load == cacheLoads, let read, !hasLoaded, stream != nil || listensWhenOnline, identity == cacheIdentity
        else { return false }
        await handle(.put(read.payload), fromCache: true)
        // Shown: what changes them from now on (and what the writes shown
        // over them change) is appended to the file read.
        if showsCached, identity == cacheIdentity { cacheFile = read.file }
        return showsCached
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
        return .whole(held: Handover(view.cache), query: view.query, identity: identity)
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
                let children = held.take().map { QueryView.shown(of: $0, under: query) } ?? []
                return Result { () throws(DatabaseError) in try cache.save(children, for: identity) }
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
    /// of `query` holding `held` (its ``QueryView/cache``, taken in O(1),
    /// handed over: the children are found where the file is written, and
    /// the table let go there).
    case whole(held: Handover<[Key: Snapshot]>, query: DatabaseQuery, identity: String)
    /// The children changed since `file` was read or written, and their
    /// values now (absent for one that left).
    case changes([(key: Key, value: Snapshot)], CacheFile)
}
