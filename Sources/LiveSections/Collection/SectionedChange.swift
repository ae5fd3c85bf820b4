// SectionedChange.swift — what observers of a sectioned collection are told.
import LiveModel

/// One change of a ``SectionedCollection`` in the **sequential contract**:
/// every index is relative to the state after the previous change.
public enum SectionedChange<Model, Section> {
    /// A section appeared at `at`, holding `models` (in row order).
    case sectionInserted(Section, at: Int, models: [Model])
    /// The section at `at` disappeared, with its rows.
    case sectionRemoved(Section, at: Int)
    /// The model's row appeared at `at`, in a section already shown.
    case rowInserted(Model, at: RowPath)
    /// The model's row at `at` disappeared; its section stays. A row that
    /// changed section is told as this removal, then its insertion.
    case rowRemoved(Model, at: RowPath)
    /// The model at `at` changed content and kept its place.
    case rowUpdated(Model, at: RowPath)
    /// The model at `from` is now at `to` (possibly in another section).
    case rowMoved(Model, from: RowPath, to: RowPath)
}

extension SectionedChange: Sendable where Model: Sendable, Section: Sendable {}
