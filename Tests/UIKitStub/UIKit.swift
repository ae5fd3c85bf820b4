// UIKit.swift — the part of UIKit's API that LiveSections' connectors use,
// with UIKit's own signatures, so that Tools/check-uikit can type-check the
// connectors on platforms without UIKit. Nothing here runs.
@_exported import Foundation

@MainActor open class UIResponder {}
@MainActor open class UIView: UIResponder {}
@MainActor open class UIScrollView: UIView {}

@MainActor open class UITableView: UIScrollView {
    public enum RowAnimation: Int, Sendable { case fade, right, left, top, bottom, none, middle, automatic = 100 }
    open func reloadData() {}
    open func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {}
    open func insertSections(_ sections: IndexSet, with animation: UITableView.RowAnimation) {}
    open func deleteSections(_ sections: IndexSet, with animation: UITableView.RowAnimation) {}
    open func reloadSections(_ sections: IndexSet, with animation: UITableView.RowAnimation) {}
    open func moveSection(_ section: Int, toSection newSection: Int) {}
    open func insertRows(at indexPaths: [IndexPath], with animation: UITableView.RowAnimation) {}
    open func deleteRows(at indexPaths: [IndexPath], with animation: UITableView.RowAnimation) {}
    open func reloadRows(at indexPaths: [IndexPath], with animation: UITableView.RowAnimation) {}
    open func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) {}
}

@MainActor open class UICollectionView: UIScrollView {
    open func reloadData() {}
    open func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {}
    open func insertSections(_ sections: IndexSet) {}
    open func deleteSections(_ sections: IndexSet) {}
    open func reloadSections(_ sections: IndexSet) {}
    open func moveSection(_ section: Int, toSection newSection: Int) {}
    open func insertItems(at indexPaths: [IndexPath]) {}
    open func deleteItems(at indexPaths: [IndexPath]) {}
    open func reloadItems(at indexPaths: [IndexPath]) {}
    open func moveItem(at indexPath: IndexPath, to newIndexPath: IndexPath) {}
}
