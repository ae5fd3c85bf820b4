// FirebaseCollection+Replacement.swift — a new query's first value
// (setQuery) indexed and compared with the rows shown away from the main
// actor, which then applies only what changed.
import LiveCollection
import LiveModel

/// How a new query's first value differs from the rows shown before: the
/// children it keeps, the rows that go, and the kept children that were not
/// shown or hold other data. Worked out by ``plan(_:shown:accepts:reorders:)``
/// on either side of the main actor, and applied by
/// ``FirebaseCollection/applyReplacementPlan(_:order:removingUnkept:)``.
struct ReplacementPlan {
    /// The children the new query shows that the filter accepts, in order.
    var kept: [Snapshot]
    /// Keys shown before that the new query does not keep.
    var removed: [Key]
    /// The kept children that were not shown, or with other data, in order.
    var changed: [Snapshot]
    /// Each kept child's sort value, when the order changes.
    var sortValues: [Key: SortValue]?

    static let empty = ReplacementPlan(kept: [], removed: [], changed: [], sortValues: nil)

    /// The plan for `view`'s children against the rows `shown` before.
    /// - Complexity: O(n) for the n children `view` shows, and a
    ///   comparison (texts, then digests) of each one shown before.
    static func plan(_ view: QueryView, shown: [Key: Snapshot], accepts: (Snapshot) -> Bool,
                     reorders: Bool) -> ReplacementPlan {
        var kept: [Snapshot] = [], changed: [Snapshot] = []
        var keptKeys = Set<Key>(minimumCapacity: view.count)
        var sortValues: [Key: SortValue]? = reorders ? Dictionary(minimumCapacity: view.count) : nil
        for child in view.visible {
            guard let key = child.key, accepts(child) else { continue }
            kept.append(child)
            keptKeys.insert(key)
            sortValues?[key] = child.sortValue
            // Shown with the same data: it stays. Compared by their texts,
            // then the core's digests: neither value is built.
            if let before = shown[key], before.priority == child.priority,
               before.holdsSameData(as: child, priorities: false) { continue }
            changed.append(child)
        }
        let removed = shown.keys.filter { !keptKeys.contains($0) }
        return ReplacementPlan(kept: kept, removed: removed, changed: changed, sortValues: sortValues)
    }
}

/// A new query's first value prepared away from the main actor by
/// ``FirebaseCollection/prepareReplacement(_:query:filtered:shown:filter:reorders:childEvents:)``:
/// the new view holding it, and its plan. Made in one task and handed whole
/// to the collection, which owns it then.
final class PreparedReplacement {
    let view: QueryView
    /// The new listener's child events; nil when they were left out
    /// (nobody observed them when the value came).
    private(set) var events: [ChildEvent]?
    private(set) var plan: ReplacementPlan

    deinit {
        // A million children's snapshots and keys: freed off this thread.
        releaseInBackground(&plan, leaving: .empty)
        releaseInBackground(&events, leaving: nil)
    }

    init(view: QueryView, events: [ChildEvent]?, plan: ReplacementPlan) {
        self.view = view
        self.events = events
        self.plan = plan
    }
}

extension FirebaseCollection {
    /// Applies a new query's first value (``setQuery(_:)``) with its
    /// indexing and its comparison with the rows shown on a background
    /// executor; the main actor then removes, reorders and changes only the
    /// rows that differ, as one batch.
    ///
    /// ``BackgroundOutcome/declined`` when the new view holds writes of this
    /// client, the collection changed since the rows shown were taken, or a
    /// preparation is pending (those need the main actor's bookkeeping):
    /// the caller applies the value there
    /// (``applyReplacement(_:filtered:shown:shownChanged:)``);
    /// ``BackgroundOutcome/dropped`` when the collection stopped or took
    /// another query meanwhile.
    func applyReplacementInBackground(_ payload: StreamPayload, filtered: Bool?,
                                      replacement: Replacement) async -> BackgroundOutcome {
        guard view.isEmpty, feed.pendingCount == 0, !replacement.shownChanged else { return .declined }
        let shown = replacement.shown
        let before = view, listening = generation, version = filterVersion, order = view.query.order
        let prepared = await Self.prepareReplacement(payload, query: view.query, filtered: filtered, shown: shown,
                                                     filter: filter, reorders: collection.order != order,
                                                     childEvents: !childObservers.isEmpty)
        guard generation == listening, view === before, replacing != nil else { return .dropped }
        guard view.isEmpty, feed.pendingCount == 0, replacing?.shownChanged == false,
              (prepared.plan.sortValues != nil) == (collection.order != order) else {
            return .declined
        }
        let next = prepared.view
        let events = prepared.events ?? (childObservers.isEmpty ? [] : next.fillEvents())
        view = next
        replacing = nil
        // A filter set meanwhile applies when the value is taken (finish).
        shownFilterVersion = version
        collection.performBatch {
            applyReplacementPlan(prepared.plan, order: order, removingUnkept: false, exhaustive: false)
        }
        return .applied(events, observers: .zero)
    }

    /// The view of `payload` in a new view of `query`, compared with the
    /// rows `shown` before, under `filter`: which rows go, which come or
    /// change, and each kept child's sort value when the order changes
    /// (`reorders`); without `childEvents`, a fill's child events are left
    /// out.
    /// - Complexity: O(n log n) for n children, and a comparison (texts,
    ///   then digests) of each child shown before that the query keeps.
    @concurrent
    nonisolated static func prepareReplacement(_ payload: StreamPayload, query: DatabaseQuery, filtered: Bool?,
                                               shown rows: ShownRows, filter: ChildFilter?, reorders: Bool,
                                               childEvents: Bool) async -> sending PreparedReplacement {
        let shown = rows.byKey()
        let view = QueryView(query: query)
        let applied = view.apply(payload, filtered: filtered, fillEvents: childEvents)
        // A view holding children raised events unless they were left out.
        let events = applied.isEmpty && view.count > 0 ? nil : applied
        let plan = ReplacementPlan.plan(view, shown: shown, accepts: { filter?($0) ?? true }, reorders: reorders)
        return PreparedReplacement(view: view, events: events, plan: plan)
    }

    /// Applies a replacement's plan to the collection (inside a batch): the
    /// rows not kept go (with `removingUnkept`, also rows shown since the
    /// plan's rows were taken), every row takes its sort value in `order`,
    /// and the children that came or changed are received. A kept child the
    /// collection lacks though its data is the same is received too: found
    /// by counting when the collection holds only the plan's rows, by
    /// looking at each kept child otherwise (`exhaustive`: rows may have
    /// been added to the collection by the app, or be on their way).
    /// - Complexity: O(t log n) for the t rows that go or change, and
    ///   O(n log n) when the order changes; O(n) more when `exhaustive` or
    ///   when the counts show a kept row the collection lacks.
    func applyReplacementPlan(_ plan: ReplacementPlan, order: QueryOrder, removingUnkept: Bool, exhaustive: Bool) {
        for key in plan.removed { feed.receiveRemoval(of: key) }
        if removingUnkept {
            // Rows shown since (a write's child) that the query does not keep.
            let keptKeys = Set(plan.kept.lazy.compactMap(\.key))
            let extra = (0..<collection.count).map { collection.key(at: $0) }.filter { !keptKeys.contains($0) }
            for key in extra { feed.receiveRemoval(of: key) }
        }
        if let sortValues = plan.sortValues {
            // Every row stays where it is in the new order: its sort value
            // is the new view's. A preparation in flight was made with the
            // old order's sort value, so it is made again.
            reorder(to: order, sortValues: sortValues)
            if feed.pendingCount > 0 {
                for child in plan.kept where child.key.map(feed.isPreparing) == true { feed.receive(child) }
            }
        }
        for child in plan.changed { feed.receive(child) }
        // The rows are now among the kept ones. A kept row the collection
        // lacks though its data is the same (refused by an older filter, or
        // its preparation failed) shows in the counts: each kept child is
        // then looked at.
        if !exhaustive {
            let changedMissing = plan.changed.count { $0.key.map { collection.model(for: $0) == nil } ?? false }
            guard collection.count + changedMissing != plan.kept.count else { return }
        }
        let changedKeys = Set(plan.changed.lazy.compactMap(\.key))
        for child in plan.kept {
            guard let key = child.key, !changedKeys.contains(key), collection.model(for: key) == nil,
                  !feed.isPreparing(key) else { continue }
            feed.receive(child)
        }
    }
}
