// BatchUpdateChecker.swift — UIKit's batch-update rules, checked on any platform.

/// Checks a ``BatchStage`` the way UIKit's `UITableView` / `UICollectionView`
/// `performBatchUpdates` does, and applies it to row counts or to a snapshot
/// of item identifiers.
///
/// Rules enforced (each violation is its own ``BatchUpdateError`` case):
/// - every index is in range of its index space: deletions, reloads and move
///   sources in the old state; insertions and move destinations in the new one;
/// - no section or index path is used twice in one role;
/// - no item is both deleted and moved, reloaded and moved, or deleted and
///   reloaded; no destination receives two operations (insert and move, or two
///   moves);
/// - no row is moved out of a deleted section or into an inserted one; no row
///   operation is listed inside a deleted, inserted, reloaded or moved section;
/// - the section count and, for every section that exists before and after,
///   the row count agree with the data source when its counts are given:
///   old − deleted − moved out + inserted + moved in = new.
///
/// UIKit itself is more lenient in three places, where this checker is strict
/// on purpose: it silently de-duplicates repeated deletes and inserts, and it
/// silently drops row operations listed inside deleted or inserted sections.
public enum BatchUpdateChecker {
    /// Validates `stage` against the row counts before the batch and returns
    /// the row counts after it.
    ///
    /// - Parameters:
    ///   - stage: The changes, in UIKit's batch index spaces.
    ///   - old: The number of rows in each section before the batch.
    ///   - newCounts: What the data source reports after the batch, if known.
    ///     When given, the section count and the row count of every section
    ///     that exists before and after (and is not reloaded) must match, as
    ///     UIKit requires, and it is returned.
    /// - Returns: `newCounts` when given; otherwise the computed counts, with
    ///   inserted sections counted as empty and reloaded sections unchanged
    ///   (UIKit takes both from the data source).
    /// - Throws: The first violation found, in UIKit's order of checks.
    /// - Complexity: O(*o* + *s*) expected, where *o* is the number of
    ///   operations in `stage` and *s* the number of sections before and after.
    public static func apply(
        _ stage: BatchStage, toCounts old: [Int], newCounts: [Int]? = nil
    ) throws(BatchUpdateError) -> [Int] {
        try BatchPlan(stage, old: old, reported: newCounts).newCounts
    }

    /// Validates `stage` against a snapshot of item identifiers and returns
    /// the snapshot after it.
    ///
    /// Rows of inserted sections come from `insertingSection`, inserted rows
    /// from `inserting`; moved rows and sections carry their items; reloaded
    /// rows keep their items in place; every other item keeps its relative
    /// order. A reloaded section keeps its items too, unless `newCounts` is
    /// given: then, as UIKit does, its rows come from the data source
    /// (`insertingSection`), in whatever number it reports.
    ///
    /// - Parameters:
    ///   - stage: The changes, in UIKit's batch index spaces.
    ///   - old: The items of each section before the batch.
    ///   - newCounts: What the data source reports after the batch, if known;
    ///     checked as ``apply(_:toCounts:newCounts:)`` checks it, so that one
    ///     call does what UIKit does with a batch.
    ///   - inserting: The item for an inserted row, given its path after the batch.
    ///   - insertingSection: The items of an inserted (or, with `newCounts`,
    ///     reloaded) section, given its index after the batch.
    /// - Returns: The items of each section after the batch.
    /// - Throws: The first violation found, as ``apply(_:toCounts:newCounts:)``.
    /// - Complexity: O(*n* + *o* + *s*) expected, where *n* is the total
    ///   number of items before and after, *o* the number of operations and
    ///   *s* the number of sections.
    public static func apply<ID>(
        _ stage: BatchStage,
        to old: [[ID]],
        newCounts: [Int]? = nil,
        inserting: (RowPath) -> ID,
        insertingSection: (Int) -> [ID]
    ) throws(BatchUpdateError) -> [[ID]] {
        let plan = try BatchPlan(stage, old: old.map(\.count), reported: newCounts)
        let askSource: Set<Int> = newCounts == nil ? [] : Set(stage.reloadedSections)

        // Old rows that leave their place: deleted or moved away.
        var leaves = old.map { [Bool](repeating: false, count: $0.count) }
        for path in stage.deletedRows { leaves[path.section][path.row] = true }
        for move in stage.movedRows { leaves[move.from.section][move.from.row] = true }

        // New rows whose item is fixed by an operation: inserted or moved in.
        var placed = plan.newCounts.map { [ID?](repeating: nil, count: $0) }
        for path in stage.insertedRows { placed[path.section][path.row] = inserting(path) }
        for move in stage.movedRows {
            placed[move.to.section][move.to.row] = old[move.from.section][move.from.row]
        }

        var result: [[ID]] = []
        result.reserveCapacity(plan.oldOfNew.count)
        for (section, source) in plan.oldOfNew.enumerated() {
            guard source >= 0, !askSource.contains(source) else {
                result.append(insertingSection(section))
                continue
            }
            let items = old[source]
            let gone = leaves[source]
            var next = 0
            var rows: [ID] = []
            rows.reserveCapacity(plan.newCounts[section])
            for slot in placed[section] {
                if let item = slot {
                    rows.append(item)
                    continue
                }
                // The counts agree (checked by the plan), so a staying item is left.
                while gone[next] { next += 1 }
                rows.append(items[next])
                next += 1
            }
            result.append(rows)
        }
        return result
    }
}
