// CollectionBatch.swift — a change of a sorted collection in the batch contract.

/// One move in a ``CollectionBatch``: the item at `from` in the old index
/// space is at `to` in the new one.
public struct BatchMove: Hashable, Sendable, CustomStringConvertible {
    /// Position before the batch (old index space).
    public var from: Int
    /// Position after the batch (new index space).
    public var to: Int
    /// Whether the item's content changed too, so a list view should refresh
    /// it after moving it (UIKit forbids a reload and a move of one item in
    /// one batch).
    public var updated: Bool

    /// A move from old position `from` to new position `to`, with content
    /// changed when `updated`.
    public init(from: Int, to: Int, updated: Bool = false) {
        self.from = from
        self.to = to
        self.updated = updated
    }

    /// `from->to`, followed by `*` when the content changed.
    public var description: String { "\(from)->\(to)\(updated ? "*" : "")" }
}

/// What changed in a sorted collection, in the **batch contract**:
/// deletions, updates and move sources are positions in the *old* index space
/// (before the batch), insertions and move destinations in the *new* one
/// (after it). Items not mentioned keep their relative order. The moves are
/// minimal: the items that do not move form a longest increasing subsequence
/// of old positions taken in new order.
///
/// Applying a batch to the old list: remove `deleted` and the sources of
/// `moved` (by old position), then place `inserted` and the destinations of
/// `moved` (by new position), keeping everything else in order.
public struct CollectionBatch: Hashable, Sendable, CustomStringConvertible {
    /// Old positions of removed items, ascending.
    public var deleted: [Int]
    /// New positions of added items, ascending.
    public var inserted: [Int]
    /// Items that changed place, ascending by `to`.
    public var moved: [BatchMove]
    /// Old positions of items whose content changed and that did not move, ascending.
    public var updated: [Int]
    /// Number of items before the batch.
    public var oldCount: Int
    /// Number of items after the batch.
    public var newCount: Int

    /// A batch of these changes; each list must follow the order and the
    /// index space its property states. Nothing is checked.
    public init(deleted: [Int] = [], inserted: [Int] = [], moved: [BatchMove] = [], updated: [Int] = [],
                oldCount: Int, newCount: Int) {
        self.deleted = deleted
        self.inserted = inserted
        self.moved = moved
        self.updated = updated
        self.oldCount = oldCount
        self.newCount = newCount
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { deleted.isEmpty && inserted.isEmpty && moved.isEmpty && updated.isEmpty }

    /// The counts and every list, on one line, for debugging.
    public var description: String {
        "Batch(\(oldCount)->\(newCount) del \(deleted) ins \(inserted) mov \(moved) upd \(updated))"
    }
}
