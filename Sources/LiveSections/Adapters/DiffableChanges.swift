// DiffableChanges.swift — a sectioned collection as whole snapshots of
// identifiers with the rows whose content changed: what a diffable data
// source applies.
import LiveCollection

/// One change of a ``SectionedCollection`` as a diffable data source takes
/// it: every section with its keys as they are now, and the keys whose
/// content changed (to reconfigure or reload), in display order.
public struct DiffableChange<Section: Hashable & Sendable>: Sendable {
    /// The sections shown, with their rows' keys, in display order.
    public let sections: [SectionItems<Section, Key>]
    /// The keys of rows shown before and after the change whose content
    /// may have changed: updated in place, or moved with a new model.
    public let changedKeys: [Key]
}

/// Tells each change of a ``SectionedCollection`` as a ``DiffableChange``,
/// once the sections have applied it: the bridge to
/// `NSDiffableDataSourceSnapshot` on Apple platforms, and to any list that
/// diffs identifiers itself.
///
/// A key is changed when the sections told it updated in place or moved
/// (a move always brings the model as it is now), or when one change took
/// it out and put it back (a row that changed place in a grouped change, or
/// whose section went while it moved to another). So every row a new order
/// moves (`SortedCollection.setOrder`) is reported changed too.
@MainActor
public final class DiffableChanges<Model: LiveModelProtocol, Section: Hashable & Sendable> {
    /// The sections followed.
    public let source: SectionedCollection<Model, Section>
    /// The sections as the last change left them (a removed section's rows
    /// are read from here).
    private var shown: [SectionItems<Section, Key>]
    private var removed: Set<Key> = []
    private var changed: [Key] = []
    private var changedSet: Set<Key> = []
    private var tokens: [ObservationToken] = []

    /// Follows `source` and calls `handler` after each of its changes.
    /// - Complexity: O(n) per change for the snapshot of n rows, which is
    ///   what a diffable data source takes; O(t) to gather t touched keys.
    public init(_ source: SectionedCollection<Model, Section>, handler: @escaping (DiffableChange<Section>) -> Void) {
        self.source = source
        shown = source.snapshot()
        // Registered together, in this order: the sequential events of a
        // change come before its stages, which mark its end.
        tokens.append(source.observe { [weak self] change in self?.gather(change) })
        tokens.append(source.observeStages { [weak self] _ in
            guard let self else { return }
            let changedKeys = takeChanged()
            shown = source.snapshot()
            handler(DiffableChange(sections: shown, changedKeys: changedKeys))
        })
    }

    /// The current state as a change with nothing changed: what a list
    /// shows first.
    public var current: DiffableChange<Section> { DiffableChange(sections: source.snapshot(), changedKeys: []) }

    private func gather(_ change: SectionedChange<Model, Section>) {
        switch change {
        case .sectionInserted(_, _, let models): for m in models { arrive(m.identifier) }
        case .sectionRemoved(let section, _):
            // Its rows are not told one by one: they are the ones it showed.
            if let rows = shown.first(where: { $0.id == section })?.items { removed.formUnion(rows) }
        case .rowInserted(let m, _): arrive(m.identifier)
        case .rowRemoved(let m, _): removed.insert(m.identifier)
        case .rowUpdated(let m, _), .rowMoved(let m, _, _): mark(m.identifier)
        }
    }

    private func arrive(_ key: Key) {
        if removed.contains(key) { mark(key) }
    }

    private func mark(_ key: Key) {
        if changedSet.insert(key).inserted { changed.append(key) }
    }

    private func takeChanged() -> [Key] {
        defer {
            changed = []
            changedSet = []
            removed = []
        }
        // Only keys still shown: a row changed and then removed is gone.
        return changed.filter { source.path(of: $0) != nil }
    }
}
