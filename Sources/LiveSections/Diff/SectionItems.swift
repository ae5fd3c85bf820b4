// SectionItems.swift — one section of a sectioned list, as identifiers.

/// One section of a sectioned list: its identifier and the identifiers of
/// its rows, in order. The input of ``SectionedDiff``.
public struct SectionItems<SectionID: Hashable, ItemID: Hashable>: Hashable {
    /// The section's identifier, unique among the sections of one snapshot.
    public var id: SectionID
    /// The section's rows, in order; each identifier unique across all
    /// sections of one snapshot.
    public var items: [ItemID]

    /// Creates a section with identifier `id` and rows `items`.
    ///
    /// - Complexity: O(1).
    public init(id: SectionID, items: [ItemID]) {
        self.id = id
        self.items = items
    }
}

extension SectionItems: Sendable where SectionID: Sendable, ItemID: Sendable {}

/// The former name of ``SectionItems``.
@available(*, deprecated, renamed: "SectionItems")
public typealias SectionSnapshot = SectionItems
