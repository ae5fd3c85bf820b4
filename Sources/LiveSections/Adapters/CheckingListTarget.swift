// CheckingListTarget.swift — a headless list view that checks every batch as UIKit would.

/// A ``ListUpdateTarget`` without a screen: it keeps the row counts a list
/// view would show and checks each batch update with ``BatchUpdateChecker``
/// against the counts the data source reports after it, exactly as
/// UITableView does — so changes can be verified on Linux and in tests.
@MainActor
public final class CheckingListTarget: ListUpdateTarget {
    /// The row count of every section, as the data source reports it now.
    private let counts: () -> [Int]
    /// The counts the list shows.
    public private(set) var shown: [Int]
    /// Every update UIKit would have rejected, with its error.
    public private(set) var rejected: [BatchUpdateError] = []
    public private(set) var reloads = 0, batches = 0

    public init(counts: @escaping () -> [Int]) {
        self.counts = counts
        shown = []
    }

    public func reloadData() {
        reloads += 1
        shown = counts()
    }

    public func performBatchUpdates(_ stage: BatchStage, updatingData: () -> Void) {
        batches += 1
        updatingData()
        let now = counts()
        do {
            shown = try BatchUpdateChecker.apply(stage, toCounts: shown, newCounts: now)
        } catch {
            rejected.append(error)
            shown = now // UIKit would have crashed; carry on with what the data source says
        }
    }
}
