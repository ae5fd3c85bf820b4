// UIKitConnectors.swift — UITableView and UICollectionView as list-update targets
// (Apple platforms only; on Linux, use CheckingListTarget). Tools/check-uikit
// type-checks this file against UIKit's signatures on any platform.
#if canImport(UIKit)
import UIKit

extension RowPath {
    /// The `IndexPath` of this row (`section`, `row` / `item`).
    public var indexPath: IndexPath { IndexPath(indexes: [section, row]) }
}

extension UITableView: ListUpdateTarget {
    /// Applies one stage in one `performBatchUpdates`, with automatic
    /// animations, calling `updatingData` first inside the batch.
    public func performBatchUpdates(_ stage: BatchStage, updatingData: () -> Void) {
        // UIKit runs the updates block before performBatchUpdates returns.
        withoutActuallyEscaping(updatingData) { updatingData in
            self.performBatchUpdates({
                updatingData()
                self.deleteSections(IndexSet(stage.deletedSections), with: .automatic)
                self.insertSections(IndexSet(stage.insertedSections), with: .automatic)
                self.reloadSections(IndexSet(stage.reloadedSections), with: .automatic)
                for move in stage.movedSections { self.moveSection(move.from, toSection: move.to) }
                self.deleteRows(at: stage.deletedRows.map(\.indexPath), with: .automatic)
                self.insertRows(at: stage.insertedRows.map(\.indexPath), with: .automatic)
                self.reloadRows(at: stage.reloadedRows.map(\.indexPath), with: .automatic)
                for move in stage.movedRows { self.moveRow(at: move.from.indexPath, to: move.to.indexPath) }
            }, completion: nil)
        }
    }
}

extension UICollectionView: ListUpdateTarget {
    /// Applies one stage in one `performBatchUpdates`, calling `updatingData`
    /// first inside the batch.
    public func performBatchUpdates(_ stage: BatchStage, updatingData: () -> Void) {
        // UIKit runs the updates block before performBatchUpdates returns.
        withoutActuallyEscaping(updatingData) { updatingData in
            self.performBatchUpdates({
                updatingData()
                self.deleteSections(IndexSet(stage.deletedSections))
                self.insertSections(IndexSet(stage.insertedSections))
                self.reloadSections(IndexSet(stage.reloadedSections))
                for move in stage.movedSections { self.moveSection(move.from, toSection: move.to) }
                self.deleteItems(at: stage.deletedRows.map(\.indexPath))
                self.insertItems(at: stage.insertedRows.map(\.indexPath))
                self.reloadItems(at: stage.reloadedRows.map(\.indexPath))
                for move in stage.movedRows { self.moveItem(at: move.from.indexPath, to: move.to.indexPath) }
            }, completion: nil)
        }
    }
}
#endif
