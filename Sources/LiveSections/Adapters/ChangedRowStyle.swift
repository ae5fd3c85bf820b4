// ChangedRowStyle.swift — how a list view shows a row whose content changed:
// its cell reconfigured in place, or replaced.

/// How a list view shows rows whose content changed.
public enum ChangedRowStyle: Sendable, Hashable {
    /// The existing cell is updated in place (UIKit's `reconfigureRows` /
    /// `reconfigureItems`, iOS 15 and later): no new cell, no reload
    /// animation, faster.
    case reconfigure
    /// The cell is replaced (UIKit's `reloadRows` / `reloadItems`).
    case reload
}

extension BatchStage {
    /// The stage's changed rows, split into those to reload in the batch and
    /// those to reconfigure, under `style`.
    ///
    /// UIKit documents reloaded rows in the batch's old index space; a
    /// reconfigured row's path is only unambiguous when the stage moves
    /// nothing else (old and new index spaces are then the same). So rows
    /// are reconfigured only in a stage that holds nothing but changed rows
    /// — which is how this package stages every row that also moved, and
    /// every single change — and reloaded otherwise.
    /// - Complexity: O(1).
    public func changedRows(as style: ChangedRowStyle) -> (reload: [RowPath], reconfigure: [RowPath]) {
        let onlyChangedRows = deletedSections.isEmpty && insertedSections.isEmpty && reloadedSections.isEmpty
            && movedSections.isEmpty && deletedRows.isEmpty && insertedRows.isEmpty && movedRows.isEmpty
        return style == .reconfigure && onlyChangedRows ? ([], reloadedRows) : (reloadedRows, [])
    }
}
