// RecordedListTarget.swift — a list view whose batches a flight recording
// notes, checked before UIKit would check them.
import LiveSections

/// Wraps the list view a `ListConnector` drives (a `UITableView` or
/// `UICollectionView` connector, or `CheckingListTarget`) so that a
/// ``FlightRecorder`` notes, with each change, the row counts the list's
/// data source reports after it, and each stage the list would refuse.
///
/// Each stage is checked with UIKit's rules against the counts the list
/// showed and those the data source reports, inside the batch, after its
/// data is updated: before UIKit raises for the same stage. A refused
/// stage is kept in the recording, which is written to
/// ``FlightRecorder/exportOnRejection`` at once, then forwarded.
@MainActor
public final class RecordedListTarget: ListUpdateTarget {
    /// The list view the batches go to.
    public let target: ListUpdateTarget
    private let counts: () -> [Int]
    private weak var recorder: FlightRecorder?
    /// The counts the list shows, as far as the batches it was given say.
    public private(set) var shown: [Int] = []

    /// `target`, whose data source reports its row counts through `counts`,
    /// noted in `recorder`.
    public init(_ target: ListUpdateTarget, counts: @escaping () -> [Int], recorder: FlightRecorder) {
        self.target = target
        self.counts = counts
        self.recorder = recorder
    }

    /// Reloads the list; its counts are the data source's from then on.
    public func reloadData() {
        target.reloadData()
        shown = counts()
    }

    /// Gives `stage` to the list, checked and noted inside its batch.
    /// - Complexity: O(*o* + *s*) expected for *o* operations and *s*
    ///   sections, beside what the list does.
    public func performBatchUpdates(_ stage: BatchStage, updatingData: () -> Void) {
        target.performBatchUpdates(stage) {
            updatingData()
            let now = counts()
            recorder?.note(listCounts: now)
            do throws(BatchUpdateError) {
                shown = try BatchUpdateChecker.apply(stage, toCounts: shown, newCounts: now)
            } catch {
                shown = now
                recorder?.noteRejected(error)
            }
        }
    }
}
