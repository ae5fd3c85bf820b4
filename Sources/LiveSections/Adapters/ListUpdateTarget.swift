// ListUpdateTarget.swift — what a list view must do to show staged changes.

/// A list view that shows sectioned data: UITableView and UICollectionView
/// (see the connectors built on Apple platforms), or ``CheckingListTarget``
/// on any platform.
@MainActor
public protocol ListUpdateTarget: AnyObject {
    /// Throws away everything shown and asks the data source again.
    func reloadData()
    /// Applies one stage as one batch update (UIKit's `performBatchUpdates`):
    /// calls `updatingData` first, inside the batch, so that the data source
    /// shows the state after this stage when the list asks it for counts and rows.
    func performBatchUpdates(_ stage: BatchStage, updatingData: () -> Void)
}

/// One stage of a change, with what switches the data source to the state
/// after it. A list view applies stages one by one, and between stages its
/// data source must show the intermediate states (UIKit checks the counts
/// after every batch).
public struct StagedStep {
    /// The operations of this step, for one batch update.
    public let stage: BatchStage
    /// Makes the data source show the state after `stage`.
    public let commit: () -> Void

    /// A step applying `stage`, whose `commit` makes the data source show
    /// the state after it.
    public init(stage: BatchStage, commit: @escaping () -> Void) {
        self.stage = stage
        self.commit = commit
    }
}

extension StagedStep {
    /// The state after each of `stages`, applied from `old` towards `final`
    /// (inserted rows and sections are taken from `final`, as staged diffs
    /// insert only in their final places); nil if a stage does not apply.
    /// - Complexity: O(items) per stage.
    static func states<ID>(of stages: [BatchStage], from old: [[ID]], to final: [[ID]]) -> [[[ID]]]? {
        var states: [[[ID]]] = []
        var state = old
        for stage in stages {
            guard let next = try? BatchUpdateChecker.apply(stage, to: state, inserting: { final[$0.section][$0.row] },
                                                            insertingSection: { final[$0] }) else { return nil }
            states.append(next)
            state = next
        }
        return states
    }
}

/// Feeds staged changes to a ``ListUpdateTarget`` behind a ready gate:
/// nothing incremental reaches the list before it is ready (a view not yet
/// in a window would crash or animate garbage), and the first thing it gets
/// once ready is one full reload.
@MainActor
public final class ListConnector {
    /// The list view the steps are shown in.
    public let target: ListUpdateTarget
    /// Whether the list view can take batch updates. Setting it to true
    /// reloads the list once; later changes arrive as batch updates.
    public var isReady = false {
        didSet {
            guard isReady, !oldValue else { return }
            target.reloadData()
        }
    }

    /// A connector to `target`, not yet ready (``isReady`` is false).
    public init(target: ListUpdateTarget) { self.target = target }

    /// Shows `steps`, one batch update each, committing each step's data
    /// inside its batch. Before the list is ready only the data is committed:
    /// the first reload shows the result.
    public func apply(_ steps: [StagedStep]) {
        for step in steps {
            if isReady && !step.stage.isEmpty {
                target.performBatchUpdates(step.stage, updatingData: step.commit)
            } else {
                step.commit()
            }
        }
    }
}
