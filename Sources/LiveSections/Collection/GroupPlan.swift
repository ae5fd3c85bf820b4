// GroupPlan.swift — a grouped change of a sectioned collection planned from
// the keys it touched alone: its stages and its sequential steps.
import LiveCollection
import LiveModel

/// Where a model is shown: its section and its place in the collection's order.
@usableFromInline
struct ShownPlace<Section: Hashable> {
    @usableFromInline let section: Section
    @usableFromInline let post: OrderPost
    @inlinable init(section: Section, post: OrderPost) {
        self.section = section
        self.post = post
    }
}

/// Where a key was shown before the collection changed it (nil: not
/// shown) and its model then, and how many of its changes are noted and
/// neither applied by the sections nor found to change nothing.
@usableFromInline
struct NotedPlace<Section: Hashable, Model> {
    @usableFromInline let place: ShownPlace<Section>?
    @usableFromInline let model: Model?
    @usableFromInline var open: Int
    @inlinable init(_ place: ShownPlace<Section>?, model: Model?) {
        self.place = place
        self.model = model
        self.open = 1
    }
}

/// A key a grouped change touched: where it was shown and where it goes,
/// with both row paths (each in its own state).
@usableFromInline
struct GroupEntry<Section: Hashable> {
    let key: Key
    let old: ShownPlace<Section>?
    let new: ShownPlace<Section>?
    /// Whether its content may be new.
    let changed: Bool
    var oldPath: RowPath?
    var newPath: RowPath?
}

/// One step of a grouped change told in the sequential contract, by key.
enum ReplayStep<Section: Hashable>: Equatable {
    case sectionRemoved(Section, at: Int)
    case rowRemoved(Key, at: RowPath)
    case sectionInserted(Section, at: Int, keys: [Key])
    case rowInserted(Key, at: RowPath)
    case rowUpdated(Key, at: RowPath)
}

/// The plan of a grouped change, from its touched keys only.
///
/// Rows that were not touched keep their section and their relative order,
/// so they stay in place. A touched row that keeps its section stays in
/// place too when as many untouched rows precede it before and after the
/// change (it sits in the same gap between them) and it belongs to a longest
/// increasing run of the touched rows of that gap; every other touched row
/// moves, leaves or arrives. Sections keep their relative order (it comes
/// from the section values), so no section moves.
///
/// - Complexity: O(t log t) for t entries.
struct GroupPlan<Section: Hashable> {
    let entries: [GroupEntry<Section>]
    /// For each entry, whether it stays in place.
    private(set) var stays: [Bool]
    /// Entries with an old place, by old section, in old row order.
    private var leaving: [Section: [Int]] = [:]
    /// Entries with a new place, by new section, in new row order.
    private var arriving: [Section: [Int]] = [:]
    /// Rows before the change of every section an entry leaves or enters
    /// that existed then.
    private let oldCounts: [Section: Int]
    /// The sections an entry leaves that still exist after the change.
    private let existsAfter: Set<Section>

    /// - Parameters:
    ///   - entries: The touched keys, with paths, none both unmoved and unchanged.
    ///   - oldCounts: Rows before the change of every section an entry leaves
    ///     or enters, if that section existed.
    ///   - existsAfter: The sections an entry leaves that still exist after.
    init(entries: [GroupEntry<Section>], oldCounts: [Section: Int], existsAfter: Set<Section>) {
        self.entries = entries
        self.oldCounts = oldCounts
        self.existsAfter = existsAfter
        stays = [Bool](repeating: false, count: entries.count)
        for (i, entry) in entries.enumerated() {
            if let old = entry.old { leaving[old.section, default: []].append(i) }
            if let new = entry.new { arriving[new.section, default: []].append(i) }
        }
        // Rows read once each, so that sorting compares integers.
        let oldRows = entries.map { $0.oldPath?.row ?? 0 }, newRows = entries.map { $0.newPath?.row ?? 0 }
        for (section, list) in leaving { leaving[section] = list.sorted { oldRows[$0] < oldRows[$1] } }
        for (section, list) in arriving { arriving[section] = list.sorted { newRows[$0] < newRows[$1] } }
        chooseStays()
    }

    /// Marks the touched rows that stay in place (see the type's summary).
    private mutating func chooseStays() {
        var newGap = [Int](repeating: -1, count: entries.count)
        for list in arriving.values {
            for (rank, i) in list.enumerated() { newGap[i] = entries[i].newPath!.row - rank }
        }
        for (section, list) in leaving {
            // Along old row order the gap never decreases: each gap is a run.
            var run: [Int] = []
            var runGap = -1
            func close() {
                guard !run.isEmpty else { return }
                let unmoved = WeightedLIS.select(keys: run.map { entries[$0].newPath!.row },
                                                 weights: [Int](repeating: 1, count: run.count))
                for (offset, i) in run.enumerated() where unmoved[offset] { stays[i] = true }
                run.removeAll(keepingCapacity: true)
            }
            for (rank, i) in list.enumerated() {
                let gap = entries[i].oldPath!.row - rank
                if gap != runGap { close(); runGap = gap }
                if entries[i].new?.section == section && newGap[i] == gap { run.append(i) }
            }
            close()
        }
    }

    /// The change in UIKit's batch contract: one stage with every deletion,
    /// insertion, move and the reloads of rows that stay, then one with the
    /// reloads of changed rows that moved (UIKit forbids moving and reloading
    /// a row in one batch). Empty stages are left out.
    func stages() -> [BatchStage] {
        var first = BatchStage()
        var late: [RowPath] = []
        for (i, entry) in entries.enumerated() {
            if stays[i] {
                if entry.changed { first.reloadedRows.append(entry.oldPath!) }
                continue
            }
            // A row of a section that goes or comes goes or comes with it.
            let fromKept = entry.old.map { existsAfter.contains($0.section) } ?? false
            let toKept = entry.new.map { oldCounts[$0.section] != nil } ?? false
            switch (fromKept, toKept) {
            case (true, true):
                first.movedRows.append(RowMove(from: entry.oldPath!, to: entry.newPath!))
                if entry.changed { late.append(entry.newPath!) }
            case (true, false): first.deletedRows.append(entry.oldPath!)
            case (false, true): first.insertedRows.append(entry.newPath!)
            case (false, false): break
            }
        }
        for (section, list) in leaving where !existsAfter.contains(section) {
            first.deletedSections.append(entries[list[0]].oldPath!.section)
        }
        for (section, list) in arriving where oldCounts[section] == nil {
            first.insertedSections.append(entries[list[0]].newPath!.section)
        }
        first.deletedSections.sort()
        first.insertedSections.sort()
        first.deletedRows.sort()
        first.insertedRows.sort()
        first.reloadedRows.sort()
        first.movedRows.sort { $0.to < $1.to }
        return [first, BatchStage(reloadedRows: late.sorted())].filter { !$0.isEmpty }
    }

    /// Whether any row of `section` stays in place: an untouched one, or a
    /// touched one chosen to stay.
    private func hasStays(_ section: Section) -> Bool {
        let touched = leaving[section] ?? []
        if let count = oldCounts[section], count > touched.count { return true }
        return touched.contains { stays[$0] }
    }

    /// The change in the sequential contract: rows and sections leaving from
    /// the end (so earlier indexes are still the old ones), arriving from the
    /// start (so earlier rows are already final), then updates of changed
    /// rows that stayed. A section none of whose rows stays is told as
    /// removed and, if it is still there, inserted with its rows (`keysOf`).
    func steps(keysOf: (Section) -> [Key]) -> [ReplayStep<Section>] {
        var steps: [ReplayStep<Section>] = []
        let sectionsLeft = leaving.map { (section: $0.key, index: entries[$0.value[0]].oldPath!.section) }
        for (section, index) in sectionsLeft.sorted(by: { $0.index > $1.index }) {
            if !hasStays(section) {
                steps.append(.sectionRemoved(section, at: index))
                continue
            }
            for i in leaving[section]!.reversed() where !stays[i] {
                steps.append(.rowRemoved(entries[i].key, at: entries[i].oldPath!))
            }
        }
        let sectionsEntered = arriving.map { (section: $0.key, index: entries[$0.value[0]].newPath!.section) }
        for (section, index) in sectionsEntered.sorted(by: { $0.index < $1.index }) {
            if !hasStays(section) {
                steps.append(.sectionInserted(section, at: index, keys: keysOf(section)))
                continue
            }
            for i in arriving[section]! where !stays[i] {
                steps.append(.rowInserted(entries[i].key, at: entries[i].newPath!))
            }
        }
        let updated = entries.indices.filter { stays[$0] && entries[$0].changed }
        for i in updated.sorted(by: { entries[$0].newPath! < entries[$1].newPath! }) {
            steps.append(.rowUpdated(entries[i].key, at: entries[i].newPath!))
        }
        return steps
    }
}
