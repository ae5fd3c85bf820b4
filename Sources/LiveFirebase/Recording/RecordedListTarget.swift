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
    private var list: ShownCounts
    private weak var recorder: FlightRecorder?
    /// The counts the list shows, as far as the batches it was given say.
    public var shown: [Int] { list.counts }

    /// `target`, whose data source reports its row counts through `counts`,
    /// noted in `recorder`.
    public init(_ target: ListUpdateTarget, counts: @escaping () -> [Int], recorder: FlightRecorder) {
        self.target = target
        list = ShownCounts(reported: counts)
        self.recorder = recorder
    }

    /// Reloads the list; its counts are the data source's from then on.
    public func reloadData() {
        target.reloadData()
        list.reload()
    }

    /// Gives `stage` to the list, checked and noted inside its batch.
    /// - Complexity: O(*o* + *s*) expected for *o* operations and *s*
    ///   sections, beside what the list does.
    public func performBatchUpdates(_ stage: BatchStage, updatingData: () -> Void) {
        target.performBatchUpdates(stage) {
            updatingData()
            let (reported, refused) = list.check(stage)
            recorder?.note(listCounts: reported)
            if let refused { recorder?.noteRejected(refused) }
        }
    }
}
