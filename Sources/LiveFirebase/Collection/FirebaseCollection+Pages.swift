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
    /// are full and the query's own limit is not reached.
    /// - Complexity: O(1).
    public var hasMorePages: Bool {
        guard mode.pageSize != nil, let limit = view.query.limit else { return false }
        return view.count >= limit.count && limit.count < (query.limit?.count ?? Int.max)
    }

    /// Loads the next page and returns once it is in, as one batch: the
    /// children after the loaded ones (``LoadMode/paged(size:)``), or
    /// before them (``LoadMode/pagedFromEnd(size:)``: rows prepended above
    /// those shown, which a list view keeps in place by moving its offset
    /// by the rows added). Does nothing when ``hasMorePages`` is false.
    /// - Returns: The number of rows the page added: in
    ///   ``LoadMode/pagedFromEnd(size:)``, the rows now before the row that
    ///   was first (rows `0..<n`); otherwise the rows added after.
    /// - Throws: as ``start()``.
    /// - Complexity: the stream sends the whole window again (the loaded
    ///   pages and the new one); the collection changes by the new children
    ///   only, O(p log n) for p of them.
    @discardableResult
    public func loadNextPage() async throws(DatabaseError) -> Int {
        guard mode.pageSize != nil, hasMorePages else { return 0 }
        let first = collection.count > 0 ? collection.key(at: 0) : nil, before = collection.count
        pages += 1
        // The new window holds the old one: seed it with what is shown, so
        // the stream's first value changes only what is new.
        let next = QueryView(query: Self.effectiveQuery(query, mode: mode, pages: pages))
        next.seed(view.visible)
        next.adoptLocalWrites(of: view)
        view = next
        stream?.stop()
        stream = nil
        open()
        try await waitForLoad()
        guard case .pagedFromEnd = mode else { return max(0, collection.count - before) }
        return first.flatMap { collection.position(of: $0) } ?? collection.count
    }
}
