// SectionedDiff.swift — diff two sectioned snapshots into stages UIKit accepts.

/// Diffs two sectioned snapshots into ``BatchStage``s that UIKit's
/// `performBatchUpdates` accepts, each stage valid on its own against the
/// state the previous stage left.
public enum SectionedDiff {
    /// Stages that turn `old` into `new`, each valid under UIKit's batch rules
    /// against the state the previous stage left.
    ///
    /// Sections and items are matched by identifier.
    ///
    /// **What changes.**
    /// - A section only in `old` is deleted, one only in `new` inserted; their
    ///   rows are not listed (they go and come with the section).
    /// - Of the sections in both, the unmoved ones form a longest increasing
    ///   subsequence of their old indexes taken in new order; the others are
    ///   section moves.
    /// - An item in both whose old and new sections are the same section
    ///   (same identifier) is unmoved if it belongs to a longest increasing
    ///   subsequence of old row indexes, taken in new order within that
    ///   section; otherwise it is a row move. An item whose old and new
    ///   sections both exist on both sides but differ is a row move.
    /// - An item in a section that is kept on both sides is a row delete if it
    ///   is not in `new` or goes to an inserted section, and a row insert if it
    ///   is not in `old` or comes from a deleted section.
    /// - `isUpdated(item)` is asked for every item present in both snapshots.
    ///   An updated item that is unmoved or moved is reloaded exactly once;
    ///   one that is deleted and inserted (it changes between a deleted or
    ///   inserted section and a kept one) or that goes and comes with its
    ///   sections is not reloaded, since it is inserted with its new content.
    ///
    /// **Stages**, in this order, empty ones omitted:
    /// 1. Reloads of updated unmoved items (at their old paths), row deletes
    ///    and section deletes — all in the old index space of `old`.
    /// 2. Section inserts and section moves.
    /// 3. Row inserts and row moves (sections in their final order).
    /// 4. Reloads of updated items that moved, at their final paths (UIKit
    ///    forbids reloading and moving one item in one batch).
    ///
    /// Consecutive stages among 1–3 are merged into one batch whenever that
    /// batch breaks no rule: 1 joins 2 unless a row of stage 1 lies in a
    /// section that moves; 2 joins 3 unless a row insert, move source or
    /// move destination lies in a section that moves. So a diff without row
    /// changes inside moved sections and without moved updated items is a
    /// single stage. There are no section reloads.
    ///
    /// - Parameters:
    ///   - old: The sections before the change.
    ///   - new: The sections after the change.
    ///   - isUpdated: Whether an item present in both snapshots has new content.
    /// - Returns: The stages; empty when nothing changes.
    /// - Throws: ``SectionedDiffError`` when a section identifier appears twice
    ///   in one snapshot, or an item identifier twice in one snapshot.
    /// - Complexity: O(*n* + *m* log *m*) expected, where *n* is the total
    ///   number of items and sections in both snapshots and *m* the number of
    ///   items and sections present in both (the candidates for the longest
    ///   increasing subsequences).
    @inlinable
    public static func stages<S, I>(
        from old: [SectionItems<S, I>],
        to new: [SectionItems<S, I>],
        isUpdated: (I) -> Bool
    ) throws(SectionedDiffError) -> [BatchStage] {
        // Sections: old index and new index of every identifier.
        var sections = [S: (old: Int, new: Int)](minimumCapacity: old.count + new.count)
        var oldCounts = [Int]()
        oldCounts.reserveCapacity(old.count)
        for (index, section) in old.enumerated() {
            if let earlier = sections.updateValue((index, -1), forKey: section.id) {
                throw .duplicateSectionID(String(reflecting: section.id), in: .old, first: earlier.old, second: index)
            }
            oldCounts.append(section.items.count)
        }
        var oldSectionOfNew = [Int](repeating: -1, count: new.count)
        var newCounts = [Int]()
        newCounts.reserveCapacity(new.count)
        for (index, section) in new.enumerated() {
            let earlier = SectionedDiffPlanner.claim(&sections[section.id, default: (-1, -1)], index)
            if earlier.new >= 0 {
                throw .duplicateSectionID(String(reflecting: section.id), in: .new, first: earlier.new, second: index)
            }
            oldSectionOfNew[index] = earlier.old
            newCounts.append(section.items.count)
        }

        // Items: flat index in each snapshot, matched through one table.
        let oldTotal = oldCounts.reduce(0, +)
        let newTotal = newCounts.reduce(0, +)
        var items = [I: (old: Int, new: Int)](minimumCapacity: oldTotal + newTotal)
        var flat = 0
        for section in old {
            for item in section.items {
                if let earlier = items.updateValue((flat, -1), forKey: item) {
                    throw .duplicateItemID(
                        String(reflecting: item), in: .old,
                        first: SectionedDiffPlanner.path(ofFlat: earlier.old, counts: oldCounts),
                        second: SectionedDiffPlanner.path(ofFlat: flat, counts: oldCounts))
                }
                flat += 1
            }
        }
        var newOfOld = [Int](repeating: -1, count: oldTotal)
        var oldOfNew = [Int](repeating: -1, count: newTotal)
        var updated = [Bool](repeating: false, count: newTotal)
        flat = 0
        for section in new {
            for item in section.items {
                let earlier = SectionedDiffPlanner.claim(&items[item, default: (-1, -1)], flat)
                if earlier.new >= 0 {
                    throw .duplicateItemID(
                        String(reflecting: item), in: .new,
                        first: SectionedDiffPlanner.path(ofFlat: earlier.new, counts: newCounts),
                        second: SectionedDiffPlanner.path(ofFlat: flat, counts: newCounts))
                }
                if earlier.old >= 0 {
                    oldOfNew[flat] = earlier.old
                    newOfOld[earlier.old] = flat
                    updated[flat] = isUpdated(item)
                }
                flat += 1
            }
        }

        return SectionedDiffPlanner.stages(
            oldCounts: oldCounts, newCounts: newCounts, oldSectionOfNew: oldSectionOfNew,
            newOfOld: newOfOld, oldOfNew: oldOfNew, updated: updated)
    }
}
