// SectionedDiffPlanner.swift — the non-generic part of SectionedDiff: matched
// identifiers in, stages out.

import LiveCollection

/// Plans the stages of a ``SectionedDiff`` from identifiers already matched to
/// flat indexes (items numbered across all sections, section by section).
@usableFromInline
enum SectionedDiffPlanner {
    /// Records `index` as the new-snapshot position of a table entry and
    /// returns the entry as it was.
    ///
    /// - Complexity: O(1).
    @inlinable
    static func claim(_ entry: inout (old: Int, new: Int), _ index: Int) -> (old: Int, new: Int) {
        let earlier = entry
        if earlier.new < 0 { entry.new = index }
        return earlier
    }

    /// The path of the item at flat index `flat`, given the row counts.
    ///
    /// - Complexity: O(*s*), where *s* is the number of sections.
    @usableFromInline
    static func path(ofFlat flat: Int, counts: [Int]) -> RowPath {
        var rest = flat
        for (section, count) in counts.enumerated() {
            if rest < count { return RowPath(section: section, row: rest) }
            rest -= count
        }
        return RowPath(section: counts.count, row: rest)
    }

    /// The stages of the diff; see ``SectionedDiff/stages(from:to:isUpdated:)``.
    ///
    /// - Parameters:
    ///   - oldCounts, newCounts: Rows per section in each snapshot.
    ///   - oldSectionOfNew: For each new section, its old index or -1.
    ///   - newOfOld: For each old item (flat), its new flat index or -1.
    ///   - oldOfNew: For each new item (flat), its old flat index or -1.
    ///   - updated: For each new item (flat), whether it has new content.
    /// - Complexity: O(*n* + *m* log *m*), as the public entry point.
    @usableFromInline
    static func stages(
        oldCounts: [Int], newCounts: [Int], oldSectionOfNew: [Int],
        newOfOld: [Int], oldOfNew: [Int], updated: [Bool]
    ) -> [BatchStage] {
        let oldSectionCount = oldCounts.count
        let newSectionCount = newCounts.count

        // Section of every flat item, and where each section starts.
        var oldStart = [Int](repeating: 0, count: oldSectionCount + 1)
        for section in 0..<oldSectionCount { oldStart[section + 1] = oldStart[section] + oldCounts[section] }
        var newStart = [Int](repeating: 0, count: newSectionCount + 1)
        for section in 0..<newSectionCount { newStart[section + 1] = newStart[section] + newCounts[section] }
        var oldSectionOfItem = [Int](repeating: 0, count: oldStart[oldSectionCount])
        for section in 0..<oldSectionCount {
            for item in oldStart[section]..<oldStart[section + 1] { oldSectionOfItem[item] = section }
        }
        var newSectionOfItem = [Int](repeating: 0, count: newStart[newSectionCount])
        for section in 0..<newSectionCount {
            for item in newStart[section]..<newStart[section + 1] { newSectionOfItem[item] = section }
        }

        // MARK: Sections: kept, moved, deleted, inserted
        var newOfOldSection = [Int](repeating: -1, count: oldSectionCount)
        var keptNew: [Int] = []
        var keptRanks: [Int] = []
        for section in 0..<newSectionCount where oldSectionOfNew[section] >= 0 {
            newOfOldSection[oldSectionOfNew[section]] = section
            keptNew.append(section)
            keptRanks.append(oldSectionOfNew[section])
        }
        let unmovedSections = WeightedLIS.select(
            ranks: keptRanks, rankCount: oldSectionCount,
            weights: [Int](repeating: 1, count: keptRanks.count))
        var newSectionMoved = [Bool](repeating: false, count: newSectionCount)
        var oldSectionMoved = [Bool](repeating: false, count: oldSectionCount)
        for (offset, section) in keptNew.enumerated() where !unmovedSections[offset] {
            newSectionMoved[section] = true
            oldSectionMoved[oldSectionOfNew[section]] = true
        }
        // Index of each surviving old section once deleted sections are gone.
        var compactSection = [Int](repeating: -1, count: oldSectionCount)
        var sectionsLeft = 0
        for section in 0..<oldSectionCount where newOfOldSection[section] >= 0 {
            compactSection[section] = sectionsLeft
            sectionsLeft += 1
        }

        // MARK: Row deletes (old space) and rows once they are gone
        var rowDeletes: [RowPath] = []
        var compactRow = [Int](repeating: -1, count: oldStart[oldSectionCount])
        var stage1Conflict = false  // a stage-1 row inside a section that moves
        for section in 0..<oldSectionCount where newOfOldSection[section] >= 0 {
            var kept = 0
            for item in oldStart[section]..<oldStart[section + 1] {
                let target = newOfOld[item]
                if target < 0 || oldSectionOfNew[newSectionOfItem[target]] < 0 {
                    rowDeletes.append(RowPath(section: section, row: item - oldStart[section]))
                    if oldSectionMoved[section] { stage1Conflict = true }
                } else {
                    compactRow[item] = kept
                    kept += 1
                }
            }
        }

        // MARK: Row inserts, moves and reloads, section by section in new order
        var rowInserts: [RowPath] = []
        var moves: [(item: Int, to: RowPath)] = []
        var earlyReloads: [RowPath] = []  // unmoved updated items, old paths
        var lateReloads: [RowPath] = []  // moved updated items, final paths
        var stage3Conflict = false  // a stage-3 row inside a section that moves
        var candidates: [Int] = []
        var candidateRanks: [Int] = []
        for section in 0..<newSectionCount {
            let source = oldSectionOfNew[section]
            guard source >= 0 else { continue }
            candidates.removeAll(keepingCapacity: true)
            candidateRanks.removeAll(keepingCapacity: true)
            for item in newStart[section]..<newStart[section + 1] {
                let destination = RowPath(section: section, row: item - newStart[section])
                let origin = oldOfNew[item]
                if origin >= 0 {
                    let originSection = oldSectionOfItem[origin]
                    if originSection == source {
                        candidates.append(item)
                        candidateRanks.append(origin - oldStart[source])
                        continue
                    }
                    if newOfOldSection[originSection] >= 0 {
                        moves.append((origin, destination))
                        if updated[item] { lateReloads.append(destination) }
                        if newSectionMoved[section] || oldSectionMoved[originSection] { stage3Conflict = true }
                        continue
                    }
                }
                rowInserts.append(destination)
                if newSectionMoved[section] { stage3Conflict = true }
            }
            if candidates.isEmpty { continue }
            let unmoved = WeightedLIS.select(
                ranks: candidateRanks, rankCount: oldCounts[source],
                weights: [Int](repeating: 1, count: candidates.count))
            for (offset, item) in candidates.enumerated() {
                if unmoved[offset] {
                    guard updated[item] else { continue }
                    earlyReloads.append(RowPath(section: source, row: candidateRanks[offset]))
                    if oldSectionMoved[source] { stage1Conflict = true }
                } else {
                    let destination = RowPath(section: section, row: item - newStart[section])
                    moves.append((oldOfNew[item], destination))
                    if updated[item] { lateReloads.append(destination) }
                    if newSectionMoved[section] { stage3Conflict = true }
                }
            }
        }

        // MARK: Assembling the stages
        // Stage 1 always runs against `old`; stage 2 against `old` when merged
        // with 1, else against the state without deleted rows and sections;
        // stage 3 against `old`, that state, or that state with sections in
        // their final order, depending on what it is merged with.
        let join12 = !stage1Conflict
        let join23 = !stage3Conflict
        var stages: [BatchStage] = []
        var current = BatchStage()
        func flush() {
            if !current.isEmpty { stages.append(current) }
            current = BatchStage()
        }

        current.reloadedRows = earlyReloads
        current.deletedRows = rowDeletes
        for section in 0..<oldSectionCount where newOfOldSection[section] < 0 {
            current.deletedSections.append(section)
        }
        if !join12 { flush() }

        for section in 0..<newSectionCount {
            let source = oldSectionOfNew[section]
            if source < 0 {
                current.insertedSections.append(section)
            } else if newSectionMoved[section] {
                current.movedSections.append(
                    SectionMove(from: join12 ? source : compactSection[source], to: section))
            }
        }
        if !join23 { flush() }

        let stage3Base: (Int) -> RowPath
        if join12 && join23 {
            stage3Base = { item in
                let section = oldSectionOfItem[item]
                return RowPath(section: section, row: item - oldStart[section])
            }
        } else if join23 {
            stage3Base = { item in
                RowPath(section: compactSection[oldSectionOfItem[item]], row: compactRow[item])
            }
        } else {
            stage3Base = { item in
                RowPath(section: newOfOldSection[oldSectionOfItem[item]], row: compactRow[item])
            }
        }
        current.insertedRows = rowInserts
        current.movedRows = moves.map { RowMove(from: stage3Base($0.item), to: $0.to) }
        flush()

        current.reloadedRows = lateReloads
        flush()
        return stages
    }
}
