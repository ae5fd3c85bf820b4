// FirebaseCollection+Replacement.swift — a new query's first value
// (setQuery) indexed and compared with the rows shown away from the main
// actor, which then applies only what changed.
import LiveCollection
import LiveModel

/// What a new query's first value changes in the collection, worked out
/// away from the main actor by ``FirebaseCollection/prepareReplacement(_:query:filtered:shown:filter:reorders:childEvents:)``:
/// the new view holding the value, and how the rows shown differ from it.
/// Made in one task and handed whole to the collection, which owns it then.
final class PreparedReplacement {
    let view: QueryView
    /// The new listener's child events; nil when they were left out
    /// (nobody observed them when the value came).
    private(set) var events: [ChildEvent]?
    /// The children the new query shows that the filter accepts, in order.
    private(set) var kept: [Snapshot]
    /// Keys shown before that the new query does not keep.
    private(set) var removed: [Key]
    /// The kept children that were not shown, or with other data, in order.
    private(set) var changed: [Snapshot]
    /// Their keys.
    private(set) var changedKeys: Set<Key>
    /// Each kept child's sort value, when the order changes.
    private(set) var sortValues: [Key: SortValue]?

    deinit {
        // A million children's snapshots and keys: freed off this thread.
        releaseInBackground(&kept, leaving: [])
        releaseInBackground(&removed, leaving: [])
        releaseInBackground(&changed, leaving: [])
        releaseInBackground(&changedKeys, leaving: [])
        releaseInBackground(&events, leaving: nil)
        releaseInBackground(&sortValues, leaving: nil)
    }

    init(view: QueryView, events: [ChildEvent]?, kept: [Snapshot], removed: [Key], changed: [Snapshot],
         sortValues: [Key: SortValue]?) {
        self.view = view
        self.events = events
        self.kept = kept
        self.removed = removed
        self.changed = changed
        changedKeys = Set(changed.compactMap(\.key))
        self.sortValues = sortValues
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
              (prepared.sortValues != nil) == (collection.order != order) else {
            return .declined
        }
        let next = prepared.view
        let events = prepared.events ?? (childObservers.isEmpty ? [] : next.fillEvents())
        view = next
        replacing = nil
        // A filter set meanwhile applies when the value is taken (finish).
        shownFilterVersion = version
        collection.performBatch {
            for key in prepared.removed { feed.receiveRemoval(of: key) }
            // Every row stays where it is in the new order: its sort value
            // is the new view's (no preparation is pending to be redone).
            if let sortValues = prepared.sortValues { reorder(to: order, sortValues: sortValues) }
            for child in prepared.changed { feed.receive(child) }
            // The rows are now among the kept ones (the collection held no
            // row but those shown). A kept row it lacks though its data is
            // the same (refused by an older filter, or its preparation
            // failed) shows in the counts: each kept child is then looked at.
            let changedMissing = prepared.changed.count { $0.key.map { collection.model(for: $0) == nil } ?? false }
            if collection.count + changedMissing != prepared.kept.count {
                for child in prepared.kept {
                    guard let key = child.key, !prepared.changedKeys.contains(key), collection.model(for: key) == nil,
                          !feed.isPreparing(key) else { continue }
                    feed.receive(child)
                }
            }
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
        var kept: [Snapshot] = [], changed: [Snapshot] = []
        var keptKeys = Set<Key>(minimumCapacity: view.count)
        var sortValues: [Key: SortValue]? = reorders ? Dictionary(minimumCapacity: view.count) : nil
        for child in view.visible {
            guard let key = child.key, filter?(child) ?? true else { continue }
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
        return PreparedReplacement(view: view, events: events, kept: kept, removed: removed, changed: changed,
                                   sortValues: sortValues)
    }
}
