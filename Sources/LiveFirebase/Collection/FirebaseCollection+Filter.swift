// FirebaseCollection+Filter.swift — a client-side filter: which of the
// query's children the collection shows, changeable while live.
import LiveCollection
import LiveModel

extension FirebaseCollection {
    /// Decides whether the collection shows a child of the query: called
    /// with the child's snapshot (its key, value and priority) each time the
    /// child arrives or changes.
    public typealias ChildFilter = @Sendable (Snapshot) -> Bool

    /// Shows only the children of the query that `filter` accepts, or every
    /// child when `filter` is nil; the collection keeps its ``collection``
    /// (and every `SectionedCollection` or observer on it).
    ///
    /// The children the query holds are filtered again at once, as **one
    /// grouped change**: a child that no longer passes is removed, one that
    /// now passes is added, and nothing else moves or reloads, so a list view
    /// gets one minimal staged batch. From then on every child is filtered as
    /// it arrives or changes: a change that makes a shown child fail removes
    /// its row, and one that makes a hidden child pass adds it.
    ///
    /// The filter runs on this device, after the query: the server still
    /// sends the query's whole window (a `limit` counts children before the
    /// filter, so a page can show fewer rows than its size), and child event
    /// observers keep getting the query's events, as a Firebase listener of
    /// the query would. A collection not yet loaded applies the filter to
    /// its first load.
    ///
    /// `filter` must be a pure function of the snapshot: the collection
    /// calls it again only when a child changes or the filter is replaced.
    /// A first load is filtered where it is prepared, which may be a
    /// background thread (hence `@Sendable`); a filter set while a load or
    /// a query change is under way applies once it is in.
    /// - Parameter filter: Whether to show a child; nil shows them all.
    /// - Complexity: O(n log n) for the n children the query holds, plus
    ///   the preparation of the children added.
    public func setFilter(_ filter: ChildFilter?) {
        flightRecorder?.note(.gap("setFilter"))
        self.filter = filter
        filterVersion += 1
        // A query change waiting for its value: if it fails, its old query
        // comes back with this filter.
        replacing?.old.filter = filter
        // Before the first value, or while a query change waits for its
        // value, the filter applies when the value is taken.
        guard hasLoaded, replacing == nil else { return }
        refilter()
    }

    /// Shows the children of the query the filter accepts, as one grouped
    /// change.
    /// - Complexity: O(n log n) for the n children the query holds.
    func refilter() {
        shownFilterVersion = filterVersion
        collection.performBatch {
            for child in view.visible {
                guard let key = child.key else { continue }
                let isShown = collection.model(for: key) != nil
                if shows(child: child) {
                    if !isShown { feed.receive(child) }
                } else if isShown || feed.pendingCount > 0 {
                    feed.receiveRemoval(of: key)
                }
            }
        }
    }

    /// Whether the collection shows `child` under its filter.
    func shows(child: Snapshot) -> Bool { filter?(child) ?? true }

    /// The children among `children` the collection shows.
    func shown(_ children: [Snapshot]) -> [Snapshot] {
        guard let filter else { return children }
        return children.filter(filter)
    }
}
