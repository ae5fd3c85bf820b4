// UIKitDiffable.swift — sections as NSDiffableDataSourceSnapshot, applied to
// UIKit's diffable data sources (Apple platforms only). Tools/check-uikit
// type-checks this file against UIKit's signatures on any platform.
#if canImport(UIKit)
import LiveCollection
import UIKit

extension DiffableChange {
    /// The change as a diffable data source snapshot: every section with its
    /// keys, and the changed keys marked to reconfigure (reloaded before
    /// iOS 15, or when `style` is ``ChangedRowStyle/reload``).
    /// - Complexity: O(n) for n rows.
    public func snapshot(changedRows style: ChangedRowStyle = .reconfigure) -> NSDiffableDataSourceSnapshot<Section, Key> {
        var snapshot = NSDiffableDataSourceSnapshot<Section, Key>()
        snapshot.appendSections(sections.map(\.id))
        for section in sections { snapshot.appendItems(section.items, toSection: section.id) }
        if !changedKeys.isEmpty {
            if style == .reconfigure, #available(iOS 15.0, tvOS 15.0, *) {
                snapshot.reconfigureItems(changedKeys)
            } else {
                snapshot.reloadItems(changedKeys)
            }
        }
        return snapshot
    }
}

extension DiffableChange {
    /// The rows of `section` as a section snapshot (nil if it is not
    /// shown), for a diffable data source applied section by section.
    /// - Complexity: O(s + r) for s sections and the section's r rows.
    @available(iOS 14.0, tvOS 14.0, *)
    public func sectionSnapshot(of section: Section) -> NSDiffableDataSourceSectionSnapshot<Key>? {
        guard let items = sections.first(where: { $0.id == section })?.items else { return nil }
        var snapshot = NSDiffableDataSourceSectionSnapshot<Key>()
        snapshot.append(items)
        return snapshot
    }
}

extension SectionedCollection where Section: Sendable {
    /// The sections shown, as a diffable data source snapshot.
    /// - Complexity: O(n) for n rows.
    public func diffableSnapshot() -> NSDiffableDataSourceSnapshot<Section, Key> {
        DiffableChange(sections: snapshot(), changedKeys: []).snapshot()
    }

    /// Keeps `dataSource` showing these sections: applies the current
    /// snapshot now, without animation, then one snapshot after each change,
    /// with changed rows reconfigured (reloaded before iOS 15, or when
    /// `style` is ``ChangedRowStyle/reload``). Keep the returned object:
    /// releasing it ends the connection.
    /// - Parameters:
    ///   - dataSource: The table view's diffable data source.
    ///   - style: How rows whose content changed are shown.
    ///   - animated: Whether the snapshots after changes animate their
    ///     differences (the first snapshot never does).
    ///   - completion: Called after each snapshot applied for a change.
    /// - Returns: The connection, which follows the sections while it is kept.
    /// - Complexity: O(n) per change for n rows.
    public func connect(_ dataSource: UITableViewDiffableDataSource<Section, Key>,
                        changedRows style: ChangedRowStyle = .reconfigure, animated: Bool = true,
                        completion: (() -> Void)? = nil) -> DiffableChanges<Model, Section> {
        connect(style) { snapshot, animating in
            dataSource.apply(snapshot, animatingDifferences: animating && animated, completion: animating ? completion : nil)
        }
    }

    /// Keeps `dataSource` showing these sections, as the table view's
    /// `connect(_:changedRows:animated:completion:)` does.
    /// - Parameters:
    ///   - dataSource: The collection view's diffable data source.
    ///   - style: How items whose content changed are shown.
    ///   - animated: Whether the snapshots after changes animate their
    ///     differences (the first snapshot never does).
    ///   - completion: Called after each snapshot applied for a change.
    /// - Returns: The connection, which follows the sections while it is kept.
    /// - Complexity: O(n) per change for n rows.
    public func connect(_ dataSource: UICollectionViewDiffableDataSource<Section, Key>,
                        changedRows style: ChangedRowStyle = .reconfigure, animated: Bool = true,
                        completion: (() -> Void)? = nil) -> DiffableChanges<Model, Section> {
        connect(style) { snapshot, animating in
            dataSource.apply(snapshot, animatingDifferences: animating && animated, completion: animating ? completion : nil)
        }
    }

    /// Applies the current snapshot with `apply` (not animating), then one
    /// snapshot after each change (animating): what both data sources share.
    private func connect(_ style: ChangedRowStyle,
                         apply: @escaping (NSDiffableDataSourceSnapshot<Section, Key>, _ animating: Bool) -> Void)
        -> DiffableChanges<Model, Section> {
        apply(diffableSnapshot(), false)
        return DiffableChanges(self) { change in apply(change.snapshot(changedRows: style), true) }
    }
}
#endif
