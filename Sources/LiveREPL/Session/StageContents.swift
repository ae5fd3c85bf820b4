// StageContents.swift — what a stage brings that its index paths do not
// say: the keys of the rows and sections it fills.

import LiveModel
import LiveSections

/// A section's value and the keys of its rows, in order.
public struct SectionKeys: Sendable, Equatable {
    /// The section's value (null for the single section without `--section-by`).
    public let value: JSONValue
    /// The keys of its rows, in order.
    public let keys: [Key]
}

/// The keys a stage fills in, captured as the stage is recorded (so a later
/// stage of the same report, which may move them, does not change them).
/// With the state before a stage and its index paths, this is everything
/// needed to know the keys of every row after it.
public struct StageContents: Sendable, Equatable {
    /// The key of each inserted row, in the order of the stage's `insertedRows`.
    public var insertedRows: [Key] = []
    /// Each inserted section, in the order of the stage's `insertedSections`.
    public var insertedSections: [SectionKeys] = []
    /// Each reloaded section as the data source shows it after the stage,
    /// in the order of the stage's `reloadedSections`.
    public var reloadedSections: [SectionKeys] = []
}

extension ChangeRecorder {
    /// The contents of a sectioned stage just committed; `reloadedValues`
    /// are the values of its reloaded sections, read before the commit.
    /// - Complexity: O(inserted rows · log n + rows of the sections filled).
    static func contents(of stage: BatchStage, in sectioned: SectionedCollection<REPLChild, JSONValue>,
                         reloadedValues: [JSONValue]) -> StageContents {
        func keys(ofSection index: Int) -> SectionKeys {
            SectionKeys(value: sectioned.section(at: index),
                        keys: (0..<sectioned.numberOfRows(inSection: index)).map {
                            sectioned[RowPath(section: index, row: $0)].identifier
                        })
        }
        var contents = StageContents()
        contents.insertedRows = stage.insertedRows.map { sectioned[$0].identifier }
        contents.insertedSections = stage.insertedSections.map(keys(ofSection:))
        contents.reloadedSections = reloadedValues.map { value in
            guard let index = (0..<sectioned.numberOfSections).first(where: { sectioned.section(at: $0) == value }) else {
                return SectionKeys(value: value, keys: [])
            }
            return keys(ofSection: index)
        }
        return contents
    }
}
