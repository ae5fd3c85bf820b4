// ShownCounts.swift — the row counts a list view shows, carried from batch
// to batch as UIKit checks them.

/// The row count of every section a list view shows, as the batches it
/// was given say: each stage is checked with ``BatchUpdateChecker`` against
/// them and the counts its data source reports after the stage's data is
/// updated, as UITableView and UICollectionView check it.
@MainActor
package struct ShownCounts {
    /// The row count of every section, as the data source reports it now.
    private let reported: () -> [Int]
    /// The counts the list shows (none until the first reload).
    package private(set) var counts: [Int] = []

    package init(reported: @escaping () -> [Int]) {
        self.reported = reported
    }

    /// Shows the counts the data source reports now.
    package mutating func reload() {
        counts = reported()
    }

    /// Checks `stage`, its data updated, against the counts shown and
    /// those the data source reports now, which the list shows from then
    /// on. Returns the counts reported, and why UIKit would refuse the
    /// stage (nil when it would not).
    /// - Complexity: O(*o* + *s*) expected for *o* operations and *s* sections.
    package mutating func check(_ stage: BatchStage) -> (reported: [Int], refused: BatchUpdateError?) {
        let now = reported()
        do throws(BatchUpdateError) {
            counts = try BatchUpdateChecker.apply(stage, toCounts: counts, newCounts: now)
            return (now, nil)
        } catch {
            // UIKit would have raised; the list goes on with what the data source says.
            counts = now
            return (now, error)
        }
    }
}
