// FirebaseCollection+Background.swift — a first load made away from the
// main actor and taken in one step.
import LiveCollection
import LiveModel

/// What a first load makes away from the main actor: the view of the whole
/// value, the child events it raises, and the collection's models in order.
/// Made in one task and handed whole to the collection, which owns it then.
final class BackgroundLoad<Model: LiveModelProtocol> {
    let view: QueryView
    /// The child events; nil when they were left out (nobody observed them
    /// when the load began): ``QueryView/fillEvents()`` makes them.
    let events: [ChildEvent]?
    let fill: PreparedFill<Model>
    /// What the collection's observers' works on the fill took.
    let observers: Duration

    /// The load of `fill`, with the collection's observers' `works` done
    /// on it now.
    init(view: QueryView, events: [ChildEvent]?, fill: PreparedFill<Model>, works: [FillWork<Model>]) {
        let start = ContinuousClock.now
        fill.perform(works)
        observers = works.isEmpty ? .zero : start.duration(to: .now)
        self.view = view
        self.events = events
        self.fill = fill
    }
}

/// What became of a value given to ``FirebaseCollection/applyInBackground(_:filtered:)``.
enum BackgroundOutcome {
    /// Applied, with these child events, after the collection's observers
    /// worked on it for `observers`.
    case applied([ChildEvent], observers: Duration)
    /// Not applied: the caller applies it on the main actor.
    case declined
    /// Dropped: the collection stopped or opened another stream while the
    /// value was prepared (a stopped collection takes no more data; a new
    /// stream brings the value again).
    case dropped
}

extension FirebaseCollection {
    /// Applies the first whole value of a ``LoadMode/all`` or
    /// ``LoadMode/paged(size:)`` collection with its indexing and its models'
    /// preparation on a background executor, and takes the result on the
    /// main actor in one step.
    ///
    /// Only when nothing is held yet (the view and the collection are empty,
    /// no preparation is pending) and the data source has a
    /// ``ModelDataSource/detachedPreparation``; otherwise ``BackgroundOutcome/declined``.
    /// The main actor runs other work meanwhile: if the view or the
    /// collection changed by then, the result is declined too; if the
    /// collection stopped or reopened, it is dropped.
    /// The data source's detached preparation, when a first load can be
    /// prepared away from the main actor: nothing is held in the view or
    /// the collection, and no preparation is pending.
    private var firstLoadPreparation: (@Sendable (Snapshot) throws -> Preparation<Model>)? {
        guard view.isEmpty, collection.isEmpty, feed.pendingCount == 0 else { return nil }
        return feed.dataSource.detachedPreparation
    }

    func applyInBackground(_ payload: StreamPayload, filtered: Bool?) async -> BackgroundOutcome {
        guard let prepare = firstLoadPreparation else { return .declined }
        let before = view, listening = generation
        // A large load's child events cost memory and time: made only for
        // observers, or for one added while the load was prepared.
        let load = await Self.prepare(payload, query: view.query, filtered: filtered, filter: filter,
                                      prepare: prepare, bulkFill: bulkFill,
                                      works: collection.fillWorks, childEvents: !childObservers.isEmpty)
        guard generation == listening else { return .dropped }
        guard view === before, view.isEmpty else { return .declined }
        let next = load.view
        let events = load.events ?? (childObservers.isEmpty ? [] : next.fillEvents())
        guard feed.load(load.fill) else { return .declined }
        view = next
        return .applied(events, observers: load.observers)
    }

    /// The view of `payload` in a new view of `query`, and the models of the
    /// children `filter` accepts, with the collection's observers' `works`
    /// done on them; without `childEvents`, the child events of a fill are
    /// left out.
    /// - Complexity: O(n log n) for n children, plus their preparations and
    ///   the works.
    @concurrent
    nonisolated static func prepare(_ payload: StreamPayload, query: DatabaseQuery, filtered: Bool?,
                                    filter: ChildFilter?,
                                    prepare: @escaping @Sendable (Snapshot) throws -> Preparation<Model>,
                                    bulkFill: @escaping BulkFill,
                                    works: [FillWork<Model>], childEvents: Bool)
        async -> sending BackgroundLoad<Model> {
        // A whole value (the usual first load) is ordered in bulk from its
        // document. When the view will hold all of it (a query without a
        // window), that is done beside the view's own indexing of it, on a
        // thread of its own: on a large load both cores are at work, and the
        // concurrency pool keeps a thread for everything else.
        let whole = payload.kind == .put && payload.path.isRoot
        // A filtered load is made from the view's children.
        let holdsAll = filter == nil && whole && query.limit == nil && query.start == nil && query.end == nil
        let data = payload.data, order = query.order
        let bulk = holdsAll ? ThreadedWork {
            bulkFill(data, data.childrenCount, order, prepare)
        } : nil
        let view = QueryView(query: query)
        let applied = view.apply(payload, filtered: filtered, fillEvents: childEvents)
        // A view holding children raised events unless they were left out.
        let events = applied.isEmpty && view.count > 0 ? nil : applied
        // Taken when the view holds every child of the value.
        if let fill = await bulk?.value() ?? nil, view.count == payload.data.childrenCount {
            return BackgroundLoad(view: view, events: events, fill: fill, works: works)
        }
        if whole, !holdsAll, filter == nil,
           let fill = bulkFill(payload.data, view.count, query.order, prepare) {
            return BackgroundLoad(view: view, events: events, fill: fill, works: works)
        }
        let fill = PreparedFill(filter.map { view.visible.filter($0) } ?? view.visible, order: query.order,
                                prepare: prepare)
        return BackgroundLoad(view: view, events: events, fill: fill, works: works)
    }
}

extension FirebaseCollection {
    /// Applies the first whole value of a ``LoadMode/live`` collection with
    /// the view's indexing and the models' preparation on a background
    /// executor, as ``applyInBackground(_:filtered:)`` does; the main actor
    /// then adds the children one by one, in order (the sequential
    /// contract), for ``liveLoadSlice`` at a time between other work.
    ///
    /// Declined as ``applyInBackground(_:filtered:)`` is. The view's child
    /// events are told first, once the view holds the value; the value
    /// event once every child is added. While the children are added,
    /// other changes may come (a write of this client): a child is then
    /// taken from the view as it is when its turn comes, not as it was
    /// prepared, and one already shown is left as it is. A new query
    /// (``setQuery(_:)``) ends the adding: its value is taken as the change
    /// from the whole view.
    /// - Returns: ``BackgroundOutcome/applied(_:observers:)`` with no
    ///   events (they were told).
    /// - Complexity: O(n log n) away from the main actor; on it, O(log n)
    ///   per child and its observers' work, ``liveLoadSlice`` at a time.
    func applyLiveInBackground(_ payload: StreamPayload, filtered: Bool?) async -> BackgroundOutcome {
        guard let prepare = firstLoadPreparation else { return .declined }
        let before = view, listening = generation
        // The only reference to the load: its fill's own index and models,
        // and its events, are freed away from the main actor.
        var held: BackgroundLoad<Model>? = await Self.prepare(
            payload, query: view.query, filtered: filtered, filter: filter, prepare: prepare, bulkFill: bulkFill,
            works: [], childEvents: !childObservers.isEmpty)
        defer { releaseInBackground(&held, leaving: nil) }
        guard generation == listening else { return .dropped }
        guard view === before, view.isEmpty, collection.isEmpty, feed.pendingCount == 0 else { return .declined }
        let loaded = held!.view
        view = loaded
        // The view holds the value: a new query from here on is a change
        // from it (``setQuery(_:)`` takes the rows not added yet as shown).
        hasLoaded = true
        // The fill was filtered by the filter of `shownFilterVersion`.
        let version = loaded.version, filterAtStart = shownFilterVersion
        // Told before anything else can change the view (a write while the
        // children are added raises events of its own), so before the rows
        // are added.
        let events = held!.events ?? (childObservers.isEmpty ? [] : loaded.fillEvents())
        tell(events, loaded: false, values: false)
        releaseInBackground(events)
        collection.notifyLoad(started: true)
        defer { collection.notifyLoad(started: false) }
        collection.reportFailures(of: held!.fill)
        let clock = ContinuousClock()
        var position = 0
        let total = held!.fill.count
        while position < total {
            let slice = clock.now
            held!.fill.forEachModel(from: position) { model, sortValue in
                position += 1
                let key = model.identifier
                if loaded.version == version, filterVersion == filterAtStart {
                    try? collection.add(model, sortValue: sortValue)
                } else if collection.model(for: key) == nil, !feed.isPreparing(key),
                          let shown = loaded.shownChild(key), shows(child: shown) {
                    // The view or the filter changed meanwhile: the child as
                    // it is now, if it is still shown.
                    feed.receive(shown)
                }
                // The clock read every 64 children.
                return position % 64 != 0 || slice.duration(to: clock.now) < liveLoadSlice
            }
            guard position < total else { break }
            await Task.yield()
            // A new query's value replaces this one; should that query
            // fail, this view comes back, and its rows with it.
            guard view === loaded else {
                liveLoadCut = loaded
                return .dropped
            }
        }
        // Stopped meanwhile: every child is in, filtered as the filter is
        // now, and the next start resyncs.
        guard generation == listening else {
            if shownFilterVersion != filterVersion { refilter() }
            return .dropped
        }
        return .applied([], observers: .zero)
    }
}
