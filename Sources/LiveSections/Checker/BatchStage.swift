// BatchStage.swift — one `performBatchUpdates` worth of changes, in UIKit's index spaces.

/// A section moved within one batch: `from` in the old index space, `to` in the new one.
public struct SectionMove: Hashable, Sendable, CustomStringConvertible {
    /// The section's index before the batch.
    public var from: Int
    /// The section's index after the batch.
    public var to: Int

    /// Creates a section move from `from` (old index space) to `to` (new index space).
    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }

    /// The move as `from -> to`.
    public var description: String { "\(from) -> \(to)" }
}

/// A row moved within one batch: `from` in the old index space, `to` in the new one.
public struct RowMove: Hashable, Sendable, CustomStringConvertible {
    /// The row's place before the batch.
    public var from: RowPath
    /// The row's place after the batch.
    public var to: RowPath

    /// Creates a row move from `from` (old index space) to `to` (new index space).
    public init(from: RowPath, to: RowPath) {
        self.from = from
        self.to = to
    }

    /// The move as `[section, row] -> [section, row]`.
    public var description: String { "\(from) -> \(to)" }
}

/// One `performBatchUpdates` worth of changes to a sectioned list.
///
/// The fields mirror UIKit's batch-update calls and follow UIKit's *batch*
/// contract (not the sequential one):
/// - deletions, reloads and move sources (`deletedSections`,
///   `reloadedSections`, `movedSections[].from`, `deletedRows`, `reloadedRows`,
///   `movedRows[].from`) refer to the state **before** the batch (old index space);
/// - insertions and move destinations (`insertedSections`,
///   `movedSections[].to`, `insertedRows`, `movedRows[].to`) refer to the state
///   **after** it (new index space).
///
/// Items that no operation mentions keep their relative order. The order of
/// the elements inside each array carries no meaning. Use
/// ``BatchUpdateChecker`` to check a stage against UIKit's rules.
public struct BatchStage: Hashable, Sendable {
    /// Sections deleted, old index space.
    public var deletedSections: [Int]
    /// Sections inserted, new index space.
    public var insertedSections: [Int]
    /// Sections reloaded, old index space.
    public var reloadedSections: [Int]
    /// Sections moved, from the old index space to the new one.
    public var movedSections: [SectionMove]
    /// Rows deleted, old index space.
    public var deletedRows: [RowPath]
    /// Rows inserted, new index space.
    public var insertedRows: [RowPath]
    /// Rows reloaded, old index space.
    public var reloadedRows: [RowPath]
    /// Rows moved, from the old index space to the new one.
    public var movedRows: [RowMove]

    /// Creates a stage; every list defaults to empty.
    public init(
        deletedSections: [Int] = [],
        insertedSections: [Int] = [],
        reloadedSections: [Int] = [],
        movedSections: [SectionMove] = [],
        deletedRows: [RowPath] = [],
        insertedRows: [RowPath] = [],
        reloadedRows: [RowPath] = [],
        movedRows: [RowMove] = []
    ) {
        self.deletedSections = deletedSections
        self.insertedSections = insertedSections
        self.reloadedSections = reloadedSections
        self.movedSections = movedSections
        self.deletedRows = deletedRows
        self.insertedRows = insertedRows
        self.reloadedRows = reloadedRows
        self.movedRows = movedRows
    }

    /// Whether the stage contains no operation at all.
    ///
    /// - Complexity: O(1).
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && reloadedSections.isEmpty
            && movedSections.isEmpty && deletedRows.isEmpty && insertedRows.isEmpty
            && reloadedRows.isEmpty && movedRows.isEmpty
    }

    /// The total number of operations in the stage.
    ///
    /// - Complexity: O(1).
    public var operationCount: Int {
        deletedSections.count + insertedSections.count + reloadedSections.count
            + movedSections.count + deletedRows.count + insertedRows.count
            + reloadedRows.count + movedRows.count
    }
}
