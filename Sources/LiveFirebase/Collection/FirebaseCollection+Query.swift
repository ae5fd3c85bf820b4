// FirebaseCollection+Query.swift — changing a live collection's query: the
// new query's first value applied as the smallest change from what was shown.
import LiveCollection
import LiveModel

extension FirebaseCollection {
    /// Changes the query of a started collection, keeping its
    /// ``collection`` (and every `SectionedCollection` or observer on it):
    /// the collection listens with `newQuery` from now on, and once the new
    /// query's first value is in, it takes it as **one grouped change** from
    /// what was shown — rows that stay keep their place unless they move, and
    /// only rows whose data changed are updated — so a list view gets one
    /// minimal staged batch. Child event observers get the events a new
    /// listener of `newQuery` would get (a `child_added` for each child, in
    /// order), then one value event.
    ///
    /// A query in another order reorders the rows in the same change: each
    /// row that stays moves to its place in the new order (the fewest
    /// moves, see `SortedCollection.setOrder(_:sortValues:)`), and
    /// `SectionedCollection`s on the collection keep their sections, each
    /// row in the new order.
    ///
    /// The query it has already listens anew: the events are a new
    /// listener's, and rows change only if the data did. In the paging
    /// modes the pages start again from the first. A
    /// stopped collection listens again. One that has loaded nothing yet
    /// takes `newQuery` as the query to load (and, if it is not started,
    /// returns at once).
    ///
    /// Returns once the new value is in. Until then, stream messages other
    /// than that value are ignored, and ``hasMorePages`` is false. If the
    /// new query's stream ends before that (a refused query, permission
    /// denied), the collection listens with its old query again, resyncing
    /// with the smallest change, and the error is thrown. If the collection
    /// is stopped meanwhile, it goes back to the old query, stopped, and
    /// ``DatabaseError/stopped`` is thrown; if it is also started again
    /// before this returns, it keeps the new query, and the new stream's
    /// first value is taken as the change from what is shown.
    ///
    /// - Throws: ``DatabaseError/invalidQuery(_:)`` for a query Firebase
    ///   refuses; otherwise as ``start()``.
    /// - Complexity: On the main actor, O(t log n) for the t rows that go,
    ///   come or change, plus their preparation, and O(n log n) to reorder
    ///   the n rows when the order changes. The new value's indexing and
    ///   its comparison with the rows shown, O((n + m) log n) for m
    ///   children in it, run away from the main actor, unless writes of
    ///   this client are shown or a preparation is pending when it comes.
    public func setQuery(_ newQuery: DatabaseQuery) async throws(DatabaseError) {
        try await replaceQuery(newQuery, filter: filter)
    }

    /// Changes the query and the client-side filter of a started
    /// collection as one change: as ``setQuery(_:)``, with the new query's
    /// first value filtered by `newFilter` (see ``setFilter(_:)``). If the
    /// query change fails, the old query and the old filter stay.
    /// - Parameters:
    ///   - newQuery: The query to listen with.
    ///   - newFilter: Whether to show a child of `newQuery`; nil shows them
    ///     all.
    /// - Throws: As ``setQuery(_:)``.
    /// - Complexity: As ``setQuery(_:)``, plus one call of `newFilter` per
    ///   child of the new value.
    public func setQuery(_ newQuery: DatabaseQuery, filter newFilter: ChildFilter?) async throws(DatabaseError) {
        flightRecorder?.note(.gap("setQuery"))
        try await replaceQuery(newQuery, filter: newFilter)
    }

    private func replaceQuery(_ newQuery: DatabaseQuery, filter newFilter: ChildFilter?) async throws(DatabaseError) {
        let validated = try newQuery.checked()
        try Self.checkPaging(validated, mode: mode)
        guard hasLoaded else {
            // Nothing shown yet: the new query is simply the one to load.
            query = validated
            if filter != nil || newFilter != nil { filterVersion += 1 }
            filter = newFilter
            reorder(to: validated.order, sortValues: [:])
            pages = 1
            let next = QueryView(query: Self.effectiveQuery(validated, mode: mode, pages: 1))
            next.adoptLocalWrites(of: view)
            view = next
            guard stream != nil || listensWhenOnline else { return }
            stream?.stop()
            stream = nil
            // A cache read for the old query is not for this one.
            dropCacheLoad()
            showCached()
            open()
            return try await waitForLoad()
        }
        // What the collection shows, and the query it shows: those of a
        // replacement still waiting for its value, if any.
        let pending = replacing
        let old = pending?.old ?? (query: query, view: view, pages: pages, filter: filter)
        // Taken as the view's children and query (O(1)): the rows are read
        // from them when the new value comes, away from the main actor.
        let shown = pending?.shown ?? ShownRows(held: view.cache, query: view.query)
        let next = QueryView(query: Self.effectiveQuery(validated, mode: mode, pages: 1))
        next.adoptLocalWrites(of: view)
        query = validated
        if filter != nil || newFilter != nil { filterVersion += 1 }
        filter = newFilter
        pages = 1
        view = next
        replacing = Replacement(shown: shown, old: old, shownChanged: pending?.shownChanged ?? false)
        stream?.stop()
        stream = nil
        open()
        do throws(DatabaseError) {
            try await waitForLoad()
        } catch {
            // The new query's stream failed, or the collection stopped: back
            // to the old query. Not when a stream opened since (another
            // query, or stop() then start()): the new query then stays, and
            // its first value is still taken as the change from what is shown.
            if stream == nil {
                // A filter set meanwhile is in the replacement's.
                let restored = replacing?.old ?? old
                replacing = nil
                query = restored.query
                restored.view.adoptLocalWrites(of: view)
                view = restored.view
                pages = restored.pages
                if filter != nil || restored.filter != nil { filterVersion += 1 }
                filter = restored.filter
                // A first load the new query cut short: the rows not added yet.
                if liveLoadCut === view {
                    liveLoadCut = nil
                    refilter()
                }
                // Listening again, unless the collection was stopped.
                if case .stopped = error {} else { open() }
            }
            throw error
        }
    }

    /// Applies the first value of a new query (``setQuery(_:)``): the new
    /// view takes it whole, raising the new listener's events, and the
    /// collection takes the difference from `shown` as one grouped change.
    /// - Returns: The child events.
    func applyReplacement(_ payload: StreamPayload, filtered: Bool?, shown rows: ShownRows,
                          shownChanged: Bool) -> [ChildEvent] {
        let shown = rows.byKey()
        let events = view.apply(payload, filtered: filtered)
        let order = view.query.order
        let plan = ReplacementPlan.plan(view, shown: shown, accepts: shows(child:), reorders: collection.order != order)
        shownFilterVersion = filterVersion
        collection.performBatch {
            applyReplacementPlan(plan, order: order, removingUnkept: shownChanged, exhaustive: true)
        }
        return events
    }
}

extension FirebaseCollection {
    /// Orders the collection by `order`, with the sort values given (others
    /// computed from their models). A model whose sort value cannot be
    /// computed (one added to the collection directly, whose `dictionary`
    /// throws) is removed rather than left in the old order.
    func reorder(to order: QueryOrder, sortValues: [Key: SortValue]) {
        while collection.order != order {
            do throws(OrderChangeError) {
                try collection.setOrder(order, sortValues: sortValues)
            } catch {
                guard case .sortValue(let key, _) = error else { return } // ordered in Swift: not ours
                feed.receiveRemoval(of: key)
            }
        }
    }
}

/// The rows a collection showed: the children of a view of `query` that
/// held `held` (its ``QueryView/cache``).
struct ShownRows: Sendable {
    let held: [Key: Snapshot]
    let query: DatabaseQuery

    /// The rows, by key.
    /// - Complexity: O(n log n) for n children held.
    func byKey() -> [Key: Snapshot] {
        var rows: [Key: Snapshot] = [:]
        for child in QueryView.visible(of: held, under: query) { if let key = child.key { rows[key] = child } }
        return rows
    }
}

/// A query change waiting for the new query's first value.
struct Replacement {
    /// The children the collection shows.
    let shown: ShownRows
    /// The query, view, pages and filter to go back to if the new query
    /// fails (a filter set meanwhile replaces the old one).
    var old: (query: DatabaseQuery, view: QueryView, pages: Int, filter: (@Sendable (Snapshot) -> Bool)?)
    /// Whether the collection changed since `shown` was taken (writes of
    /// this client shown while the value was awaited): it may then hold
    /// rows `shown` does not.
    var shownChanged = false
}
