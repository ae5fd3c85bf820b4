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
        guard let cache, !hasLoaded, cacheLoad == nil else { return }
        let identity = cacheIdentity, order = view.query.order
        cacheLoads += 1
        let load = cacheLoads
        cacheLoad = Task { [weak self] in
            let payload = await Self.readCache(cache, identity, order)
            await self?.applyCached(payload, identity: identity, load: load)
            // The writes kept with the cache show over its children.
            self?.restoreWrites()
        }
    }

    /// Drops a cache read under way (the query changed before anything
    /// loaded): what it reads is not applied.
    func dropCacheLoad() {
        cacheLoad = nil
        cacheLoads += 1
    }

    /// The cached children of `identity` as a `put`, or nil when there are
    /// none (or the file is not whole).
    @concurrent
    nonisolated static func readCache(_ cache: CollectionCache, _ identity: String, _ order: QueryOrder) async
        -> StreamPayload? {
        guard let bytes = cache.load(identity) else { return nil }
        return try? StreamPayload.parse(json: bytes, kind: .put, order: order)
    }

    private func applyCached(_ payload: StreamPayload?, identity: String, load: Int) async {
        guard load == cacheLoads else { return } // dropped
        defer { cacheLoad = nil }
        // Not if something came first (a value from elsewhere, a stop), nor
        // for another query than the one read (set meanwhile).
        guard let payload, !hasLoaded, stream != nil || listensWhenOnline, identity == cacheIdentity else { return }
        await handle(.put(payload), fromCache: true)
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
        guard let cache, canSaveCache, cacheChanges != cacheSavedChanges else { return }
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

    /// Writes the children the query holds now, away from the main actor,
    /// unless a write runs (then once it is done).
    /// - Complexity: O(n) here for n children; the writing is done elsewhere.
    private func startCacheWrite(_ cache: CollectionCache) {
        guard !cacheWriting else {
            cacheDirty = true
            return
        }
        cacheWriting = true
        let children = view.visible, identity = cacheIdentity, changes = cacheChanges
        lastCacheWrite = Task { [weak self] in
            let result = await Self.write(children, identity, to: cache)
            self?.finishCacheWrite(result, changes: changes)
        }
    }

    private func finishCacheWrite(_ result: Result<Void, DatabaseError>, changes: Int) {
        cacheWriting = false
        switch result {
        case .success:
            cacheSavedChanges = changes
            cacheError = nil
        case .failure(let error):
            cacheError = error
        }
        if cacheDirty {
            cacheDirty = false
            saveCacheSoon(now: true)
        }
    }

    @concurrent
    nonisolated private static func write(_ children: [Snapshot], _ identity: String, to cache: CollectionCache) async
        -> Result<Void, DatabaseError> {
        do throws(DatabaseError) { try cache.save(children, for: identity) } catch { return .failure(error) }
        return .success(())
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
        guard let cache, canSaveCache, cacheChanges != cacheSavedChanges else { return }
        cacheWriting = true
        let children = view.visible, identity = cacheIdentity, changes = cacheChanges
        let result = await Self.write(children, identity, to: cache)
        finishCacheWrite(result, changes: changes)
        try result.get()
    }

    /// Forgets the cached children of a collection the server refused.
    func forgetCache() {
        cacheConfirmed = false
        cache?.remove(cacheIdentity)
    }
}
