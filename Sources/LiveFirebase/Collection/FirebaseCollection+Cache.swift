// FirebaseCollection+Cache.swift — a cache-first start, and keeping the
// cache up to date.
import LiveCollection
import LiveModel

extension FirebaseCollection {
    /// What identifies this collection's file in its cache: the location
    /// and the query the stream asks for.
    var cacheIdentity: String { CollectionCache.identity(reference, view.query) }

    /// Starts showing the cache's children, when there is a cache, nothing
    /// is loaded and its file holds this query's: read and parsed away from
    /// the main actor, then applied as a first load, whose status is
    /// ``CollectionStatus/cached``. The stream's messages wait for it.
    func showCached() {
        guard let cache, !hasLoaded, cacheLoad == nil else { return }
        let identity = cacheIdentity, order = view.query.order
        cacheLoad = Task { [weak self] in
            guard let payload = await Self.readCache(cache, identity, order) else { return }
            await self?.applyCached(payload)
        }
    }

    /// The cached children of `identity` as a `put`, or nil when there are
    /// none (or the file is not whole).
    @concurrent
    nonisolated static func readCache(_ cache: CollectionCache, _ identity: String, _ order: QueryOrder) async
        -> StreamPayload? {
        guard let bytes = cache.load(identity) else { return nil }
        return try? StreamPayload.parse(json: bytes, kind: .put, order: order)
    }

    private func applyCached(_ payload: StreamPayload) async {
        defer { cacheLoad = nil }
        // Not if something came first: a value from elsewhere, a stop.
        guard !hasLoaded, stream != nil else { return }
        applyingCache = true
        defer { applyingCache = false }
        await handle(.put(payload))
    }

    /// Saves the children to the cache after its interval (now with
    /// `now`), unless a save is already waiting: changes meanwhile are
    /// saved together. Nothing is saved before the server's value is in.
    func saveCacheSoon(now: Bool = false) {
        guard let cache, hasLoaded, status != .cached else { return }
        if now {
            cacheSave?.cancel()
            cacheSave = nil
            save(to: cache)
            return
        }
        guard cacheSave == nil else { return }
        let wait = cacheWait
        cacheSave = Task { [weak self] in
            await wait(cache.interval)
            guard !Task.isCancelled, let self else { return }
            self.cacheSave = nil
            self.save(to: cache)
        }
    }

    /// Saves the children the query holds now, away from the main actor.
    /// - Complexity: O(n) here for n children; the writing is done elsewhere.
    private func save(to cache: CollectionCache) {
        let children = view.visible, identity = cacheIdentity
        // One write at a time, in order: an older state never lands last.
        // One that fails leaves the file before it; the next change saves again.
        let previous = lastCacheWrite
        lastCacheWrite = Task.detached(priority: .utility) {
            await previous?.value
            try? cache.save(children, for: identity)
        }
    }

    /// Saves the children the query holds to the ``cache`` now, and returns
    /// once they are on disk: for an app about to be suspended, and for
    /// tests. Nothing is saved before the server's value is in.
    /// - Throws: ``DatabaseError/cache(_:)`` when the file cannot be written.
    /// - Complexity: O(size of the children's text).
    public func saveCache() async throws(DatabaseError) {
        guard let cache, hasLoaded, status != .cached else { return }
        cacheSave?.cancel()
        cacheSave = nil
        let children = view.visible, identity = cacheIdentity
        let previous = lastCacheWrite
        let write = Task.detached(priority: .utility) { () -> Result<Void, DatabaseError> in
            await previous?.value
            do throws(DatabaseError) { try cache.save(children, for: identity) } catch { return .failure(error) }
            return .success(())
        }
        lastCacheWrite = Task { _ = await write.value }
        try await write.value.get()
    }
}
