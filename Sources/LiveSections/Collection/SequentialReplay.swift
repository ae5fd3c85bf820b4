// SequentialReplay.swift — a grouped change of a sectioned collection told
// in the sequential contract, one row or section at a time.

import LiveCollection
import LiveModel

/// One step of a replayed grouped change, by key; see ``SequentialReplay``.
enum ReplayStep<Section: Hashable>: Equatable {
    case sectionRemoved(Section, at: Int)
    case rowRemoved(Key, at: RowPath)
    case sectionInserted(Section, at: Int, keys: [Key])
    case rowInserted(Key, at: RowPath)
    case rowUpdated(Key, at: RowPath)
}

/// Turns two sectioned states into sequential steps, each index relative to
/// the state after the previous step, with no empty section at any point.
///
/// Sections keep their relative order (their order comes from the section
/// values), so no section moves. The rows that stay in place in each
/// section are a longest increasing subsequence of the rows the section
/// keeps; every other row leaves (in descending old order) and arrives (in
/// ascending new order), so a row that changed place is told as a removal
/// and an insertion. Rows that stayed and changed content are then told as
/// updates at their final paths.
enum SequentialReplay {
    /// - Complexity: O(*n* + *m* log *m*), *n* rows in both states, *m* rows kept in their sections.
    static func steps<Section: Hashable>(
        from old: [SectionSnapshot<Section, Key>], to new: [SectionSnapshot<Section, Key>],
        isUpdated: (Key) -> Bool
    ) -> [ReplayStep<Section>] {
        var newSectionOf: [Section: Int] = [:]
        for (index, section) in new.enumerated() { newSectionOf[section.id] = index }
        var newRowOf: [Key: (section: Int, row: Int)] = [:]
        for (s, section) in new.enumerated() {
            for (row, key) in section.items.enumerated() { newRowOf[key] = (s, row) }
        }

        // Rows that stay: same section, in a longest increasing run of new rows.
        var stays = Set<Key>()
        for section in old {
            guard let target = newSectionOf[section.id] else { continue }
            var kept: [Key] = []
            var rows: [Int] = []
            for key in section.items {
                if let place = newRowOf[key], place.section == target {
                    kept.append(key)
                    rows.append(place.row)
                }
            }
            let unmoved = WeightedLIS.select(keys: rows, weights: [Int](repeating: 1, count: rows.count))
            for (offset, key) in kept.enumerated() where unmoved[offset] { stays.insert(key) }
        }

        // Sections keep their relative order; should a caller's comparator
        // not, every section is told as removed and inserted again.
        var lastKept = -1
        for section in old where section.items.contains(where: stays.contains) {
            let index = newSectionOf[section.id]!
            if index < lastKept { stays.removeAll(); break }
            lastKept = index
        }

        var steps: [ReplayStep<Section>] = []
        // Leaving, from the end, so every earlier index is still the old one.
        for (s, section) in old.enumerated().reversed() {
            if !section.items.contains(where: stays.contains) {
                steps.append(.sectionRemoved(section.id, at: s))
                continue
            }
            for (row, key) in section.items.enumerated().reversed() where !stays.contains(key) {
                steps.append(.rowRemoved(key, at: RowPath(section: s, row: row)))
            }
        }
        // Arriving, from the start, so every earlier row is already final.
        for (s, section) in new.enumerated() {
            if !section.items.contains(where: stays.contains) {
                steps.append(.sectionInserted(section.id, at: s, keys: section.items))
                continue
            }
            for (row, key) in section.items.enumerated() where !stays.contains(key) {
                steps.append(.rowInserted(key, at: RowPath(section: s, row: row)))
            }
        }
        for (s, section) in new.enumerated() {
            for (row, key) in section.items.enumerated() where stays.contains(key) && isUpdated(key) {
                steps.append(.rowUpdated(key, at: RowPath(section: s, row: row)))
            }
        }
        return steps
    }
}
