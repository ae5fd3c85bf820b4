// SectionedDiffError.swift — why two sectioned snapshots cannot be diffed.

/// Why ``SectionedDiff`` cannot diff two snapshots: an identifier that must
/// be unique appears twice. The identifier is named by its
/// `String(reflecting:)` text.
public enum SectionedDiffError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which of the two sides of a diff a duplicate was found in.
    public enum Side: String, Hashable, Sendable, CustomStringConvertible {
        /// The sections before the change (`from`).
        case old
        /// The sections after the change (`to`).
        case new

        /// The side's name, `old` or `new`, as the error's message writes it.
        public var description: String { rawValue }
    }

    /// A section identifier appears twice in one snapshot, at section
    /// indexes `first` and `second`.
    case duplicateSectionID(String, in: Side, first: Int, second: Int)
    /// An item identifier appears twice in one snapshot (in the same or in
    /// different sections), at paths `first` and `second`.
    case duplicateItemID(String, in: Side, first: RowPath, second: RowPath)

    /// The error in words, naming the identifier, the side and both places.
    public var description: String {
        switch self {
        case let .duplicateSectionID(id, snapshot, first, second):
            return "section identifier \(id) appears twice in the \(snapshot) snapshot, at sections \(first) and \(second)"
        case let .duplicateItemID(id, snapshot, first, second):
            return "item identifier \(id) appears twice in the \(snapshot) snapshot, at \(first) and \(second)"
        }
    }
}

extension SectionedDiffError {
    /// The former name of ``Side``.
    @available(*, deprecated, renamed: "Side")
    public typealias Snapshot = Side
}
