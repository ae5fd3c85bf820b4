import LiveModel
import Foundation
import LiveTestSupport
import Testing

@testable import LiveSections

// MARK: - Helpers

private func path(_ section: Int, _ row: Int) -> RowPath { RowPath(section: section, row: row) }
private func move(_ from: RowPath, _ to: RowPath) -> RowMove { RowMove(from: from, to: to) }

/// Applies a string stage with readable names for inserted things.
private func applyNamed(_ stage: BatchStage, to old: [[String]]) throws(BatchUpdateError) -> [[String]] {
    try BatchUpdateChecker.apply(
        stage, to: old,
        inserting: { "+\($0.section).\($0.row)" },
        insertingSection: { ["S\($0)"] })
}

// MARK: - Tables

struct ValidCase: Sendable, CustomTestStringConvertible {
    var name: String
    var old: [[String]]
    var stage: BatchStage
    var expected: [[String]]
    var testDescription: String { name }
}

struct InvalidCase: Sendable, CustomTestStringConvertible {
    var name: String
    var old: [Int]
    var newCounts: [Int]? = nil
    var stage: BatchStage
    var error: BatchUpdateError
    var message: String
    var testDescription: String { name }
}

private let abc: [[String]] = [["a", "b", "c"], ["d", "e"]]

private let validCases: [ValidCase] = [
    ValidCase(name: "empty", old: abc, stage: BatchStage(), expected: abc),
    ValidCase(name: "delete row", old: abc, stage: BatchStage(deletedRows: [path(0, 1)]),
              expected: [["a", "c"], ["d", "e"]]),
    ValidCase(name: "insert row", old: abc, stage: BatchStage(insertedRows: [path(1, 0)]),
              expected: [["a", "b", "c"], ["+1.0", "d", "e"]]),
    ValidCase(name: "insert row at end", old: abc, stage: BatchStage(insertedRows: [path(1, 2)]),
              expected: [["a", "b", "c"], ["d", "e", "+1.2"]]),
    ValidCase(name: "reload row", old: abc, stage: BatchStage(reloadedRows: [path(0, 2)]), expected: abc),
    ValidCase(name: "move row within section", old: abc,
              stage: BatchStage(movedRows: [move(path(0, 0), path(0, 2))]),
              expected: [["b", "c", "a"], ["d", "e"]]),
    ValidCase(name: "swap rows", old: abc,
              stage: BatchStage(movedRows: [move(path(0, 0), path(0, 1)), move(path(0, 1), path(0, 0))]),
              expected: [["b", "a", "c"], ["d", "e"]]),
    ValidCase(name: "move row across sections", old: abc,
              stage: BatchStage(movedRows: [move(path(0, 1), path(1, 0))]),
              expected: [["a", "c"], ["b", "d", "e"]]),
    ValidCase(name: "move row onto its own path", old: abc,
              stage: BatchStage(movedRows: [move(path(1, 1), path(1, 1))]), expected: abc),
    ValidCase(name: "delete section", old: abc, stage: BatchStage(deletedSections: [0]), expected: [["d", "e"]]),
    ValidCase(name: "insert section", old: abc, stage: BatchStage(insertedSections: [1]),
              expected: [["a", "b", "c"], ["S1"], ["d", "e"]]),
    ValidCase(name: "reload section", old: abc, stage: BatchStage(reloadedSections: [1]), expected: abc),
    ValidCase(name: "move section with its rows", old: abc,
              stage: BatchStage(movedSections: [SectionMove(from: 0, to: 1)]),
              expected: [["d", "e"], ["a", "b", "c"]]),
    ValidCase(name: "rows: delete, insert, move across sections", old: abc,
              stage: BatchStage(
                  deletedRows: [path(0, 0), path(1, 0)], insertedRows: [path(0, 0)],
                  movedRows: [move(path(0, 2), path(1, 1))]),
              expected: [["+0.0", "b"], ["e", "c"]]),
    ValidCase(name: "row reload beside deletes", old: abc,
              stage: BatchStage(deletedRows: [path(0, 0)], reloadedRows: [path(0, 2)]),
              expected: [["b", "c"], ["d", "e"]]),
    ValidCase(name: "sections and rows together", old: [["a", "b"], ["c"], ["d", "e"]],
              stage: BatchStage(
                  deletedSections: [1], insertedSections: [0], movedSections: [SectionMove(from: 2, to: 1)],
                  deletedRows: [path(0, 1)], insertedRows: [path(2, 0)]),
              expected: [["S0"], ["d", "e"], ["+2.0", "a"]]),
    ValidCase(name: "row move into a section shifted by a section delete", old: [["a"], ["b"], ["c", "d"]],
              stage: BatchStage(deletedSections: [0], movedRows: [move(path(2, 0), path(0, 0))]),
              expected: [["c", "b"], ["d"]]),
    ValidCase(name: "row move between sections around a moved section",
              old: [["a", "b"], ["c"], ["d"]],
              stage: BatchStage(
                  movedSections: [SectionMove(from: 1, to: 0)],
                  movedRows: [move(path(0, 0), path(2, 1))]),
              expected: [["c"], ["b"], ["d", "a"]]),
    ValidCase(name: "reload section and move another", old: [["a"], ["b"], ["c"]],
              stage: BatchStage(reloadedSections: [0], movedSections: [SectionMove(from: 2, to: 0)]),
              expected: [["c"], ["a"], ["b"]]),
    ValidCase(name: "every kind at once", old: [["a", "b", "c"], ["d"], ["e", "f"], ["g"]],
              stage: BatchStage(
                  deletedSections: [1], insertedSections: [3], reloadedSections: [3],
                  movedSections: [SectionMove(from: 2, to: 0)],
                  deletedRows: [path(0, 0)], insertedRows: [path(1, 2)], reloadedRows: [path(0, 1)],
                  movedRows: [move(path(0, 2), path(1, 0))]),
              expected: [["e", "f"], ["c", "b", "+1.2"], ["g"], ["S3"]]),
]

private let oldCounts = [3, 2]

private let invalidCases: [InvalidCase] = [
    InvalidCase(name: "delete section out of range", old: oldCounts, stage: BatchStage(deletedSections: [2]),
                error: .sectionDeleteOutOfRange(section: 2, sectionCount: 2),
                message: "attempt to delete section 2, but there are only 2 sections before the update"),
    InvalidCase(name: "reload section out of range", old: oldCounts, stage: BatchStage(reloadedSections: [5]),
                error: .sectionReloadOutOfRange(section: 5, sectionCount: 2),
                message: "attempt to reload section 5, but there are only 2 sections before the update"),
    InvalidCase(name: "move section from out of range", old: oldCounts,
                stage: BatchStage(movedSections: [SectionMove(from: 2, to: 0)]),
                error: .sectionMoveSourceOutOfRange(SectionMove(from: 2, to: 0), sectionCount: 2),
                message: "attempt to move section 2, but there are only 2 sections before the update"),
    InvalidCase(name: "move section to out of range", old: oldCounts,
                stage: BatchStage(movedSections: [SectionMove(from: 0, to: 2)]),
                error: .sectionMoveDestinationOutOfRange(SectionMove(from: 0, to: 2), sectionCount: 2),
                message: "attempt to to move section 0 to section 2, but there are only 2 sections after the update"),
    InvalidCase(name: "insert section out of range", old: oldCounts, stage: BatchStage(insertedSections: [3]),
                error: .sectionInsertOutOfRange(section: 3, sectionCount: 3),
                message: "attempt to insert section 3 but there are only 3 sections after the update"),
    InvalidCase(name: "section deleted twice", old: oldCounts, stage: BatchStage(deletedSections: [0, 0]),
                error: .duplicateSection(.delete, section: 0),
                message: "attempt to delete section 0 more than once in the same update"),
    InvalidCase(name: "section inserted twice", old: oldCounts, stage: BatchStage(insertedSections: [1, 1]),
                error: .duplicateSection(.insert, section: 1),
                message: "attempt to insert section 1 more than once in the same update"),
    InvalidCase(name: "section reloaded twice", old: oldCounts, stage: BatchStage(reloadedSections: [1, 1]),
                error: .duplicateSection(.reload, section: 1),
                message: "attempt to reload section 1 more than once in the same update"),
    InvalidCase(name: "section moved twice", old: oldCounts,
                stage: BatchStage(movedSections: [SectionMove(from: 0, to: 1), SectionMove(from: 0, to: 0)]),
                error: .sectionMovedTwice(section: 0, firstDestination: 1, secondDestination: 0),
                message: "attempt to move section 0 to both section 1 and section 0"),
    InvalidCase(name: "two sections moved to one", old: oldCounts,
                stage: BatchStage(movedSections: [SectionMove(from: 0, to: 1), SectionMove(from: 1, to: 1)]),
                error: .sectionsMovedToSameSection(firstSource: 0, secondSource: 1, destination: 1),
                message: "attempt to move both section 0 and section 1 to section 1"),
    InvalidCase(name: "section deleted and moved", old: oldCounts,
                stage: BatchStage(deletedSections: [0], movedSections: [SectionMove(from: 0, to: 0)]),
                error: .sectionDeletedAndMoved(section: 0),
                message: "attempt to perform a delete and a move from the same section (0)"),
    InvalidCase(name: "section reloaded and moved", old: oldCounts,
                stage: BatchStage(reloadedSections: [0], movedSections: [SectionMove(from: 0, to: 1)]),
                error: .sectionReloadedAndMoved(section: 0),
                message: "attempt to perform a delete and a move from the same section (0)"),
    InvalidCase(name: "section deleted and reloaded", old: oldCounts,
                stage: BatchStage(deletedSections: [1], reloadedSections: [1]),
                error: .sectionDeletedAndReloaded(section: 1),
                message: "attempt to delete and reload the same section (1)"),
    InvalidCase(name: "section inserted and moved to", old: oldCounts,
                stage: BatchStage(insertedSections: [0], movedSections: [SectionMove(from: 1, to: 0)]),
                error: .sectionInsertedAndMovedTo(section: 0),
                message: "attempt to perform an insert and a move to the same section (0)"),
    InvalidCase(name: "section count", old: oldCounts, newCounts: [3, 2, 1], stage: BatchStage(),
                error: .invalidSectionCount(after: 3, before: 2, inserted: 0, deleted: 0),
                message: "Invalid update: invalid number of sections. The number of sections contained in the table view after the update (3) must be equal to the number of sections contained in the table view before the update (2), plus or minus the number of sections inserted or deleted (0 inserted, 0 deleted)."),
    InvalidCase(name: "delete row from missing section", old: oldCounts, stage: BatchStage(deletedRows: [path(2, 0)]),
                error: .rowDeleteSectionOutOfRange(path(2, 0), sectionCount: 2),
                message: "attempt to delete row 0 from section 2, but there are only 2 sections before the update"),
    InvalidCase(name: "delete row out of range", old: oldCounts, stage: BatchStage(deletedRows: [path(1, 2)]),
                error: .rowDeleteOutOfRange(path(1, 2), rowCount: 2),
                message: "attempt to delete row 2 from section 1 which only contains 2 rows before the update"),
    InvalidCase(name: "reload row in missing section", old: oldCounts, stage: BatchStage(reloadedRows: [path(2, 0)]),
                error: .rowReloadSectionOutOfRange(path(2, 0), sectionCount: 2),
                message: "attempt to reload row 0 in section 2, but there are only 2 sections before the update"),
    InvalidCase(name: "reload row out of range", old: oldCounts, stage: BatchStage(reloadedRows: [path(0, 3)]),
                error: .rowReloadOutOfRange(path(0, 3), rowCount: 3),
                message: "attempt to reload row 3 in section 0 which only contains 3 rows before the update"),
    InvalidCase(name: "move row from missing section", old: oldCounts,
                stage: BatchStage(movedRows: [move(path(4, 0), path(0, 0))]),
                error: .rowMoveSourceSectionOutOfRange(move(path(4, 0), path(0, 0)), sectionCount: 2),
                message: "attempt to move index path ([4, 0]) from a section that does not exist - there are only 2 sections before the update"),
    InvalidCase(name: "move row from out of range", old: oldCounts,
                stage: BatchStage(movedRows: [move(path(1, 5), path(0, 0))]),
                error: .rowMoveSourceOutOfRange(move(path(1, 5), path(0, 0)), rowCount: 2),
                message: "attempt to move index path ([1, 5]) that does not exist - there are only 2 rows in section 1 before the update"),
    InvalidCase(name: "move row to missing section", old: oldCounts,
                stage: BatchStage(movedRows: [move(path(0, 0), path(2, 0))]),
                error: .rowMoveDestinationSectionOutOfRange(move(path(0, 0), path(2, 0)), sectionCount: 2),
                message: "attempt to move index path ([0, 0]) to index path ([2, 0]) in section that does not exist - there are only 2 sections after the update"),
    InvalidCase(name: "move row to out of range", old: oldCounts,
                stage: BatchStage(movedRows: [move(path(0, 0), path(1, 3))]),
                error: .rowMoveDestinationOutOfRange(move(path(0, 0), path(1, 3)), rowCount: 3),
                message: "attempt to move index path ([0, 0]) to index path ([1, 3]) that does not exist - there are only 3 rows in section 1 after the update"),
    InvalidCase(name: "insert row into missing section", old: oldCounts, stage: BatchStage(insertedRows: [path(2, 0)]),
                error: .rowInsertSectionOutOfRange(path(2, 0), sectionCount: 2),
                message: "attempt to insert row 0 into section 2, but there are only 2 sections after the update"),
    InvalidCase(name: "insert row out of range", old: oldCounts, stage: BatchStage(insertedRows: [path(0, 4)]),
                error: .rowInsertOutOfRange(path(0, 4), rowCount: 4),
                message: "attempt to insert row 4 into section 0, but there are only 4 rows in section 0 after the update"),
    InvalidCase(name: "insert row before the data source has it", old: [2], newCounts: [2],
                stage: BatchStage(insertedRows: [path(0, 2)]),
                error: .rowInsertOutOfRange(path(0, 2), rowCount: 2),
                message: "attempt to insert row 2 into section 0, but there are only 2 rows in section 0 after the update"),
    InvalidCase(name: "row deleted twice", old: oldCounts, stage: BatchStage(deletedRows: [path(0, 1), path(0, 1)]),
                error: .duplicateRow(.delete, path(0, 1)),
                message: "attempt to delete index path ([0, 1]) more than once in the same update"),
    InvalidCase(name: "row inserted twice", old: oldCounts, stage: BatchStage(insertedRows: [path(0, 1), path(0, 1)]),
                error: .duplicateRow(.insert, path(0, 1)),
                message: "attempt to insert index path ([0, 1]) more than once in the same update"),
    InvalidCase(name: "row reloaded twice", old: oldCounts, stage: BatchStage(reloadedRows: [path(1, 1), path(1, 1)]),
                error: .duplicateRow(.reload, path(1, 1)),
                message: "attempt to reload index path ([1, 1]) more than once in the same update"),
    InvalidCase(name: "row moved twice", old: oldCounts,
                stage: BatchStage(movedRows: [move(path(0, 0), path(0, 1)), move(path(0, 0), path(0, 2))]),
                error: .rowMovedTwice(path(0, 0), firstDestination: path(0, 1), secondDestination: path(0, 2)),
                message: "attempt to move row at index path [0, 0] to both [0, 1] and [0, 2]"),
    InvalidCase(name: "two rows moved to one path", old: oldCounts,
                stage: BatchStage(movedRows: [move(path(0, 0), path(1, 0)), move(path(0, 1), path(1, 0))]),
                error: .rowsMovedToSamePath(firstSource: path(0, 0), secondSource: path(0, 1), destination: path(1, 0)),
                message: "attempt to move both row at index path [0, 0] and [0, 1] to [1, 0]"),
    InvalidCase(name: "row deleted and moved", old: oldCounts,
                stage: BatchStage(deletedRows: [path(0, 0)], movedRows: [move(path(0, 0), path(1, 0))]),
                error: .rowDeletedAndMoved(path(0, 0)),
                message: "attempt to perform a delete and a move from the same index path ([0, 0])"),
    InvalidCase(name: "row reloaded and moved", old: oldCounts,
                stage: BatchStage(reloadedRows: [path(0, 1)], movedRows: [move(path(0, 1), path(0, 0))]),
                error: .rowReloadedAndMoved(path(0, 1)),
                message: "attempt to perform a delete and a move from the same index path ([0, 1])"),
    InvalidCase(name: "row deleted and reloaded", old: oldCounts,
                stage: BatchStage(deletedRows: [path(0, 1)], reloadedRows: [path(0, 1)]),
                error: .rowDeletedAndReloaded(path(0, 1)),
                message: "attempt to delete and reload the same index path ([0, 1])"),
    InvalidCase(name: "row inserted and moved to", old: oldCounts,
                stage: BatchStage(insertedRows: [path(1, 0)], movedRows: [move(path(0, 0), path(1, 0))]),
                error: .rowInsertedAndMovedTo(path(1, 0)),
                message: "attempt to perform an insert and a move to the same index path ([1, 0])"),
    InvalidCase(name: "row moved from deleted section", old: oldCounts,
                stage: BatchStage(deletedSections: [0], movedRows: [move(path(0, 0), path(0, 0))]),
                error: .rowMovedFromDeletedSection(move(path(0, 0), path(0, 0))),
                message: "cannot move a row from a deleted section (0)"),
    InvalidCase(name: "row moved into inserted section", old: oldCounts,
                stage: BatchStage(insertedSections: [0], movedRows: [move(path(0, 0), path(0, 0))]),
                error: .rowMovedIntoInsertedSection(move(path(0, 0), path(0, 0))),
                message: "cannot move a row into a newly inserted section (0)"),
    InvalidCase(name: "row deleted inside deleted section", old: oldCounts,
                stage: BatchStage(deletedSections: [0], deletedRows: [path(0, 1)]),
                error: .rowInDeletedSection(.delete, path(0, 1)),
                message: "attempt to delete index path ([0, 1]) in section 0, which is deleted in the same update"),
    InvalidCase(name: "row reloaded inside deleted section", old: oldCounts,
                stage: BatchStage(deletedSections: [1], reloadedRows: [path(1, 1)]),
                error: .rowInDeletedSection(.reload, path(1, 1)),
                message: "attempt to reload index path ([1, 1]) in section 1, which is deleted in the same update"),
    InvalidCase(name: "row inserted inside inserted section", old: oldCounts,
                stage: BatchStage(insertedSections: [2], insertedRows: [path(2, 0)]),
                error: .rowInInsertedSection(.insert, path(2, 0)),
                message: "attempt to insert index path ([2, 0]) in section 2, which is inserted in the same update"),
    InvalidCase(name: "row deleted inside reloaded section", old: oldCounts,
                stage: BatchStage(reloadedSections: [0], deletedRows: [path(0, 0)]),
                error: .rowInReloadedSection(.delete, path(0, 0)),
                message: "attempt to use index path ([0, 0]) as a row delete in section 0, which is reloaded in the same update"),
    InvalidCase(name: "row inserted inside reloaded section", old: oldCounts,
                stage: BatchStage(reloadedSections: [0], insertedRows: [path(0, 0)]),
                error: .rowInReloadedSection(.insert, path(0, 0)),
                message: "attempt to use index path ([0, 0]) as a row insert in section 0, which is reloaded in the same update"),
    InvalidCase(name: "row moved out of reloaded section", old: oldCounts,
                stage: BatchStage(reloadedSections: [0], movedRows: [move(path(0, 0), path(1, 0))]),
                error: .rowInReloadedSection(.moveSource, path(0, 0)),
                message: "attempt to use index path ([0, 0]) as a row move source in section 0, which is reloaded in the same update"),
    InvalidCase(name: "row moved into reloaded section", old: oldCounts,
                stage: BatchStage(reloadedSections: [0], movedRows: [move(path(1, 0), path(0, 0))]),
                error: .rowInReloadedSection(.moveDestination, path(0, 0)),
                message: "attempt to use index path ([0, 0]) as a row move destination in section 0, which is reloaded in the same update"),
    InvalidCase(name: "row deleted inside moved section", old: oldCounts,
                stage: BatchStage(movedSections: [SectionMove(from: 0, to: 1)], deletedRows: [path(0, 0)]),
                error: .rowInMovedSection(.delete, path(0, 0)),
                message: "attempt to use index path ([0, 0]) as a row delete in section 0, which is moved in the same update"),
    InvalidCase(name: "row reloaded inside moved section", old: oldCounts,
                stage: BatchStage(movedSections: [SectionMove(from: 0, to: 1)], reloadedRows: [path(0, 2)]),
                error: .rowInMovedSection(.reload, path(0, 2)),
                message: "attempt to use index path ([0, 2]) as a row reload in section 0, which is moved in the same update"),
    InvalidCase(name: "row inserted inside moved section", old: oldCounts,
                stage: BatchStage(movedSections: [SectionMove(from: 0, to: 1)], insertedRows: [path(1, 0)]),
                error: .rowInMovedSection(.insert, path(1, 0)),
                message: "attempt to use index path ([1, 0]) as a row insert in section 1, which is moved in the same update"),
    InvalidCase(name: "row moved out of moved section", old: oldCounts,
                stage: BatchStage(movedSections: [SectionMove(from: 0, to: 1)], movedRows: [move(path(0, 0), path(0, 0))]),
                error: .rowInMovedSection(.moveSource, path(0, 0)),
                message: "attempt to use index path ([0, 0]) as a row move source in section 0, which is moved in the same update"),
    InvalidCase(name: "row moved into moved section", old: oldCounts,
                stage: BatchStage(movedSections: [SectionMove(from: 0, to: 1)], movedRows: [move(path(1, 0), path(1, 0))]),
                error: .rowInMovedSection(.moveDestination, path(1, 0)),
                message: "attempt to use index path ([1, 0]) as a row move destination in section 1, which is moved in the same update"),
    InvalidCase(name: "row count", old: oldCounts, newCounts: [4, 2], stage: BatchStage(),
                error: .invalidRowCount(section: 0, after: 4, before: 3, inserted: 0, deleted: 0, movedIn: 0, movedOut: 0),
                message: "Invalid update: invalid number of rows in section 0. The number of rows contained in an existing section after the update (4) must be equal to the number of rows contained in that section before the update (3), plus or minus the number of rows inserted or deleted from that section (0 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out)."),
    InvalidCase(name: "row count with a move out", old: oldCounts, newCounts: [3, 3],
                stage: BatchStage(movedRows: [move(path(0, 0), path(1, 0))]),
                error: .invalidRowCount(section: 0, after: 3, before: 3, inserted: 0, deleted: 0, movedIn: 0, movedOut: 1),
                message: "Invalid update: invalid number of rows in section 0. The number of rows contained in an existing section after the update (3) must be equal to the number of rows contained in that section before the update (3), plus or minus the number of rows inserted or deleted from that section (0 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 1 moved out)."),
    InvalidCase(name: "row count of a moved section", old: oldCounts, newCounts: [2, 4],
                stage: BatchStage(movedSections: [SectionMove(from: 0, to: 1)]),
                error: .invalidRowCount(section: 1, after: 4, before: 3, inserted: 0, deleted: 0, movedIn: 0, movedOut: 0),
                message: "Invalid update: invalid number of rows in section 1. The number of rows contained in an existing section after the update (4) must be equal to the number of rows contained in that section before the update (3), plus or minus the number of rows inserted or deleted from that section (0 inserted, 0 deleted) and plus or minus the number of rows moved into or out of that section (0 moved in, 0 moved out)."),
]

// MARK: - Random valid stages, built by brute force

/// A valid stage over a random snapshot, with the snapshot it must produce.
private struct RandomCase {
    var old: [[Int]]
    var stage: BatchStage
    var target: [[Int]]
    var insertedRows: [RowPath: Int]
    var insertedSections: [Int: [Int]]
    var reloadedItems: Set<Int>
}

/// Chooses operations consistently on a random snapshot: each old section is
/// deleted, reloaded, moved or kept; kept sections get row deletes, reloads,
/// moves out (to any kept section) and inserts. The target is built directly
/// from those choices, and the stage is read off the target.
private func randomCase(_ rng: inout SplitMix64, nonEmpty: Bool) -> RandomCase {
    var nextID = 1
    func fresh() -> Int { defer { nextID += 1 }; return nextID }

    let sectionCount = Int.random(in: 0...5, using: &rng)
    let old: [[Int]] = (0..<sectionCount).map { _ in
        (0..<Int.random(in: (nonEmpty ? 1 : 0)...5, using: &rng)).map { _ in fresh() }
    }

    enum SectionKind { case delete, reload, move, keep }
    let kinds: [SectionKind] = old.indices.map { _ in
        switch Int.random(in: 0..<100, using: &rng) {
        case ..<15: .delete
        case ..<25: .reload
        case ..<40: .move
        default: .keep
        }
    }

    // Rows of kept sections: what each old row does.
    enum Entry { case stay(Int), moved(Int, from: RowPath), inserted(Int) }
    var deletedRows: [RowPath] = []
    var reloadedRows: [RowPath] = []
    var reloadedItems = Set<Int>()
    var movers: [(Int, RowPath)] = []
    var keptRows: [Int: [Entry]] = [:]
    for (section, items) in old.enumerated() where kinds[section] == .keep {
        var entries: [Entry] = []
        for (row, item) in items.enumerated() {
            let here = RowPath(section: section, row: row)
            switch Int.random(in: 0..<100, using: &rng) {
            case ..<15: deletedRows.append(here)
            case ..<25:
                reloadedRows.append(here)
                reloadedItems.insert(item)
                entries.append(.stay(item))
            case ..<40: movers.append((item, here))
            default: entries.append(.stay(item))
            }
        }
        keptRows[section] = entries
    }
    let keptSections = keptRows.keys.sorted()
    for (item, from) in movers {
        let section = keptSections.randomElement(using: &rng)!
        let position = Int.random(in: 0...keptRows[section]!.count, using: &rng)
        keptRows[section]!.insert(.moved(item, from: from), at: position)
    }
    for section in keptSections {
        for _ in 0..<Int.random(in: 0...2, using: &rng) {
            let position = Int.random(in: 0...keptRows[section]!.count, using: &rng)
            keptRows[section]!.insert(.inserted(fresh()), at: position)
        }
    }

    // Sections: kept and reloaded ones in order, then moved and inserted ones anywhere.
    enum Slot { case old(Int), inserted([Int]) }
    var slots: [Slot] = old.indices.filter { kinds[$0] == .keep || kinds[$0] == .reload }.map { .old($0) }
    for section in old.indices where kinds[section] == .move {
        slots.insert(.old(section), at: Int.random(in: 0...slots.count, using: &rng))
    }
    for _ in 0..<Int.random(in: 0...2, using: &rng) {
        let items = (0..<Int.random(in: (nonEmpty ? 1 : 0)...3, using: &rng)).map { _ in fresh() }
        slots.insert(.inserted(items), at: Int.random(in: 0...slots.count, using: &rng))
    }

    var stage = BatchStage(deletedRows: deletedRows, reloadedRows: reloadedRows)
    var target: [[Int]] = []
    var insertedRows: [RowPath: Int] = [:]
    var insertedSections: [Int: [Int]] = [:]
    for (index, slot) in slots.enumerated() {
        switch slot {
        case let .inserted(items):
            stage.insertedSections.append(index)
            insertedSections[index] = items
            target.append(items)
        case let .old(section):
            switch kinds[section] {
            case .reload:
                stage.reloadedSections.append(section)
                reloadedItems.formUnion(old[section])
                target.append(old[section])
            case .move:
                stage.movedSections.append(SectionMove(from: section, to: index))
                target.append(old[section])
            default:
                var rows: [Int] = []
                for (row, entry) in keptRows[section]!.enumerated() {
                    let here = RowPath(section: index, row: row)
                    switch entry {
                    case let .stay(item): rows.append(item)
                    case let .moved(item, from):
                        stage.movedRows.append(RowMove(from: from, to: here))
                        rows.append(item)
                    case let .inserted(item):
                        stage.insertedRows.append(here)
                        insertedRows[here] = item
                        rows.append(item)
                    }
                }
                target.append(rows)
            }
        }
    }
    stage.deletedSections = old.indices.filter { kinds[$0] == .delete }
    stage.deletedSections.shuffle(using: &rng)
    stage.insertedSections.shuffle(using: &rng)
    stage.reloadedSections.shuffle(using: &rng)
    stage.movedSections.shuffle(using: &rng)
    stage.deletedRows.shuffle(using: &rng)
    stage.insertedRows.shuffle(using: &rng)
    stage.reloadedRows.shuffle(using: &rng)
    stage.movedRows.shuffle(using: &rng)
    return RandomCase(
        old: old, stage: stage, target: target, insertedRows: insertedRows,
        insertedSections: insertedSections, reloadedItems: reloadedItems)
}

/// Applies a random case's stage (possibly corrupted), inventing sentinel
/// items for any insertion the case did not plan.
private func applyRandom(_ stage: BatchStage, _ c: RandomCase) throws(BatchUpdateError) -> [[Int]] {
    try BatchUpdateChecker.apply(
        stage, to: c.old,
        inserting: { c.insertedRows[$0] ?? -(1_000_000 + $0.section * 1000 + $0.row) },
        insertingSection: { c.insertedSections[$0] ?? [-(2_000_000 + $0)] })
}

/// The items a stage reloads, read from the old snapshot.
private func reloadedItems(_ stage: BatchStage, in old: [[Int]]) -> Set<Int> {
    var items = Set(stage.reloadedRows.map { old[$0.section][$0.row] })
    for section in stage.reloadedSections { items.formUnion(old[section]) }
    return items
}

/// Changes one index of one operation of `stage` to another value.
private func corrupt(_ stage: BatchStage, _ rng: inout SplitMix64, bound: Int) -> BatchStage {
    var s = stage
    func other(_ value: Int) -> Int {
        var result = value
        while result == value { result = Int.random(in: -1...bound, using: &rng) }
        return result
    }
    func corruptPath(_ p: RowPath) -> RowPath {
        var p = p
        if Bool.random(using: &rng) { p.section = other(p.section) } else { p.row = other(p.row) }
        return p
    }
    var lists: [Int] = []
    if !s.deletedSections.isEmpty { lists.append(0) }
    if !s.insertedSections.isEmpty { lists.append(1) }
    if !s.reloadedSections.isEmpty { lists.append(2) }
    if !s.movedSections.isEmpty { lists.append(3) }
    if !s.deletedRows.isEmpty { lists.append(4) }
    if !s.insertedRows.isEmpty { lists.append(5) }
    if !s.reloadedRows.isEmpty { lists.append(6) }
    if !s.movedRows.isEmpty { lists.append(7) }
    switch lists.randomElement(using: &rng)! {
    case 0: let i = s.deletedSections.indices.randomElement(using: &rng)!; s.deletedSections[i] = other(s.deletedSections[i])
    case 1: let i = s.insertedSections.indices.randomElement(using: &rng)!; s.insertedSections[i] = other(s.insertedSections[i])
    case 2: let i = s.reloadedSections.indices.randomElement(using: &rng)!; s.reloadedSections[i] = other(s.reloadedSections[i])
    case 3:
        let i = s.movedSections.indices.randomElement(using: &rng)!
        if Bool.random(using: &rng) { s.movedSections[i].from = other(s.movedSections[i].from) } else { s.movedSections[i].to = other(s.movedSections[i].to) }
    case 4: let i = s.deletedRows.indices.randomElement(using: &rng)!; s.deletedRows[i] = corruptPath(s.deletedRows[i])
    case 5: let i = s.insertedRows.indices.randomElement(using: &rng)!; s.insertedRows[i] = corruptPath(s.insertedRows[i])
    case 6: let i = s.reloadedRows.indices.randomElement(using: &rng)!; s.reloadedRows[i] = corruptPath(s.reloadedRows[i])
    default:
        let i = s.movedRows.indices.randomElement(using: &rng)!
        if Bool.random(using: &rng) { s.movedRows[i].from = corruptPath(s.movedRows[i].from) } else { s.movedRows[i].to = corruptPath(s.movedRows[i].to) }
    }
    return s
}

// MARK: - Tests

@Suite("BatchUpdateChecker")
struct BatchUpdateCheckerTests {
    @Test("valid stages", arguments: validCases)
    func valid(_ c: ValidCase) throws {
        let snapshot = try applyNamed(c.stage, to: c.old)
        #expect(snapshot == c.expected)
        let oldCounts = c.old.map(\.count)
        let newCounts = c.expected.map(\.count)
        #expect(try BatchUpdateChecker.apply(c.stage, toCounts: oldCounts, newCounts: newCounts) == newCounts)
        let computed = try BatchUpdateChecker.apply(c.stage, toCounts: oldCounts)
        let inserted = Set(c.stage.insertedSections)
        for (section, count) in computed.enumerated() {
            #expect(count == (inserted.contains(section) ? 0 : newCounts[section]))
        }
    }

    @Test("invalid stages, one per rule", arguments: invalidCases)
    func invalid(_ c: InvalidCase) {
        do {
            _ = try BatchUpdateChecker.apply(c.stage, toCounts: c.old, newCounts: c.newCounts)
            Issue.record("accepted: expected \(c.error)")
        } catch {
            #expect(error == c.error)
            #expect(error.description == c.message)
        }
        // The snapshot variant applies the same rules, with the same counts.
        let snapshot = c.old.enumerated().map { section, count in (0..<count).map { "\(section).\($0)" } }
        do {
            _ = try BatchUpdateChecker.apply(c.stage, to: snapshot, newCounts: c.newCounts,
                                             inserting: { "new \($0.section).\($0.row)" },
                                             insertingSection: { ["new section \($0)"] })
            Issue.record("snapshot accepted: expected \(c.error)")
        } catch {
            #expect(error == c.error)
        }
    }

    @Test("a reloaded section keeps its items, or, with the data source's counts, takes the source's rows")
    func reloadedSectionWithCounts() throws {
        let old = [["a", "b"], ["c", "d", "e"]]
        let stage = BatchStage(reloadedSections: [1], insertedRows: [path(0, 2)])
        let kept = try BatchUpdateChecker.apply(stage, to: old, inserting: { _ in "x" }, insertingSection: { _ in ["?"] })
        #expect(kept == [["a", "b", "x"], ["c", "d", "e"]])
        // UIKit takes a reloaded section's rows from the data source, in any number.
        let asked = try BatchUpdateChecker.apply(stage, to: old, newCounts: [3, 1], inserting: { _ in "x" },
                                                 insertingSection: { $0 == 1 ? ["f"] : ["?"] })
        #expect(asked == [["a", "b", "x"], ["f"]])
        // The other sections' counts are still checked.
        #expect(throws: BatchUpdateError.self) {
            try BatchUpdateChecker.apply(stage, to: old, newCounts: [2, 1], inserting: { _ in "x" },
                                         insertingSection: { _ in ["f"] })
        }
    }

    @Test("every rule of the error type has a case in the table")
    func tableCoversEveryCase() {
        func kind(_ error: BatchUpdateError) -> String {
            Mirror(reflecting: error).children.first?.label ?? "\(error)"
        }
        let covered = Set(invalidCases.map { kind($0.error) })
        #expect(covered.count == 37, "covered: \(covered.sorted())")
    }

    @Test("isEmpty and operationCount")
    func emptiness() {
        #expect(BatchStage().isEmpty)
        #expect(BatchStage().operationCount == 0)
        let stage = BatchStage(deletedSections: [1], movedRows: [move(path(0, 0), path(0, 1))])
        #expect(!stage.isEmpty)
        #expect(stage.operationCount == 2)
    }

    @Test("random valid stages reproduce their brute-force target")
    func randomValid() async throws {
        // Seconds of computation: on a thread of its own, not the shared pool.
        try await offThePool { [self] in try self.randomValidOnItsThread() }
    }

    private func randomValidOnItsThread() throws {
        var rng = SplitMix64(seed: testSeed("randomValid"))
        for iteration in 0..<TestScale.count(25_000) {
            let c = randomCase(&rng, nonEmpty: iteration % 2 == 0)
            let result: [[Int]]
            do {
                result = try applyRandom(c.stage, c)
            } catch {
                Issue.record("iteration \(iteration): valid stage rejected: \(error)\nold \(c.old)\nstage \(c.stage)")
                return
            }
            guard result == c.target else {
                Issue.record("iteration \(iteration): \(result) != \(c.target)\nold \(c.old)\nstage \(c.stage)")
                return
            }
            let oldCounts = c.old.map(\.count)
            let newCounts = c.target.map(\.count)
            #expect(try BatchUpdateChecker.apply(c.stage, toCounts: oldCounts, newCounts: newCounts) == newCounts)
            // With the data source's counts, and its rows for inserted and reloaded sections.
            let checked = try BatchUpdateChecker.apply(
                c.stage, to: c.old, newCounts: newCounts,
                inserting: { c.insertedRows[$0] ?? -1 }, insertingSection: { c.target[$0] })
            #expect(checked == c.target, "iteration \(iteration)")
            let computed = try BatchUpdateChecker.apply(c.stage, toCounts: oldCounts)
            for (section, count) in computed.enumerated() where c.insertedSections[section] == nil {
                #expect(count == newCounts[section])
            }
        }
    }

    @Test("negative controls: every corrupted index is caught or detected")
    func corruptions() async {
        // Seconds of computation: on a thread of its own, not the shared pool.
        await offThePool { [self] in self.corruptionsOnItsThread() }
    }

    private func corruptionsOnItsThread() {
        var rng = SplitMix64(seed: testSeed("corruptions"))
        var caught = 0
        var detected = 0
        var cases = 0
        while cases < TestScale.count(20_000) {
            let c = randomCase(&rng, nonEmpty: true)
            guard !c.stage.isEmpty else { continue }
            cases += 1
            let bound = max(c.old.count, c.target.count, (c.old + c.target).map(\.count).max() ?? 0) + 1
            let bad = corrupt(c.stage, &rng, bound: bound)
            let oldCounts = c.old.map(\.count)
            do {
                let result = try applyRandom(bad, c)
                // A valid stage after all: it must then do something else.
                let same = result == c.target && reloadedItems(bad, in: c.old) == c.reloadedItems
                #expect(!same, "undetected corruption\nold \(c.old)\nstage \(c.stage)\ncorrupted \(bad)")
                detected += 1
                #expect(throws: Never.self) { try BatchUpdateChecker.apply(bad, toCounts: oldCounts) }
            } catch {
                caught += 1
                // The counts variant rejects it the same way.
                #expect(throws: error) { try BatchUpdateChecker.apply(bad, toCounts: oldCounts) }
            }
        }
        print("corruptions: \(caught) caught by the checker, \(detected) valid but different")
        #expect(caught + detected == cases)
    }
}
