// UIKitConnectors.swift — UITableView and UICollectionView as list-update targets
// (Apple platforms only; on Linux, use CheckingListTarget).
#if canImport(UIKit)
import UIKit

extension RowPath {
    /// The `IndexPath` of this row (`section`, `row` / `item`).
    public var indexPath: IndexPath { IndexPath(indexes: [section, row]) }
}

extension UITableView: ListUpdateTarget {
    /// Applies one stage in one `performBatchUpdates`, with automatic animations.
    public func performBatchUpdates(_ stage: BatchStage, updatingData: () -> Void) {
        performBatchUpdates({
            updatingData()
            deleteSections(IndexSet(stage.deletedSections), with: .automatic)
            insertSections(IndexSet(stage.insertedSections), with: .automatic)
            reloadSections(IndexSet(stage.reloadedSections), with: .automatic)
            for move in stage.movedSections { moveSection(move.from, toSection: move.to) }
            deleteRows(at: stage.deletedRows.map(\.indexPath), with: .automatic)
            insertRows(at: stage.insertedRows.map(\.indexPath), with: .automatic)
            reloadRows(at: stage.reloadedRows.map(\.indexPath), with: .automatic)
            for move in stage.movedRows { moveRow(at: move.from.indexPath, to: move.to.indexPath) }
        }, completion: nil)
    }
}

extension UICollectionView: ListUpdateTarget {
    /// Applies one stage in one `performBatchUpdates`.
    public func performBatchUpdates(_ stage: BatchStage, updatingData: () -> Void) {
        performBatchUpdates({
            updatingData()
            deleteSections(IndexSet(stage.deletedSections))
            insertSections(IndexSet(stage.insertedSections))
            reloadSections(IndexSet(stage.reloadedSections))
            for move in stage.movedSections { moveSection(move.from, toSection: move.to) }
            deleteItems(at: stage.deletedRows.map(\.indexPath))
            insertItems(at: stage.insertedRows.map(\.indexPath))
            reloadItems(at: stage.reloadedRows.map(\.indexPath))
            for move in stage.movedRows { moveItem(at: move.from.indexPath, to: move.to.indexPath) }
        }, completion: nil)
    }
}
#endif
