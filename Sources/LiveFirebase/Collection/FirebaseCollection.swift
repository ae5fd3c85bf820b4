// FirebaseCollection.swift — a sorted collection kept in sync with a query
// of a Realtime Database location.
import LiveCollection
import LiveModel

/// A `SortedCollection` kept equal to a query of a database location, in
/// one of three ``LoadMode``s; the sectioned layer (`SectionedCollection`)
/// sits on its ``collection`` like on any other.
///
/// ```swift
/// let messages = try FirebaseCollection(
///     reference: try DatabaseReference(url: "https://my-app.firebaseio.com", path: "/rooms/lobby"),
///     query: DatabaseQuery(order: .child("sentAt")).limited(toLast: 100),
///     mode: .all,
///     dataSource: DecodingDataSource<Message>())
/// try await messages.start()          // returns once the first load is in
/// messages.collection.count           // observe `collection` for changes
/// messages.stop()                     // keeps the data; start() resyncs
/// ```
///
/// - Every reconnect (and every ``start()`` after ``stop()``) brings the
///   location's whole value again; it is turned into the smallest change
///   against what the collection holds, applied as one batch: never a
///   reload, never a duplicate or lost child.
/// - Child events (``observeChildEvents(_:)``) come in Firebase's order per
///   update, then a value callback (``observeValue(_:)``); the collection's
///   own observers get positions, and a `SectionedCollection` on it index
///   paths.
/// - Nothing the server sends can crash it: a removal of an absent child or
///   a change of an unknown one is reconciled from what it holds.
@MainActor
public final class FirebaseCollection<Source: ModelDataSource> {
    /// The models' type: the data source's.
    public typealias Model = Source.Model

    /// The location.
    public let reference: DatabaseReference
    /// The query, as given (``LoadMode/paged(size:)`` narrows its limit).
    public internal(set) var query: DatabaseQuery
    /// How children load.
    public let mode: LoadMode
    /// The models, in query order.
    public let collection: SortedCollection<Model>
    /// The feed turning children into models through the data source.
    package let feed: CollectionFeed<Source>
    /// Where listening stands.
    public internal(set) var status: CollectionStatus = .stopped {
        didSet {
            guard status != oldValue else { return }
            tellStatus()
            // A connection works: writes waiting for one go.
            if status == .live { resumeWrites() }
        }
    }
    /// Number of pages asked for (in ``LoadMode/paged(size:)`` and
    /// ``LoadMode/pagedFromEnd(size:)``; 1 otherwise).
    public internal(set) var pages = 1
    /// How far the current connection's first `put` has arrived (nil before
    /// its first bytes); observe it with ``observeProgress(_:)``.
    public internal(set) var loadProgress: LoadProgress?
    /// What the first load cost, phase by phase (nil until it is in).
    public internal(set) var firstLoad: LoadPhases?

    /// Orders every child of a whole value in bulk and makes their models
    /// (``PreparedFill/init(everyChildOf:count:order:prepare:)``).
    @usableFromInline
    typealias BulkFill = @Sendable (Snapshot, Int, QueryOrder, @escaping @Sendable (Snapshot) throws -> Preparation<Model>)
        -> sending PreparedFill<Model>?
    let bulkFill: BulkFill
    /// (Another view, another query's window: the next save writes its
    /// children whole.)
    var view: QueryView {
        didSet {
            guard view !== oldValue else { return }
            cacheFile = nil
            // Neither is what the server last confirmed, until it says so
            // again (a view put back by a failed query may be stale).
            oldValue.isConfirmed = false
            view.isConfirmed = false
            shareView(replacing: oldValue)
        }
    }
    let opener: StreamOpener
    var stream: OpenedStream?
    var consumer: Task<Void, Never>?
    /// Number of the current stream, moved on by every open and stop:
    /// messages of an older one are ignored.
    package internal(set) var generation = 0
    /// Whether the first load has been applied (later loads are resyncs).
    var hasLoaded = false
    /// Callers of `start()` / `loadNextPage()` waiting for the next whole value.
    var loadWaiters: [CheckedContinuation<Void, any Error>] = []
    /// Observers of each kind, told in the order they were added.
    var childObservers = ObserverList<(ChildEvent) -> Void>()
    var valueObservers = ObserverList<() -> Void>()
    var statusObservers = ObserverList<(CollectionStatus) -> Void>()
    var progressObservers = ObserverList<(LoadProgress) -> Void>()
    /// While a new query's first value is awaited (``setQuery(_:)``): what
    /// is shown, and what to go back to.
    var replacing: Replacement?
    /// Messages waiting while a new query's first value is prepared away
    /// from the main actor: they apply after it, as they came.
    var waitingForReplacement: [CheckedContinuation<Void, Never>]?
    /// Which children of the query the collection shows (``setFilter(_:)``).
    var filter: ChildFilter?
    /// Counts the filters set; the rows reflect ``shownFilterVersion``'s
    /// (a filter set while a load was under way is applied once it is in).
    var filterVersion = 0
    var shownFilterVersion = 0
    /// When the complete ``loadProgress`` reached this actor.
    var parsedAt: ContinuousClock.Instant?
    /// Where the children are kept between runs, if anywhere.
    public let cache: CollectionCache?
    /// What this collection shares with the other collections of its
    /// database, if anything.
    public let sharedCache: SharedCache?
    /// The cached children being shown at start; the stream's messages wait for it.
    var cacheLoad: Task<Void, Never>?
    /// Counts the cache reads started; a dropped one is not applied.
    var cacheLoads = 0
    /// Whether the cache's children are shown and the server has not
    /// confirmed them yet.
    var showsCached = false
    /// Whether the server confirmed what the view holds (its value for this
    /// stream came); only then is it saved, and shared with the
    /// ``sharedCache``'s other collections.
    var cacheConfirmed = false { didSet { view.isConfirmed = cacheConfirmed } }
    /// Updates applied, and the count the last successful save had.
    var cacheChanges = 0
    var cacheSavedChanges = -1
    /// The save waiting for the cache's interval.
    var cacheSave: Task<Void, Never>?
    /// The write running, if any; a save asked for meanwhile follows it.
    var lastCacheWrite: Task<Void, Never>?
    var cacheWriting = false
    var cacheDirty = false
    /// The file as this collection last read or wrote it (nil: not known,
    /// so the next save writes it whole), and the children changed since.
    var cacheFile: CacheFile?
    var cacheChangedKeys = Set<Key>()
    var cacheChangesOverflow = false
    /// Counts the times the server refused the collection (its file was
    /// deleted): a save under way then is not kept.
    var cacheForgets = 0
    /// How many children the window held when they were found too large to
    /// keep: nothing is saved while it holds as many, until a save succeeds.
    var cacheTooLargeAt: Int?
    /// How long a first load in ``LoadMode/live`` adds children before the
    /// main actor runs other work (tests make it zero).
    package var liveLoadSlice: Duration = .milliseconds(8)
    /// Called away from the main actor as a page's view is seeded with the
    /// rows shown (``loadNextPage()``): tests hold the seeding there.
    package var seedingPage: (@Sendable () -> Void)?
    /// The view whose first load in ``LoadMode/live`` a new query cut
    /// short: if that query fails and the view comes back, so do its rows.
    weak var liveLoadCut: QueryView?
    /// Why the last save to the ``cache`` failed; nil once one succeeds.
    public internal(set) var cacheError: DatabaseError?
    /// How writes made through the collection reach the database.
    public let writer: WriteSender
    /// Where the collection is recorded, if it is (``record(into:)``).
    var flightRecorder: FlightRecorder?
    /// Attaches ``flightRecorder`` again, with the same sections: a new
    /// part of the recording, from what the collection holds then.
    var recordAgain: (() -> Void)?
    var pushIDs = PushIDGenerator()
    var nextWriteID = 1
    /// Writes made and not answered yet, in order (on disk with a cache);
    /// the first is sent, one at a time.
    let writeQueue: WriteQueue
    var sendingWrite = false
    /// Whether the queue's writes from an earlier run are shown yet.
    var writesRestored = false
    /// Whether writes wait for a connection (one failed, or they were
    /// restored): they go once the collection is live, or after a backoff.
    var writesWaitForConnection = false
    /// Connection failures of writes in a row, for the backoff.
    var writeFailures = 0
    var writeRetry: Task<Void, Never>?
    /// Whether the collection is offline (``goOffline()``), and whether it
    /// listens again when back online.
    public internal(set) var isOffline = false
    var listensWhenOnline = false
    /// Whether a ``loadNextPage()`` runs (one at a time).
    var loadingPage = false
    /// The outcomes of the last writes finished (nil: confirmed).
    var finishedWrites: [Int: DatabaseError?] = [:]
    var writeWaiters: [Int: [CheckedContinuation<DatabaseError?, Never>]] = [:]
    var writeObservers = ObserverList<(Int, WriteState) -> Void>()
    /// How a save waits for the cache's interval (tests replace it).
    package var cacheWait: @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
    /// How writes wait before trying a connection again (tests replace it).
    package var writeRetryWait: @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }

    /// A collection of `query` at `reference`, not started yet.
    /// - Parameters:
    ///   - reference: The location, with its credentials.
    ///   - query: Which children to show; every child, in priority order,
    ///     by default.
    ///   - mode: How children load; ``LoadMode/live`` by default.
    ///   - dataSource: Turns each child's snapshot into a model.
    ///   - opener: How the stream is opened (the real database by default;
    ///     ``StreamOpener/offline`` for a collection fed by hand).
    ///   - cache: Where to keep the children between runs; none by default.
    ///     With one, ``start()`` shows what was kept at once (status
    ///     ``CollectionStatus/cached``), and the server's value then
    ///     replaces it as the smallest change.
    ///   - writer: How writes made through the collection (``write(_:)``)
    ///     are sent; the REST API by default.
    ///   - sharedCache: Shares what the collection holds with the other
    ///     collections made with it; none by default. With one,
    ///     ``start()`` first shows what the others hold of this location
    ///     (status ``CollectionStatus/cached``): in place of a ``cache``'s
    ///     file when they hold its whole value, or when there is no file.
    /// - Throws: ``DatabaseError/invalidQuery(_:)`` for a query Firebase
    ///   refuses, or a page size below 1; ``DatabaseError/cache(_:)`` for a
    ///   cache (or a shared cache) without a scope on a reference with
    ///   credentials (one user's children and queued writes must never
    ///   reach another).
    @inlinable
    public convenience init(reference: DatabaseReference, query: DatabaseQuery = DatabaseQuery(), mode: LoadMode = .live,
                            dataSource: Source, opener: StreamOpener = .database(),
                            cache: CollectionCache? = nil, writer: WriteSender = .database(),
                            sharedCache: SharedCache? = nil) throws(DatabaseError) {
        // Made here, in the caller's module, where `Model` is known: a first
        // load's models are then made and ordered by code compiled for them
        // rather than through generic metadata for every child.
        try self.init(reference: reference, query: query, mode: mode, dataSource: dataSource, opener: opener,
                      cache: cache, writer: writer, sharedCache: sharedCache, bulkFill: { PreparedFill(everyChildOf: $0, count: $1, order: $2, prepare: $3) })
    }

    /// The designated initializer; `bulkFill` is
    /// ``PreparedFill/init(everyChildOf:count:order:prepare:)`` for `Model`.
    @usableFromInline
    init(reference: DatabaseReference, query: DatabaseQuery, mode: LoadMode, dataSource: Source,
         opener: StreamOpener, cache: CollectionCache? = nil, writer: WriteSender = .database(),
         sharedCache: SharedCache? = nil, bulkFill: @escaping BulkFill) throws(DatabaseError) {
        self.bulkFill = bulkFill
        self.writer = writer
        self.cache = cache
        self.sharedCache = sharedCache
        if let size = mode.pageSize, size < 1 { throw .invalidQuery("the page size must be at least 1, not \(size)") }
        if let cache, cache.scope.isEmpty, reference.credentials.isSome {
            throw .cache("""
                a cache for a location reached with credentials needs a scope: the signed-in user's id \
                (CollectionCache(directory:scope:)), so that their children and queued writes are never \
                shown to, or sent as, another user
                """)
        }
        if let sharedCache, sharedCache.scope.isEmpty, reference.credentials.isSome {
            throw .cache("""
                a shared cache for a location reached with credentials needs a scope: the signed-in user's id \
                (SharedCache(scope:)), so that one user's children are never shown to another
                """)
        }
        try Self.checkPaging(query, mode: mode)
        self.reference = reference
        self.query = try query.checked()
        self.mode = mode
        self.opener = opener
        collection = SortedCollection<Model>(order: query.order)
        feed = CollectionFeed(collection: collection, dataSource: dataSource)
        view = QueryView(query: Self.effectiveQuery(query, mode: mode, pages: 1))
        writeQueue = cache.map { WriteQueue(cache: $0, reference: reference) } ?? WriteQueue()
        nextWriteID = (writeQueue.entries.map(\.id).max() ?? 0) + 1
        shareView(replacing: nil)
    }

    /// Makes the current view known to the ``sharedCache``, in place of
    /// `old`.
    private func shareView(replacing old: QueryView?) {
        guard let registry = sharedCache?.registry(for: reference.database) else { return }
        if let old { registry.remove(old) }
        registry.add(view, at: reference.path.keys)
    }

    // MARK: Starting and stopping

    /// Starts listening and returns once the location's value is loaded
    /// (at once if already listening and loaded). With a ``cache`` holding
    /// this query's children from an earlier run, and nothing loaded yet,
    /// they are shown first, as one batch, while the stream connects.
    /// - Throws: ``DatabaseError`` when the stream ends before loading
    ///   (permission denied, a refused query, …), or ``DatabaseError/stopped``
    ///   if ``stop()`` is called first.
    public func start() async throws(DatabaseError) {
        if stream == nil {
            showCached()
            open()
        } else if status == .live {
            return
        }
        try await waitForLoad()
    }

    /// Stops listening. The data stays; ``start()`` resyncs it. Writes made
    /// through the collection (``write(_:)``) are still sent and answered.
    public func stop() {
        saveCacheSoon(now: true)
        // Not listening: what it holds is not shared as the server's.
        view.isConfirmed = false
        listensWhenOnline = false
        if status == .offline {
            status = .stopped
            failWaiters(.stopped)
        }
        guard let stream else { return }
        stream.stop()
        self.stream = nil
        generation += 1
        consumer = nil
        status = .stopped
        failWaiters(.stopped)
    }

    func open() {
        guard !isOffline else {
            // Opened by goOnline().
            listensWhenOnline = true
            status = .offline
            return
        }
        generation += 1
        let current = generation
        let opened = opener.open(reference, view.query)
        stream = opened
        // Not confirmed until this stream's value comes.
        cacheConfirmed = false
        status = showsCached ? .cached : .connecting
        let cached = cacheLoad
        consumer = Task { [weak self] in
            // The cached children are shown first.
            await cached?.value
            for await message in opened.messages {
                guard let self, self.generation == current, self.stream != nil else { return }
                await self.handle(message)
            }
        }
    }

    func waitForLoad() async throws(DatabaseError) {
        do {
            try await withCheckedThrowingContinuation { loadWaiters.append($0) }
        } catch let error as DatabaseError {
            throw error
        } catch {
            throw .transport(String(describing: error))
        }
    }

    func resumeWaiters() {
        let waiters = loadWaiters
        loadWaiters.removeAll()
        for w in waiters { w.resume() }
    }

    func failWaiters(_ error: DatabaseError) {
        let waiters = loadWaiters
        loadWaiters.removeAll()
        for w in waiters { w.resume(throwing: error) }
    }
}
