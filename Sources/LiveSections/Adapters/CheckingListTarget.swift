// CheckingListTarget.swift — a headless list view that checks every batch as UIKit would.

/// A ``ListUpdateTarget`` without a screen: it keeps the row counts a list
/// view would show and checks each batch update with ``BatchUpdateChecker``
/// against the counts the data source reports after it, exactly as
/// UITableView does — so changes can be verified on Linux and in tests.
@MainActor
public final class CheckingListTarget: ListUpdateTarget {
    private var list: ShownCounts
    /// The counts the list shows.
    public var shown: [Int] { list.counts }
    /// Every update UIKit would have rejected, with its error.
    public private(set) var rejected: [BatchUpdateError] = []
    /// How many times the list was reloaded (`reloads`) and how many batch
    /// updates it was given, accepted or rejected (`batches`).
    public private(set) var reloads = 0, batches = 0

    /// A list whose data source reports its row counts through `counts`,
    /// called on each reload and after each batch's data update. It shows
    /// nothing until the first ``reloadData()``.
    public init(counts: @escaping () -> [Int]) {
        list = ShownCounts(reported: counts)
    }

    /// Shows the counts the data source reports now.
    public func reloadData() {
        reloads += 1
        list.reload()
    }

    /// Calls `updatingData`, then checks `stage` against the counts shown
    /// and the counts the data source reports now. A stage UIKit would
    /// reject is added to ``rejected``, and the list then shows the
    /// reported counts.
    /// - Complexity: O(*o* + *s*) expected for *o* operations and *s* sections.
    public func performBatchUpdates(_ stage: BatchStage, updatingData: () -> Void) {
        batches += 1
        updatingData()
        if let error = list.check(stage).refused { rejected.append(error) }
    }
}
