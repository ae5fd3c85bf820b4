// BatchUpdateError.swift — every way a batch can break UIKit's batch-update rules.
//
// Where UIKit has its own wording, `description` reproduces it, with `%ld`
// filled in and `%@` (an NSIndexPath) written as the RowPath ("[section, row]")
// instead of "<NSIndexPath: 0x…> {length = 2, path = section - row}".
//
// Sources of the UIKit wording:
// [TV]  UITableView.m, UIKit-3698.84.15 (iOS 13 simulator), the assertion
//       strings of -[UITableView _endCellAnimationsWithContext:] as decompiled
//       (format strings quoted verbatim in the comments below, with their line
//       numbers in UITableView.m).
// [CV]  The same checks in UICollectionView / UXKit's UXCollectionView
//       (-_endItemAnimations), which say "item" where the table view says "row".
// [CNT] The count-consistency messages of UITableView as they appear in crash
//       logs (iOS 14+ wording, one space after the first full stop; older
//       releases put two spaces there).
// Messages marked "own wording" are not UIKit's: UIKit either has no such
// check (it silently drops or de-duplicates the operation) or reports the
// problem through another message.

/// Which list of a ``BatchStage`` a row operation comes from.
public enum BatchRowRole: String, Hashable, Sendable, CustomStringConvertible {
    /// A row in ``BatchStage/deletedRows``, in the old index space.
    case delete
    /// A row in ``BatchStage/insertedRows``, in the new index space.
    case insert
    /// A row in ``BatchStage/reloadedRows``, in the old index space.
    case reload
    /// The source of a move in ``BatchStage/movedRows``, in the old index space.
    case moveSource = "move source"
    /// The destination of a move in ``BatchStage/movedRows``, in the new index space.
    case moveDestination = "move destination"

    /// The role in words, as error messages name it (`"move source"`).
    public var description: String { rawValue }
}

/// Which list of a ``BatchStage`` a section operation comes from.
public enum BatchSectionRole: String, Hashable, Sendable, CustomStringConvertible {
    /// A section in ``BatchStage/deletedSections``, in the old index space.
    case delete
    /// A section in ``BatchStage/insertedSections``, in the new index space.
    case insert
    /// A section in ``BatchStage/reloadedSections``, in the old index space.
    case reload

    /// The role in words, as error messages name it.
    public var description: String { rawValue }
}

/// A violation of UIKit's batch-update rules found by ``BatchUpdateChecker``.
///
/// Each case carries the indexes involved: sections and paths of deletions,
/// reloads and move sources are in the old index space, those of insertions
/// and move destinations in the new one. `description` uses UIKit's own
/// wording where UIKit has one.
///
/// Each case's documentation quotes the message it reproduces, with `%ld`
/// where a number goes: `[TV n]` marks `UITableView`'s wording (n is the
/// line of the check in UIKit's source), `[CV]` `UICollectionView`'s,
/// `[CNT]` the table view's row-count message as crash logs show it, and
/// "own wording" a check that UIKit words differently or does not make.
public enum BatchUpdateError: Error, Hashable, Sendable, CustomStringConvertible {
    // MARK: Sections out of range

    /// [TV 1694] "attempt to delete section %ld, but there are only %ld sections before the update"
    case sectionDeleteOutOfRange(section: Int, sectionCount: Int)
    /// Own wording (UIKit turns a reload into a delete and reports it as the delete above).
    case sectionReloadOutOfRange(section: Int, sectionCount: Int)
    /// [TV 1864] "attempt to move section %ld, but there are only %ld sections before the update"
    case sectionMoveSourceOutOfRange(SectionMove, sectionCount: Int)
    /// [TV 1865] "attempt to to move section %ld to section %ld, but there are only %ld sections after the update"
    /// (UIKit's doubled "to to" kept verbatim).
    case sectionMoveDestinationOutOfRange(SectionMove, sectionCount: Int)
    /// [TV 1783] "attempt to insert section %ld but there are only %ld sections after the update"
    case sectionInsertOutOfRange(section: Int, sectionCount: Int)

    // MARK: Sections used twice or in conflicting operations

    /// Own wording: UIKit silently de-duplicates repeated section deletes and inserts.
    case duplicateSection(BatchSectionRole, section: Int)
    /// [TV 1886] "attempt to move section %ld to both section %ld and section %ld"
    case sectionMovedTwice(section: Int, firstDestination: Int, secondDestination: Int)
    /// [TV 1895] "attempt to move both section %ld and section %ld to section %ld"
    case sectionsMovedToSameSection(firstSource: Int, secondSource: Int, destination: Int)
    /// [TV 1678] "attempt to perform a delete and a move from the same section (%ld)"
    case sectionDeletedAndMoved(section: Int)
    /// UIKit splits a reload into a delete and an insert, so it reports this with
    /// the [TV 1678] text: "attempt to perform a delete and a move from the same section (%ld)".
    case sectionReloadedAndMoved(section: Int)
    /// Own wording modelled on [TV 1615] "attempt to delete and reload the same index path (%@)".
    case sectionDeletedAndReloaded(section: Int)
    /// [TV 1766] "attempt to perform an insert and a move to the same section (%ld)"
    case sectionInsertedAndMovedTo(section: Int)

    // MARK: Section count

    /// [CNT] "Invalid update: invalid number of sections. The number of sections contained
    /// in the table view after the update (%ld) must be equal to the number of sections
    /// contained in the table view before the update (%ld), plus or minus the number of
    /// sections inserted or deleted (%ld inserted, %ld deleted)."
    case invalidSectionCount(after: Int, before: Int, inserted: Int, deleted: Int)

    // MARK: Rows out of range

    /// [TV 1727] "attempt to delete row %ld from section %ld, but there are only %ld sections before the update"
    case rowDeleteSectionOutOfRange(RowPath, sectionCount: Int)
    /// [TV 1728] "attempt to delete row %ld from section %ld which only contains %ld rows before the update"
    case rowDeleteOutOfRange(RowPath, rowCount: Int)
    /// Own wording modelled on [TV 1727] (UIKit reports a reload as a delete).
    case rowReloadSectionOutOfRange(RowPath, sectionCount: Int)
    /// Own wording modelled on [TV 1728] (UIKit reports a reload as a delete).
    case rowReloadOutOfRange(RowPath, rowCount: Int)
    /// [TV 1868] "attempt to move index path (%@) from a section that does not exist - there are only %ld sections before the update"
    case rowMoveSourceSectionOutOfRange(RowMove, sectionCount: Int)
    /// [TV 1869] "attempt to move index path (%@) that does not exist - there are only %ld rows in section %ld before the update"
    case rowMoveSourceOutOfRange(RowMove, rowCount: Int)
    /// [TV 1870] "attempt to move index path (%@) to index path (%@) in section that does not exist - there are only %ld sections after the update"
    case rowMoveDestinationSectionOutOfRange(RowMove, sectionCount: Int)
    /// [TV 1871] "attempt to move index path (%@) to index path (%@) that does not exist - there are only %ld rows in section %ld after the update"
    case rowMoveDestinationOutOfRange(RowMove, rowCount: Int)
    /// [TV 1813] "attempt to insert row %ld into section %ld, but there are only %ld sections after the update"
    case rowInsertSectionOutOfRange(RowPath, sectionCount: Int)
    /// [TV 1814] "attempt to insert row %ld into section %ld, but there are only %ld rows in section %ld after the update"
    case rowInsertOutOfRange(RowPath, rowCount: Int)

    // MARK: Rows used twice or in conflicting operations

    /// Own wording: UIKit silently de-duplicates repeated row deletes, inserts and reloads.
    case duplicateRow(BatchRowRole, RowPath)
    /// [TV 1889] "attempt to move row at index path %@ to both %@ and %@"
    case rowMovedTwice(RowPath, firstDestination: RowPath, secondDestination: RowPath)
    /// [TV 1898] "attempt to move both row at index path %@ and %@ to %@"
    case rowsMovedToSamePath(firstSource: RowPath, secondSource: RowPath, destination: RowPath)
    /// [TV 1681] "attempt to perform a delete and a move from the same index path (%@)"
    case rowDeletedAndMoved(RowPath)
    /// UIKit splits a reload into a delete and an insert, so it reports this with the
    /// [TV 1681] text: "attempt to perform a delete and a move from the same index path (%@)".
    case rowReloadedAndMoved(RowPath)
    /// [TV 1615] "attempt to delete and reload the same index path (%@)"
    case rowDeletedAndReloaded(RowPath)
    /// [TV 1769] "attempt to perform an insert and a move to the same index path (%@)"
    case rowInsertedAndMovedTo(RowPath)

    // MARK: Rows against section operations

    /// Older UITableView: "cannot move a row from a deleted section"; [CV] "cannot
    /// move an item from a deleted section (%ld)". Written here as "cannot move a row from a deleted section (%ld)".
    case rowMovedFromDeletedSection(RowMove)
    /// [CV] "cannot move an item into a newly inserted section (%ld)", with "row" for "item".
    case rowMovedIntoInsertedSection(RowMove)
    /// Own wording: a row deleted or reloaded inside a deleted section (UIKit drops it silently).
    case rowInDeletedSection(BatchRowRole, RowPath)
    /// Own wording: a row inserted inside an inserted section (UIKit drops it silently).
    case rowInInsertedSection(BatchRowRole, RowPath)
    /// Own wording: a row operation inside a reloaded section (old index space for
    /// deletes, reloads and move sources; new index space for inserts and move destinations).
    case rowInReloadedSection(BatchRowRole, RowPath)
    /// Own wording: a row operation inside a moved section (old index space for
    /// deletes, reloads and move sources; new index space for inserts and move destinations).
    case rowInMovedSection(BatchRowRole, RowPath)

    // MARK: Row count

    /// [CNT] "Invalid update: invalid number of rows in section %ld. The number of rows
    /// contained in an existing section after the update (%ld) must be equal to the number
    /// of rows contained in that section before the update (%ld), plus or minus the number
    /// of rows inserted or deleted from that section (%ld inserted, %ld deleted) and plus
    /// or minus the number of rows moved into or out of that section (%ld moved in, %ld
    /// moved out)." `section` is the section's index after the update.
    case invalidRowCount(
        section: Int, after: Int, before: Int,
        inserted: Int, deleted: Int, movedIn: Int, movedOut: Int)

    /// The message, in UIKit's words where UIKit has some (see each case).
    public var description: String {
        switch self {
        case let .sectionDeleteOutOfRange(section, count):
            return "attempt to delete section \(section), but there are only \(count) sections before the update"
        case let .sectionReloadOutOfRange(section, count):
            return "attempt to reload section \(section), but there are only \(count) sections before the update"
        case let .sectionMoveSourceOutOfRange(move, count):
            return "attempt to move section \(move.from), but there are only \(count) sections before the update"
        case let .sectionMoveDestinationOutOfRange(move, count):
            return "attempt to to move section \(move.from) to section \(move.to), but there are only \(count) sections after the update"
        case let .sectionInsertOutOfRange(section, count):
            return "attempt to insert section \(section) but there are only \(count) sections after the update"
        case let .duplicateSection(role, section):
            return "attempt to \(role) section \(section) more than once in the same update"
        case let .sectionMovedTwice(section, first, second):
            return "attempt to move section \(section) to both section \(first) and section \(second)"
        case let .sectionsMovedToSameSection(first, second, destination):
            return "attempt to move both section \(first) and section \(second) to section \(destination)"
        case let .sectionDeletedAndMoved(section), let .sectionReloadedAndMoved(section):
            return "attempt to perform a delete and a move from the same section (\(section))"
        case let .sectionDeletedAndReloaded(section):
            return "attempt to delete and reload the same section (\(section))"
        case let .sectionInsertedAndMovedTo(section):
            return "attempt to perform an insert and a move to the same section (\(section))"
        case let .invalidSectionCount(after, before, inserted, deleted):
            return "Invalid update: invalid number of sections. The number of sections contained in the table view after the update (\(after)) must be equal to the number of sections contained in the table view before the update (\(before)), plus or minus the number of sections inserted or deleted (\(inserted) inserted, \(deleted) deleted)."
        case let .rowDeleteSectionOutOfRange(path, count):
            return "attempt to delete row \(path.row) from section \(path.section), but there are only \(count) sections before the update"
        case let .rowDeleteOutOfRange(path, count):
            return "attempt to delete row \(path.row) from section \(path.section) which only contains \(count) rows before the update"
        case let .rowReloadSectionOutOfRange(path, count):
            return "attempt to reload row \(path.row) in section \(path.section), but there are only \(count) sections before the update"
        case let .rowReloadOutOfRange(path, count):
            return "attempt to reload row \(path.row) in section \(path.section) which only contains \(count) rows before the update"
        case let .rowMoveSourceSectionOutOfRange(move, count):
            return "attempt to move index path (\(move.from)) from a section that does not exist - there are only \(count) sections before the update"
        case let .rowMoveSourceOutOfRange(move, count):
            return "attempt to move index path (\(move.from)) that does not exist - there are only \(count) rows in section \(move.from.section) before the update"
        case let .rowMoveDestinationSectionOutOfRange(move, count):
            return "attempt to move index path (\(move.from)) to index path (\(move.to)) in section that does not exist - there are only \(count) sections after the update"
        case let .rowMoveDestinationOutOfRange(move, count):
            return "attempt to move index path (\(move.from)) to index path (\(move.to)) that does not exist - there are only \(count) rows in section \(move.to.section) after the update"
        case let .rowInsertSectionOutOfRange(path, count):
            return "attempt to insert row \(path.row) into section \(path.section), but there are only \(count) sections after the update"
        case let .rowInsertOutOfRange(path, count):
            return "attempt to insert row \(path.row) into section \(path.section), but there are only \(count) rows in section \(path.section) after the update"
        case let .duplicateRow(role, path):
            return "attempt to \(role) index path (\(path)) more than once in the same update"
        case let .rowMovedTwice(path, first, second):
            return "attempt to move row at index path \(path) to both \(first) and \(second)"
        case let .rowsMovedToSamePath(first, second, destination):
            return "attempt to move both row at index path \(first) and \(second) to \(destination)"
        case let .rowDeletedAndMoved(path), let .rowReloadedAndMoved(path):
            return "attempt to perform a delete and a move from the same index path (\(path))"
        case let .rowDeletedAndReloaded(path):
            return "attempt to delete and reload the same index path (\(path))"
        case let .rowInsertedAndMovedTo(path):
            return "attempt to perform an insert and a move to the same index path (\(path))"
        case let .rowMovedFromDeletedSection(move):
            return "cannot move a row from a deleted section (\(move.from.section))"
        case let .rowMovedIntoInsertedSection(move):
            return "cannot move a row into a newly inserted section (\(move.to.section))"
        case let .rowInDeletedSection(role, path):
            return "attempt to \(role) index path (\(path)) in section \(path.section), which is deleted in the same update"
        case let .rowInInsertedSection(role, path):
            return "attempt to \(role) index path (\(path)) in section \(path.section), which is inserted in the same update"
        case let .rowInReloadedSection(role, path):
            return "attempt to use index path (\(path)) as a row \(role) in section \(path.section), which is reloaded in the same update"
        case let .rowInMovedSection(role, path):
            return "attempt to use index path (\(path)) as a row \(role) in section \(path.section), which is moved in the same update"
        case let .invalidRowCount(section, after, before, inserted, deleted, movedIn, movedOut):
            return "Invalid update: invalid number of rows in section \(section). The number of rows contained in an existing section after the update (\(after)) must be equal to the number of rows contained in that section before the update (\(before)), plus or minus the number of rows inserted or deleted from that section (\(inserted) inserted, \(deleted) deleted) and plus or minus the number of rows moved into or out of that section (\(movedIn) moved in, \(movedOut) moved out)."
        }
    }
}
