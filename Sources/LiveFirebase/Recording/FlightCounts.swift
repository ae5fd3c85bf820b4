// FlightCounts.swift — how a recorder reads the row counts of a list, and
// which it reads again after a change.
import LiveSections

/// How a recorder reads a list's row counts.
struct FlightCounts {
    /// The row count of every section.
    let all: () -> [Int]
    /// The number of sections.
    let sections: () -> Int
    /// The row count of one section.
    let rows: (Int) -> Int

    /// The counts a change left.
    enum Changed {
        /// The sections whose count changed, with their counts after it.
        case rows([(section: Int, count: Int)])
        /// Every section's count, read again, and those before.
        case all(before: [Int], after: [Int])
    }

    /// Brings `counts` to after `stages`: read again only for the sections
    /// the stages put rows in or took rows from, unless a stage changes
    /// the sections themselves (then all are read).
    /// - Complexity: O(operations in the stages), or O(sections) when they
    ///   change the sections.
    func update(_ counts: inout [Int], after stages: [BatchStage]) -> Changed {
        let sameSections = sections() == counts.count && !stages.contains {
            !$0.deletedSections.isEmpty || !$0.insertedSections.isEmpty || !$0.movedSections.isEmpty
                || !$0.reloadedSections.isEmpty
        }
        guard sameSections else {
            let before = counts
            counts = all()
            return .all(before: before, after: counts)
        }
        var changed: [(section: Int, count: Int)] = []
        func read(_ section: Int) {
            guard section >= 0, section < counts.count else { return }
            let count = rows(section)
            guard count != counts[section] else { return }
            counts[section] = count
            changed.append((section, count))
        }
        for stage in stages {
            for path in stage.deletedRows { read(path.section) }
            for path in stage.insertedRows { read(path.section) }
            for move in stage.movedRows where move.from.section != move.to.section {
                read(move.from.section)
                read(move.to.section)
            }
        }
        return .rows(changed)
    }
}
