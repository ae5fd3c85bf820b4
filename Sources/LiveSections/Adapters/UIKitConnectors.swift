// UIKitConnectors.swift — UITableView and UICollectionView as list-update targets
// (Apple platforms only; on Linux, use CheckingListTarget). Tools/check-uikit
// type-checks this file against UIKit's signatures on any platform.
#if canImport(UIKit)
import UIKit

extension RowPath {
    /// The `IndexPath` of this row (`section`, `row` / `item`).
    public var indexPath: IndexPath { IndexPath(indexes: [section, row]) }
}

/// How a UIKit list view applies each stage.
public struct UIKitBatchOptions {
    /// The animation of a table view's row and section changes (collection
    /// views animate through their layout).
    public var animation: UITableView.RowAnimation
    /// How rows whose content changed are shown (see
    /// ``BatchStage/changedRows(as:)``); before iOS 15 they are reloaded.
    public var changedRows: ChangedRowStyle
    /// Called after each stage's batch update, with whether its animations
    /// ran to the end.
    public var completion: ((Bool) -> Void)?

    /// Options; by default automatic animations and changed rows
    /// reconfigured in place.
    public init(animation: UITableView.RowAnimation = .automatic, changedRows: ChangedRowStyle = .reconfigure,
                completion: ((Bool) -> Void)? = nil) {
        self.animation = animation
        self.changedRows = changedRows
        self.completion = completion
    }
}

/// A table view as a ``ListUpdateTarget``, with options.
@MainActor
public final class TableViewTarget: ListUpdateTarget {
    /// The table view updated.
    public let tableView: UITableView
    /// How each stage is applied; a change applies from the next stage on.
    public var options: UIKitBatchOptions

    /// A target applying stages to `tableView` with `options` (by default
    /// automatic animations and changed rows reconfigured in place).
    public init(_ tableView: UITableView, options: UIKitBatchOptions = UIKitBatchOptions()) {
        self.tableView = tableView
        self.options = options
    }

    /// Reloads the table view.
    public func reloadData() { tableView.reloadData() }

    /// Applies one stage in one `performBatchUpdates`, calling
    /// `updatingData` first inside the batch, then ``UIKitBatchOptions/completion``
    /// once the batch's animations end.
    public func performBatchUpdates(_ stage: BatchStage, updatingData: () -> Void) {
        let tableView = self.tableView, options = self.options
        let animation = options.animation
        let changed = stage.changedRows(as: options.changedRows)
        // UIKit runs the updates block before performBatchUpdates returns.
        withoutActuallyEscaping(updatingData) { updatingData in
            tableView.performBatchUpdates({
                updatingData()
                tableView.deleteSections(IndexSet(stage.deletedSections), with: animation)
                tableView.insertSections(IndexSet(stage.insertedSections), with: animation)
                tableView.reloadSections(IndexSet(stage.reloadedSections), with: animation)
                for move in stage.movedSections { tableView.moveSection(move.from, toSection: move.to) }
                tableView.deleteRows(at: stage.deletedRows.map(\.indexPath), with: animation)
                tableView.insertRows(at: stage.insertedRows.map(\.indexPath), with: animation)
                tableView.reloadRows(at: changed.reload.map(\.indexPath), with: animation)
                if #available(iOS 15.0, tvOS 15.0, *) {
                    tableView.reconfigureRows(at: changed.reconfigure.map(\.indexPath))
                } else {
                    tableView.reloadRows(at: changed.reconfigure.map(\.indexPath), with: animation)
                }
                for move in stage.movedRows { tableView.moveRow(at: move.from.indexPath, to: move.to.indexPath) }
            }, completion: options.completion)
        }
    }
}

/// A collection view as a ``ListUpdateTarget``, with options.
@MainActor
public final class CollectionViewTarget: ListUpdateTarget {
    /// The collection view updated.
    public let collectionView: UICollectionView
    /// How each stage is applied (a collection view ignores
    /// ``UIKitBatchOptions/animation``); a change applies from the next stage on.
    public var options: UIKitBatchOptions

    /// A target applying stages to `collectionView` with `options` (by
    /// default changed items reconfigured in place).
    public init(_ collectionView: UICollectionView, options: UIKitBatchOptions = UIKitBatchOptions()) {
        self.collectionView = collectionView
        self.options = options
    }

    /// Reloads the collection view.
    public func reloadData() { collectionView.reloadData() }

    /// Applies one stage in one `performBatchUpdates`, calling
    /// `updatingData` first inside the batch, then ``UIKitBatchOptions/completion``
    /// once the batch's animations end.
    public func performBatchUpdates(_ stage: BatchStage, updatingData: () -> Void) {
        let collectionView = self.collectionView, options = self.options
        let changed = stage.changedRows(as: options.changedRows)
        withoutActuallyEscaping(updatingData) { updatingData in
            collectionView.performBatchUpdates({
                updatingData()
                collectionView.deleteSections(IndexSet(stage.deletedSections))
                collectionView.insertSections(IndexSet(stage.insertedSections))
                collectionView.reloadSections(IndexSet(stage.reloadedSections))
                for move in stage.movedSections { collectionView.moveSection(move.from, toSection: move.to) }
                collectionView.deleteItems(at: stage.deletedRows.map(\.indexPath))
                collectionView.insertItems(at: stage.insertedRows.map(\.indexPath))
                collectionView.reloadItems(at: changed.reload.map(\.indexPath))
                if #available(iOS 15.0, tvOS 15.0, *) {
                    collectionView.reconfigureItems(at: changed.reconfigure.map(\.indexPath))
                } else {
                    collectionView.reloadItems(at: changed.reconfigure.map(\.indexPath))
                }
                for move in stage.movedRows { collectionView.moveItem(at: move.from.indexPath, to: move.to.indexPath) }
            }, completion: options.completion)
        }
    }
}

extension UITableView: ListUpdateTarget {
    /// Applies one stage in one `performBatchUpdates`, with automatic
    /// animations and changed rows reloaded, calling `updatingData` first
    /// inside the batch. For other options, use a ``TableViewTarget``.
    public func performBatchUpdates(_ stage: BatchStage, updatingData: () -> Void) {
        TableViewTarget(self, options: UIKitBatchOptions(changedRows: .reload))
            .performBatchUpdates(stage, updatingData: updatingData)
    }
}

extension UICollectionView: ListUpdateTarget {
    /// Applies one stage in one `performBatchUpdates`, with changed items
    /// reloaded, calling `updatingData` first inside the batch. For other
    /// options, use a ``CollectionViewTarget``.
    public func performBatchUpdates(_ stage: BatchStage, updatingData: () -> Void) {
        CollectionViewTarget(self, options: UIKitBatchOptions(changedRows: .reload))
            .performBatchUpdates(stage, updatingData: updatingData)
    }
}
#endif
