// SingleSectionStages.swift — a sorted collection's batch as the stages of
// a list with one section.
import LiveCollection

extension BatchStage {
    /// The stages of a sorted collection's batch shown as the rows of one
    /// section (section 0): updates, deletes, inserts and moves together,
    /// then the reloads of moved rows whose content changed (UIKit forbids
    /// a reload and a move of one row in one batch). Empty stages are left out.
    /// - Complexity: O(c) for c positions changed.
    public static func singleSection(of batch: CollectionBatch) -> [BatchStage] {
        var first = BatchStage()
        first.deletedRows = batch.deleted.map { RowPath(section: 0, row: $0) }
        first.insertedRows = batch.inserted.map { RowPath(section: 0, row: $0) }
        first.reloadedRows = batch.updated.map { RowPath(section: 0, row: $0) }
        first.movedRows = batch.moved.map { RowMove(from: RowPath(section: 0, row: $0.from), to: RowPath(section: 0, row: $0.to)) }
        var second = BatchStage()
        second.reloadedRows = batch.moved.filter(\.updated).map { RowPath(section: 0, row: $0.to) }
        return [first, second].filter { !$0.isEmpty }
    }
}
