// FirebaseCollection+Pages.swift — paging: the window the stream asks for,
// and loading the next page (after the loaded ones, or before them from the
// end).
import LiveCollection
import LiveModel

extension FirebaseCollection {
    /// The query the stream asks for: the given one, with a limit of the
    /// loaded pages in ``LoadMode/paged(size:)`` and
    /// ``LoadMode/pagedFromEnd(size:)``.
    public var effectiveQuery: DatabaseQuery { view.query }

    static func effectiveQuery(_ query: DatabaseQuery, mode: LoadMode, pages: Int) -> DatabaseQuery {
        guard let size = mode.pageSize else { return query }
        let (n, overflow) = size.multipliedReportingOverflow(by: pages)
        let wanted = overflow ? Int.max : n
        var q = query
        switch query.limit {
        case .first(let m)?: q.limit = .first(min(m, wanted))
        case .last(let m)?: q.limit = .last(min(m, wanted))
        case nil: q.limit = mode == .pagedFromEnd(size: size) ? .last(wanted) : .first(wanted)
        }
        return q
    }

    /// Refuses a query that `mode` cannot page.
    /// - Throws: ``DatabaseError/invalidQuery(_:)`` for a `limitToFirst`
    ///   query in ``LoadMode/pagedFromEnd(size:)``.
    static func checkPaging(_ query: DatabaseQuery, mode: LoadMode) throws(DatabaseError) {
        if case .pagedFromEnd = mode, case .first? = query.limit {
            throw .invalidQuery("pages from the end need a query without limitToFirst (use limitToLast, or none)")
        }
    }

    /// Whether ``loadNextPage()`` can bring more children: the loaded pages
    /// are full (or, from the end, anchored at their oldest child) and the
    /// query's own limit is not reached.
    /// - Complexity: O(1).
    public var hasMorePages: Bool {
        guard mode.pageSize != nil else { return false }
        let cap = query.limit?.count ?? Int.max
        if case .pagedFromEnd = mode, view.query.start != query.start { return view.count < cap }
        guard let limit = view.query.limit else { return false }
        return view.count >= limit.count && limit.count < cap
    }

    /// Loads the next page and returns once it is in, as one batch: the
    /// children after the loaded ones (``LoadMode/paged(size:)``), or
    /// before them (``LoadMode/pagedFromEnd(size:)``: rows prepended above
    /// those shown, which a list view keeps in place by moving its offset
    /// by the rows added). Does nothing when ``hasMorePages`` is false, or
    /// while another page loads.
    ///
    /// From the end, the window then starts at the oldest child loaded
    /// (`startAt` its sort value, no limit but the query's own): children
    /// added at the end add rows, and none that was loaded leaves. Where an
    /// older child ties with it (the same sort value, which a bound cannot
    /// tell apart over REST), or its sort value is an object, the window
    /// stays the last children (`limitToLast`).
    ///
    /// Recorded (``record(into:sectionBy:sections:)``), the page starts a
    /// new part of the recording once it is in: the window now loaded.
    /// - Returns: The number of rows the page added: in
    ///   ``LoadMode/pagedFromEnd(size:)``, the rows now before the row that
    ///   was first (rows `0..<n`); otherwise the rows added after.
    /// - Throws: as ``start()``.
    /// - Complexity: the stream sends the whole window again (the loaded
    ///   pages and the new one; from the end, twice: grown, then anchored,
    ///   after a read of the few children tied with the oldest); the
    ///   collection changes by the new children only, O(p log n) for p of
    ///   them. The new window's view is seeded with the rows shown away
    ///   from the main actor (on it while writes of this client are shown,
    ///   or when the rows keep changing as it is seeded).
    @discardableResult
    public func loadNextPage() async throws(DatabaseError) -> Int {
        guard let size = mode.pageSize, hasMorePages, !loadingPage else { return 0 }
        // Recorded: the page is a new part of the recording (its window),
        // once it is in; what loading it told is not.
        // Not if the app stopped it or attached another recorder meanwhile.
        let recorder = flightRecorder, recordAgain = self.recordAgain
        recorder?.stop()
        let stops = recorder?.stops
        defer { if let recorder, flightRecorder == nil, recorder.stops == stops { recordAgain?() } }
        loadingPage = true
        defer { loadingPage = false }
        let first = collection.count > 0 ? collection.key(at: 0) : nil, before = collection.count
        let asked = query
        // Counted once the window of one more page is shown.
        let page = pages + 1
        guard case .pagedFromEnd = mode else {
            try await listen(to: Self.effectiveQuery(query, mode: mode, pages: page), page: page)
            await feed.settle()
            return max(0, collection.count - before)
        }
        // The window grows backwards by a page…
        let cap = query.limit?.count ?? Int.max
        let (sum, overflow) = view.count.addingReportingOverflow(size)
        let wanted = min(overflow ? Int.max : sum, cap)
        var grown = query
        grown.limit = .last(wanted)
        try await listen(to: grown, page: page)
        await feed.settle()
        let added = first.flatMap { collection.position(of: $0) } ?? max(0, collection.count - before)
        // …then starts at its oldest child (or, everything loaded, is the
        // query itself), so that children added at the end push none out.
        // Not if the query changed meanwhile; a failure here leaves the
        // page in, and the grown window listening again on start().
        guard query == asked, view.query == grown else { return added }
        do throws(DatabaseError) {
            if view.count < wanted, view.localWrites.isEmpty {
                try await listen(to: query)
            } else if view.count >= wanted, wanted < cap, let anchor = await oldestBound(),
                      query == asked, view.query == grown {
                var anchored = query
                anchored.start = anchor
                if let valid = try? anchored.validated() { try await listen(to: valid) }
            }
        } catch {
            return added
        }
        return added
    }

    /// Listens to `window`, a window that holds the one shown: the new view
    /// is seeded with what is shown, so the stream's first value changes
    /// only what is new (one batch). `page`, when given, is the number of
    /// pages the window holds: counted once it is shown.
    /// - Throws: ``DatabaseError/stopped`` when the collection is stopped
    ///   before the stream opens; as ``start()`` after.
    private func listen(to window: DatabaseQuery, page: Int? = nil) async throws(DatabaseError) {
        guard window != view.query else {
            if let page { pages = page }
            return
        }
        let old = view
        guard let next = await seeded(window) else {
            // Another query came meanwhile, with its own window; or the
            // collection stopped.
            if view === old { throw .stopped }
            return
        }
        view = next
        if let page { pages = page }
        stream?.stop()
        stream = nil
        open()
        try await waitForLoad()
    }

    /// A view of `window` seeded with what the view shows. Seeded away from
    /// the main actor when the view holds no write of this client; made
    /// again if the view changes meanwhile, and after three tries seeded
    /// here. Nil when the collection stopped or took another query
    /// meanwhile (going offline or online meanwhile is neither).
    /// - Complexity: O(1) on the main actor when made away from it; else
    ///   O(n log n) for n children shown.
    private func seeded(_ window: DatabaseQuery) async -> QueryView? {
        // Offline, the collection listens once online again: still listening.
        let old = view, wasListening = stream != nil || listensWhenOnline
        for _ in 0..<3 where old.canPlanWhole {
            let version = old.version
            let next = await Self.seed(window, held: old.cache, shownBy: old.query, seeding: seedingPage)
            guard view === old, !wasListening || stream != nil || listensWhenOnline else { return nil }
            if old.version == version, old.canPlanWhole { return next }
        }
        let next = QueryView(query: window)
        next.seed(old.visible)
        next.adoptLocalWrites(of: old)
        return next
    }

    /// A view of `window` seeded with the children a view of `query`
    /// holding `held` shows; `seeding` is called first.
    @concurrent
    nonisolated private static func seed(_ window: DatabaseQuery, held: [Key: Snapshot], shownBy query: DatabaseQuery,
                                         seeding: (@Sendable () -> Void)?) async -> sending QueryView {
        seeding?()
        let next = QueryView(query: window)
        next.seed(QueryView.visible(of: held, under: query))
        return next
    }

    /// The bound at the oldest child shown (`startAt` its sort value),
    /// when it holds exactly the children from it on: nil when there is
    /// none, its sort value is an object, or an older child ties with it.
    private func oldestBound() async -> DatabaseQuery.Bound? {
        let shown = view.visible
        guard let oldest = shown.first, let key = oldest.key else { return nil }
        if view.query.order == .key { return DatabaseQuery.Bound(value: .string(key.string)) }
        let value: JSONValue
        switch oldest.sortValue {
        case .null: value = .null
        case .bool(let b): value = .bool(b)
        case .number(let d): value = .number(d)
        case .string(let s): value = .string(s)
        case .object: return nil
        }
        guard let read = opener.read else {
            // Fed by hand: the view holds what there is.
            guard view.child(before: key)?.sortValue != oldest.sortValue else { return nil }
            return DatabaseQuery.Bound(value: value)
        }
        // The children up to its sort value, as many as the window holds
        // with it and one more: the first of them is older than it and
        // ties with it, or there is no such child.
        let tied = shown.prefix { $0.sortValue == oldest.sortValue }.count
        var probe = query
        probe.end = DatabaseQuery.Bound(value: value)
        probe.limit = .last(tied + 1)
        guard let valid = try? probe.validated(), let found = try? await read(reference, valid) else { return nil }
        let children = found.orderedChildren()
        if children.count == tied + 1, children[0].key != key, children[0].sortValue == oldest.sortValue { return nil }
        return DatabaseQuery.Bound(value: value)
    }
}
