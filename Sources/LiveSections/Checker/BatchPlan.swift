// BatchPlan.swift — the validation pass shared by both BatchUpdateChecker.apply variants.

/// What a validated ``BatchStage`` does to the sections: the old ↔ new section
/// mapping and the row counts after the batch.
struct BatchPlan {
    /// For each new section, the old section it continues, or -1 when inserted.
    var oldOfNew: [Int]
    /// For each old section, its index after the batch, or -1 when deleted.
    var newOfOld: [Int]
    /// Row counts after the batch (data source counts when given; otherwise
    /// computed, with inserted sections empty and reloaded sections unchanged).
    var newCounts: [Int]

    /// Validates `stage` against the old row counts and, when given, the data
    /// source's counts after the update, in UIKit's order of checks: old-space
    /// section checks, the section count, new-space section checks, old-space
    /// row checks, new-space row checks, then the per-section row counts.
    ///
    /// - Complexity: O(*o* + *s*) expected, where *o* is the number of
    ///   operations and *s* the number of sections before and after.
    init(_ stage: BatchStage, old: [Int], reported: [Int]?) throws(BatchUpdateError) {
        let oldCount = old.count

        // MARK: Sections, old index space
        var sectionDeleted = [Bool](repeating: false, count: oldCount)
        for section in stage.deletedSections {
            guard section >= 0, section < oldCount else {
                throw .sectionDeleteOutOfRange(section: section, sectionCount: oldCount)
            }
            guard !sectionDeleted[section] else { throw .duplicateSection(.delete, section: section) }
            sectionDeleted[section] = true
        }
        var sectionReloaded = [Bool](repeating: false, count: oldCount)
        for section in stage.reloadedSections {
            guard section >= 0, section < oldCount else {
                throw .sectionReloadOutOfRange(section: section, sectionCount: oldCount)
            }
            guard !sectionReloaded[section] else { throw .duplicateSection(.reload, section: section) }
            guard !sectionDeleted[section] else { throw .sectionDeletedAndReloaded(section: section) }
            sectionReloaded[section] = true
        }
        var sectionMoved = [Bool](repeating: false, count: oldCount)
        var sectionMovedTo = [Int](repeating: 0, count: oldCount)
        for move in stage.movedSections {
            guard move.from >= 0, move.from < oldCount else {
                throw .sectionMoveSourceOutOfRange(move, sectionCount: oldCount)
            }
            guard !sectionMoved[move.from] else {
                throw .sectionMovedTwice(
                    section: move.from, firstDestination: sectionMovedTo[move.from], secondDestination: move.to)
            }
            guard !sectionDeleted[move.from] else { throw .sectionDeletedAndMoved(section: move.from) }
            guard !sectionReloaded[move.from] else { throw .sectionReloadedAndMoved(section: move.from) }
            sectionMoved[move.from] = true
            sectionMovedTo[move.from] = move.to
        }

        // MARK: Section count
        let inserted = stage.insertedSections.count
        let deleted = stage.deletedSections.count
        let expected = oldCount - deleted + inserted
        if let reported, reported.count != expected {
            throw .invalidSectionCount(after: reported.count, before: oldCount, inserted: inserted, deleted: deleted)
        }
        let newCount = expected

        // MARK: Sections, new index space
        var sectionInserted = [Bool](repeating: false, count: newCount)
        for section in stage.insertedSections {
            guard section >= 0, section < newCount else {
                throw .sectionInsertOutOfRange(section: section, sectionCount: newCount)
            }
            guard !sectionInserted[section] else { throw .duplicateSection(.insert, section: section) }
            sectionInserted[section] = true
        }
        var oldOfNew = [Int](repeating: -1, count: newCount)
        var isMoveDestination = [Bool](repeating: false, count: newCount)
        for move in stage.movedSections {
            guard move.to >= 0, move.to < newCount else {
                throw .sectionMoveDestinationOutOfRange(move, sectionCount: newCount)
            }
            guard !isMoveDestination[move.to] else {
                throw .sectionsMovedToSameSection(
                    firstSource: oldOfNew[move.to], secondSource: move.from, destination: move.to)
            }
            guard !sectionInserted[move.to] else { throw .sectionInsertedAndMovedTo(section: move.to) }
            isMoveDestination[move.to] = true
            oldOfNew[move.to] = move.from
        }
        // Sections that neither go nor move keep their order and fill the free slots.
        var newOfOld = [Int](repeating: -1, count: oldCount)
        var slot = 0
        for section in 0..<oldCount where !sectionDeleted[section] && !sectionMoved[section] {
            while sectionInserted[slot] || isMoveDestination[slot] { slot += 1 }
            newOfOld[section] = slot
            oldOfNew[slot] = section
            slot += 1
        }
        for move in stage.movedSections { newOfOld[move.from] = move.to }
        self.oldOfNew = oldOfNew
        self.newOfOld = newOfOld

        // MARK: Rows, old index space
        func checkOldSection(_ role: BatchRowRole, _ path: RowPath) throws(BatchUpdateError) {
            if sectionDeleted[path.section] { throw .rowInDeletedSection(role, path) }
            if sectionReloaded[path.section] { throw .rowInReloadedSection(role, path) }
            if sectionMoved[path.section] { throw .rowInMovedSection(role, path) }
        }
        var deletedIn = [Int](repeating: 0, count: oldCount)
        var movedOut = [Int](repeating: 0, count: oldCount)
        var deletedPaths = Set<RowPath>(minimumCapacity: stage.deletedRows.count)
        for path in stage.deletedRows {
            guard path.section >= 0, path.section < oldCount else {
                throw .rowDeleteSectionOutOfRange(path, sectionCount: oldCount)
            }
            guard path.row >= 0, path.row < old[path.section] else {
                throw .rowDeleteOutOfRange(path, rowCount: old[path.section])
            }
            try checkOldSection(.delete, path)
            guard deletedPaths.insert(path).inserted else { throw .duplicateRow(.delete, path) }
            deletedIn[path.section] += 1
        }
        var reloadedPaths = Set<RowPath>(minimumCapacity: stage.reloadedRows.count)
        for path in stage.reloadedRows {
            guard path.section >= 0, path.section < oldCount else {
                throw .rowReloadSectionOutOfRange(path, sectionCount: oldCount)
            }
            guard path.row >= 0, path.row < old[path.section] else {
                throw .rowReloadOutOfRange(path, rowCount: old[path.section])
            }
            try checkOldSection(.reload, path)
            guard reloadedPaths.insert(path).inserted else { throw .duplicateRow(.reload, path) }
            guard !deletedPaths.contains(path) else { throw .rowDeletedAndReloaded(path) }
        }
        var moveSources = [RowPath: RowPath](minimumCapacity: stage.movedRows.count)
        for move in stage.movedRows {
            let from = move.from
            guard from.section >= 0, from.section < oldCount else {
                throw .rowMoveSourceSectionOutOfRange(move, sectionCount: oldCount)
            }
            guard from.row >= 0, from.row < old[from.section] else {
                throw .rowMoveSourceOutOfRange(move, rowCount: old[from.section])
            }
            if sectionDeleted[from.section] { throw .rowMovedFromDeletedSection(move) }
            if sectionReloaded[from.section] { throw .rowInReloadedSection(.moveSource, from) }
            if sectionMoved[from.section] { throw .rowInMovedSection(.moveSource, from) }
            if let earlier = moveSources.updateValue(move.to, forKey: from) {
                throw .rowMovedTwice(from, firstDestination: earlier, secondDestination: move.to)
            }
            guard !deletedPaths.contains(from) else { throw .rowDeletedAndMoved(from) }
            guard !reloadedPaths.contains(from) else { throw .rowReloadedAndMoved(from) }
        }

        // MARK: Rows, new index space — sections first, to know the counts
        func checkNewSection(_ role: BatchRowRole, _ path: RowPath) throws(BatchUpdateError) {
            if sectionInserted[path.section] { throw .rowInInsertedSection(role, path) }
            let source = oldOfNew[path.section]
            if sectionReloaded[source] { throw .rowInReloadedSection(role, path) }
            if isMoveDestination[path.section] { throw .rowInMovedSection(role, path) }
        }
        var insertedIn = [Int](repeating: 0, count: newCount)
        var movedIn = [Int](repeating: 0, count: newCount)
        for path in stage.insertedRows {
            guard path.section >= 0, path.section < newCount else {
                throw .rowInsertSectionOutOfRange(path, sectionCount: newCount)
            }
            try checkNewSection(.insert, path)
            insertedIn[path.section] += 1
        }
        for move in stage.movedRows {
            let to = move.to
            guard to.section >= 0, to.section < newCount else {
                throw .rowMoveDestinationSectionOutOfRange(move, sectionCount: newCount)
            }
            if sectionInserted[to.section] { throw .rowMovedIntoInsertedSection(move) }
            try checkNewSection(.moveDestination, to)
            if newOfOld[move.from.section] != to.section {
                movedIn[to.section] += 1
                movedOut[move.from.section] += 1
            }
        }
        var computed = [Int](repeating: 0, count: newCount)
        for section in 0..<newCount {
            let source = oldOfNew[section]
            if source < 0 { continue }
            computed[section] = sectionReloaded[source]
                ? old[source]
                : old[source] - deletedIn[source] - movedOut[source] + insertedIn[section] + movedIn[section]
        }
        let available = reported ?? computed

        // MARK: Rows, new index space — ranges and collisions
        var destinations = [RowPath: RowPath](minimumCapacity: stage.insertedRows.count + stage.movedRows.count)
        let insertMarker = RowPath(section: Int.min, row: Int.min)
        for path in stage.insertedRows {
            guard path.row >= 0, path.row < available[path.section] else {
                throw .rowInsertOutOfRange(path, rowCount: available[path.section])
            }
            guard destinations.updateValue(insertMarker, forKey: path) == nil else {
                throw .duplicateRow(.insert, path)
            }
        }
        for move in stage.movedRows {
            let to = move.to
            guard to.row >= 0, to.row < available[to.section] else {
                throw .rowMoveDestinationOutOfRange(move, rowCount: available[to.section])
            }
            if let earlier = destinations.updateValue(move.from, forKey: to) {
                if earlier == insertMarker { throw .rowInsertedAndMovedTo(to) }
                throw .rowsMovedToSamePath(firstSource: earlier, secondSource: move.from, destination: to)
            }
        }

        // MARK: Row counts of existing sections
        if let reported {
            for section in 0..<newCount {
                let source = oldOfNew[section]
                guard source >= 0, !sectionReloaded[source], reported[section] != computed[section] else { continue }
                throw .invalidRowCount(
                    section: section, after: reported[section], before: old[source],
                    inserted: insertedIn[section], deleted: deletedIn[source],
                    movedIn: movedIn[section], movedOut: movedOut[source])
            }
        }
        self.newCounts = available
    }
}
