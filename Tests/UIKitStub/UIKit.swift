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
    @available(iOS 15.0, tvOS 15.0, *)
    open func reconfigureRows(at indexPaths: [IndexPath]) {}
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
    @available(iOS 15.0, tvOS 15.0, *)
    open func reconfigureItems(at indexPaths: [IndexPath]) {}
    open func moveItem(at indexPath: IndexPath, to newIndexPath: IndexPath) {}
}

public struct NSDiffableDataSourceSnapshot<SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable>: Sendable {
    public init() {}
    public mutating func appendSections(_ identifiers: [SectionIdentifierType]) {}
    public mutating func appendItems(_ identifiers: [ItemIdentifierType], toSection sectionIdentifier: SectionIdentifierType? = nil) {}
    public mutating func reloadItems(_ identifiers: [ItemIdentifierType]) {}
    @available(iOS 15.0, tvOS 15.0, *)
    public mutating func reconfigureItems(_ identifiers: [ItemIdentifierType]) {}
}

@available(iOS 14.0, tvOS 14.0, *)
public struct NSDiffableDataSourceSectionSnapshot<ItemIdentifierType: Hashable & Sendable>: Sendable {
    public init() {}
    public mutating func append(_ items: [ItemIdentifierType], to parent: ItemIdentifierType? = nil) {}
}

@MainActor @preconcurrency
open class UITableViewDiffableDataSource<SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable>: NSObject {
    public init(tableView: UITableView, cellProvider: @escaping CellProvider) { super.init() }
    open func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { nil }
    @available(iOS 15.0, tvOS 15.0, *)
    open func sectionIdentifier(for index: Int) -> SectionIdentifierType? { nil }
    open func apply(_ snapshot: NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>,
                    animatingDifferences: Bool = true, completion: (() -> Void)? = nil) {}
}

@MainActor @preconcurrency
open class UICollectionViewDiffableDataSource<SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable>: NSObject {
    open func apply(_ snapshot: NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>,
                    animatingDifferences: Bool = true, completion: (() -> Void)? = nil) {}
}

// What the example screens (Examples/Screens) use.

@MainActor open class UIViewController: UIResponder {
    public override init() {}
    public required init?(coder: NSCoder) {}
    open func viewDidLoad() {}
    open func viewWillAppear(_ animated: Bool) {}
    open func viewDidDisappear(_ animated: Bool) {}
    open var navigationItem: UINavigationItem { UINavigationItem() }
}

@MainActor open class UINavigationItem {
    open var rightBarButtonItem: UIBarButtonItem?
}

@MainActor open class UIAction {
    public init(handler: @escaping (UIAction) -> Void) {}
}

@MainActor open class UIBarButtonItem {
    public enum SystemItem: Int, Sendable { case done, cancel, edit, save, add }
    public init(systemItem: UIBarButtonItem.SystemItem, primaryAction: UIAction? = nil, menu: AnyObject? = nil) {}
}

@MainActor public protocol UIContentConfiguration {}

public struct UIListContentConfiguration: UIContentConfiguration {
    public var text: String?
    public var secondaryText: String?
}

@MainActor open class UITableViewCell: UIView {
    public override init() {}
    open func defaultContentConfiguration() -> UIListContentConfiguration { UIListContentConfiguration() }
    open var contentConfiguration: (any UIContentConfiguration)?
}

extension UITableView {
    public enum Style: Int, Sendable { case plain, grouped, insetGrouped }
    public func register(_ cellClass: AnyClass?, forCellReuseIdentifier identifier: String) {}
    public func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> UITableViewCell {
        UITableViewCell()
    }
}

@MainActor open class UITableViewController: UIViewController {
    public init(style: UITableView.Style) { super.init() }
    public required init?(coder: NSCoder) { super.init() }
    open var tableView: UITableView! { UITableView() }
    open func numberOfSections(in tableView: UITableView) -> Int { 1 }
    open func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 0 }
    open func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { nil }
    open func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell { UITableViewCell() }
}

extension IndexPath {
    public var section: Int { self[0] }
    public var row: Int { self[1] }
}

extension UITableViewDiffableDataSource {
    public typealias CellProvider = (UITableView, IndexPath, ItemIdentifierType) -> UITableViewCell?
}
