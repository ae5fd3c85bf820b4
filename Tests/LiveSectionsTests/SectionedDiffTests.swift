import LiveModel
import Foundation
import LiveTestSupport
import Testing

@testable import LiveSections

// MARK: - Helpers

private typealias Snapshot = [SectionItems<Int, Int>]

/// The generator of case `index` of a run seeded with `seed`.
private func caseRandom(_ seed: UInt64, _ index: Int) -> SplitMix64 {
    var mixer = SplitMix64(seed: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
    return SplitMix64(seed: mixer.next())
}

private func snapshot(_ sections: [(Int, [Int])]) -> Snapshot {
    sections.map { SectionItems(id: $0.0, items: $0.1) }
}

/// Length of a longest strictly increasing subsequence, by the O(n²) definition.
private func bruteLIS(_ values: [Int]) -> Int {
    var best = [Int](repeating: 1, count: values.count)
    for i in values.indices {
        for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
    }
    return best.max() ?? 0
}

/// What a diff must produce, computed independently of the implementation.
private struct Expectation {
    var rowMoves: Int
    var sectionMoves: Int
    var reloads: [Int]  // sorted

    init(old: Snapshot, new: Snapshot, updated: Set<Int>) {
        let oldIDs = Set(old.map(\.id))
        let newIDs = Set(new.map(\.id))
        var oldPlace: [Int: (section: Int, row: Int)] = [:]
        for section in old {
            for (r, item) in section.items.enumerated() { oldPlace[item] = (section.id, r) }
        }
        let oldSectionIndex = Dictionary(uniqueKeysWithValues: old.enumerated().map { ($1.id, $0) })
        let kept = new.compactMap { oldSectionIndex[$0.id] }
        sectionMoves = kept.count - bruteLIS(kept)
        rowMoves = 0
        var reloads: [Int] = []
        for section in new where oldIDs.contains(section.id) {
            var sameSection: [Int] = []
            for item in section.items {
                guard let place = oldPlace[item] else { continue }
                if place.section == section.id {
                    sameSection.append(place.row)
                } else if newIDs.contains(place.section) {
                    rowMoves += 1
                }
                if newIDs.contains(place.section) && updated.contains(item) { reloads.append(item) }
            }
            rowMoves += sameSection.count - bruteLIS(sameSection)
        }
        self.reloads = reloads.sorted()
    }
}

/// The outcome of applying stages with the checker.
private struct Outcome: Equatable {
    var items: [[Int]]
    var sectionIDs: [Int]
    var reloads: [Int]  // sorted
}

/// Applies `stages` to `old` with ``BatchUpdateChecker``; inserted rows and
/// sections take their content from `new` (by their index after the stage).
private func run(_ stages: [BatchStage], old: Snapshot, new: Snapshot) throws(BatchUpdateError) -> Outcome {
    var items = old.map(\.items)
    var ids = old.map { [$0.id] }
    var reloads: [Int] = []
    for stage in stages {
        let next = try BatchUpdateChecker.apply(
            stage, to: items,
            inserting: { path in
                new.indices.contains(path.section) && new[path.section].items.indices.contains(path.row)
                    ? new[path.section].items[path.row] : -1
            },
            insertingSection: { new.indices.contains($0) ? new[$0].items : [] })
        for path in stage.reloadedRows { reloads.append(items[path.section][path.row]) }
        let sectionsOnly = BatchStage(
            deletedSections: stage.deletedSections, insertedSections: stage.insertedSections,
            reloadedSections: stage.reloadedSections, movedSections: stage.movedSections)
        ids = try BatchUpdateChecker.apply(
            sectionsOnly, to: ids, inserting: { _ in -1 },
            insertingSection: { new.indices.contains($0) ? [new[$0].id] : [-1] })
        items = next
    }
    return Outcome(items: items, sectionIDs: ids.map { $0.first ?? -1 }, reloads: reloads.sorted())
}

/// A random pair of snapshots and a set of updated items.
private struct RandomCase {
    var old: Snapshot
    var new: Snapshot
    var updated: Set<Int>

    init(_ rng: inout SplitMix64) {
        func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
        func rate() -> Double { [0, 0, 0.05, 0.1, 0.3, 0.5, 1][Int.random(in: 0..<7, using: &rng)] }
        let maxSections = Int.random(in: 0...20, using: &rng)
        let maxRows = Int.random(in: 0...50, using: &rng)
        let sectionCount = Int.random(in: 0...maxSections, using: &rng)
        var nextItem = 0
        var old: Snapshot = []
        for id in 0..<sectionCount {
            // Skewed towards short sections so that 100,000 cases stay fast in debug builds.
            let rows = Int.random(in: 0...Int.random(in: 0...maxRows, using: &rng), using: &rng)
            old.append(SectionItems(id: id, items: Array(nextItem..<nextItem + rows)))
            nextItem += rows
        }
        let deleteSection = rate(), moveSection = rate(), deleteItem = rate(), moveWithin = rate()
        let cross = rate(), update = rate()
        // Sections: delete, move, insert.
        var ids = old.map(\.id).filter { _ in !chance(deleteSection) }
        for _ in 0..<ids.count where chance(moveSection) {
            let moved = ids.remove(at: Int.random(in: 0..<ids.count, using: &rng))
            ids.insert(moved, at: Int.random(in: 0...ids.count, using: &rng))
        }
        var nextSection = 1000
        for _ in 0..<Int.random(in: 0...(chance(0.5) ? 0 : 4), using: &rng) {
            ids.insert(nextSection, at: Int.random(in: 0...ids.count, using: &rng))
            nextSection += 1
        }
        var rows: [Int: [Int]] = Dictionary(uniqueKeysWithValues: ids.map { ($0, []) })
        var travellers: [Int] = []
        for section in old {
            for item in section.items where !chance(deleteItem) {
                if rows[section.id] != nil && !chance(cross) {
                    rows[section.id]!.append(item)
                } else {
                    travellers.append(item)
                }
            }
        }
        for id in ids {
            var list = rows[id]!
            for _ in 0..<list.count where chance(moveWithin) {
                let moved = list.remove(at: Int.random(in: 0..<list.count, using: &rng))
                list.insert(moved, at: Int.random(in: 0...list.count, using: &rng))
            }
            rows[id] = list
        }
        let fresh = Int.random(in: 0...(chance(0.3) ? 0 : maxRows + 5), using: &rng)
        travellers += Array(100_000..<100_000 + fresh)
        if !ids.isEmpty {
            for item in travellers {
                let id = ids[Int.random(in: 0..<ids.count, using: &rng)]
                rows[id]!.insert(item, at: Int.random(in: 0...rows[id]!.count, using: &rng))
            }
        }
        let new = ids.map { SectionItems(id: $0, items: rows[$0]!) }
        let oldItems = Set(old.flatMap(\.items))
        var updated: Set<Int> = []
        for section in new {
            for item in section.items where oldItems.contains(item) && chance(update) { updated.insert(item) }
        }
        self.old = old
        self.new = new
        self.updated = updated
    }
}

/// How many random cases exercised each kind of change.
private struct Coverage {
    var sectionDeletes = 0, sectionInserts = 0, sectionMoves = 0, rowDeletes = 0, rowInserts = 0
    var rowMoves = 0, earlyReloads = 0, lateReloads = 0, twoStages = 0, threeOrMoreStages = 0

    mutating func count(_ stages: [BatchStage]) {
        func any(_ has: (BatchStage) -> Bool) -> Int { stages.contains(where: has) ? 1 : 0 }
        sectionDeletes += any { !$0.deletedSections.isEmpty }
        sectionInserts += any { !$0.insertedSections.isEmpty }
        sectionMoves += any { !$0.movedSections.isEmpty }
        rowDeletes += any { !$0.deletedRows.isEmpty }
        rowInserts += any { !$0.insertedRows.isEmpty }
        rowMoves += any { !$0.movedRows.isEmpty }
        earlyReloads += (stages.first.map { !$0.reloadedRows.isEmpty } ?? false) ? 1 : 0
        lateReloads += (stages.count > 1 && !stages[stages.count - 1].reloadedRows.isEmpty) ? 1 : 0
        twoStages += stages.count == 2 ? 1 : 0
        threeOrMoreStages += stages.count >= 3 ? 1 : 0
    }

    var all: [Int] {
        [sectionDeletes, sectionInserts, sectionMoves, rowDeletes, rowInserts, rowMoves, earlyReloads, lateReloads,
         twoStages, threeOrMoreStages]
    }
}

/// Checks one case; returns a failure message or nil.
private func check(old: Snapshot, new: Snapshot, updated: Set<Int>) -> String? {
    var coverage = Coverage()
    return check(old: old, new: new, updated: updated, coverage: &coverage)
}

/// Checks one case and counts what it exercised; returns a failure message or nil.
private func check(old: Snapshot, new: Snapshot, updated: Set<Int>, coverage: inout Coverage) -> String? {
    let stages: [BatchStage]
    do {
        stages = try SectionedDiff.stages(from: old, to: new, isUpdated: { updated.contains($0) })
    } catch {
        return "diff threw \(error)"
    }
    let outcome: Outcome
    do {
        outcome = try run(stages, old: old, new: new)
    } catch {
        return "checker rejected a stage: \(error)\nstages: \(stages)"
    }
    let expected = Expectation(old: old, new: new, updated: updated)
    if outcome.items != new.map(\.items) || outcome.sectionIDs != new.map(\.id) {
        return "final state \(outcome) differs from new\nstages: \(stages)"
    }
    if outcome.reloads != expected.reloads {
        return "reloaded \(outcome.reloads), expected \(expected.reloads)\nstages: \(stages)"
    }
    let rowMoves = stages.reduce(0) { $0 + $1.movedRows.count }
    let sectionMoves = stages.reduce(0) { $0 + $1.movedSections.count }
    if rowMoves != expected.rowMoves || sectionMoves != expected.sectionMoves {
        return "moves rows \(rowMoves) sections \(sectionMoves), minimum \(expected.rowMoves) / \(expected.sectionMoves)"
    }
    if stages.contains(where: \.isEmpty) { return "empty stage" }
    coverage.count(stages)
    return nil
}

// MARK: - Randomised

@Suite("SectionedDiff")
struct SectionedDiffTests {
    static let chunks = 8
    static let casesPerChunk = TestScale.count(12_500)

    @Test("random cases pass the checker, reach new, with minimal moves", arguments: 0..<chunks)
    func randomCases(chunk: Int) async {
        // Seconds of computation: on a thread of its own, not the shared pool.
        await offThePool { [self] in self.randomCasesOnItsThread(chunk: chunk) }
    }

    private func randomCasesOnItsThread(chunk: Int) {
        let seed = testSeed("SectionedDiff random chunk \(chunk)")
        var coverage = Coverage()
        defer { #expect(coverage.all.allSatisfy { $0 > 0 }, "seed \(seed): some change never exercised: \(coverage)") }
        for offset in 0..<Self.casesPerChunk {
            let index = chunk * Self.casesPerChunk + offset
            var rng = caseRandom(seed, index)
            let random = RandomCase(&rng)
            if let failure = check(old: random.old, new: random.new, updated: random.updated, coverage: &coverage) {
                Issue.record(
                    "seed \(seed) case \(index): \(failure)\nold: \(random.old)\nnew: \(random.new)\nupdated: \(random.updated.sorted())"
                )
                return
            }
        }
    }

    @Test("a corrupted index is always caught", arguments: 0..<4)
    func negativeControls(chunk: Int) async {
        // Seconds of computation: on a thread of its own, not the shared pool.
        await offThePool { [self] in self.negativeControlsOnItsThread(chunk: chunk) }
    }

    private func negativeControlsOnItsThread(chunk: Int) {
        let seed = testSeed("SectionedDiff negative chunk \(chunk)")
        var tried = 0
        var index = chunk * 1_000_000
        while tried < 2_600 {
            index += 1
            var rng = caseRandom(seed, index)
            let random = RandomCase(&rng)
            guard
                var stages = try? SectionedDiff.stages(
                    from: random.old, to: random.new, isUpdated: { random.updated.contains($0) }),
                !stages.isEmpty
            else { continue }
            tried += 1
            let stageIndex = Int.random(in: 0..<stages.count, using: &rng)
            var stage = stages[stageIndex]
            let slots = stage.operationCount + stage.movedRows.count + stage.movedSections.count
            var slot = Int.random(in: 0..<slots, using: &rng)
            var delta = Int.random(in: 1...3, using: &rng)
            if Bool.random(using: &rng) { delta = -delta }
            let useSection = Bool.random(using: &rng)
            func bump(_ path: inout RowPath) {
                if useSection { path.section += delta } else { path.row += delta }
            }
            var what = ""
            func visit(_ list: inout [Int], _ name: String) {
                if slot >= 0 && slot < list.count { list[slot] += delta; what = "\(name)[\(slot)]" }
                slot -= list.count
            }
            func visit(_ list: inout [RowPath], _ name: String) {
                if slot >= 0 && slot < list.count { bump(&list[slot]); what = "\(name)[\(slot)]" }
                slot -= list.count
            }
            func visit(_ list: inout [SectionMove], _ name: String) {
                for end in 0..<2 {
                    if slot >= 0 && slot < list.count {
                        if end == 0 { list[slot].from += delta } else { list[slot].to += delta }
                        what = "\(name)[\(slot)].\(end == 0 ? "from" : "to")"
                    }
                    slot -= list.count
                }
            }
            func visit(_ list: inout [RowMove], _ name: String) {
                for end in 0..<2 {
                    if slot >= 0 && slot < list.count {
                        if end == 0 { bump(&list[slot].from) } else { bump(&list[slot].to) }
                        what = "\(name)[\(slot)].\(end == 0 ? "from" : "to")"
                    }
                    slot -= list.count
                }
            }
            visit(&stage.deletedSections, "deletedSections")
            visit(&stage.insertedSections, "insertedSections")
            visit(&stage.reloadedSections, "reloadedSections")
            visit(&stage.movedSections, "movedSections")
            visit(&stage.deletedRows, "deletedRows")
            visit(&stage.insertedRows, "insertedRows")
            visit(&stage.reloadedRows, "reloadedRows")
            visit(&stage.movedRows, "movedRows")
            guard !what.isEmpty else {
                Issue.record("seed \(seed) case \(index): nothing corrupted")
                return
            }
            stages[stageIndex] = stage
            guard let outcome = try? run(stages, old: random.old, new: random.new) else { continue }
            let expected = Expectation(old: random.old, new: random.new, updated: random.updated)
            if outcome.items == random.new.map(\.items) && outcome.sectionIDs == random.new.map(\.id)
                && outcome.reloads == expected.reloads
            {
                Issue.record(
                    "seed \(seed) case \(index): corrupting \(what) of stage \(stageIndex) by \(delta) went unnoticed\nstages: \(stages)\nold: \(random.old)\nnew: \(random.new)"
                )
                return
            }
        }
    }

    // MARK: - Fixed cases

    @Test("duplicate identifiers are typed errors naming the duplicate")
    func duplicates() {
        let good = snapshot([(1, [10, 11]), (2, [20])])
        let cases: [(Snapshot, Snapshot, SectionedDiffError)] = [
            (snapshot([(1, [10]), (1, [11])]), good, .duplicateSectionID("1", in: .old, first: 0, second: 1)),
            (good, snapshot([(1, [10]), (2, []), (2, [11])]), .duplicateSectionID("2", in: .new, first: 1, second: 2)),
            (good, snapshot([(3, []), (3, [])]), .duplicateSectionID("3", in: .new, first: 0, second: 1)),
            (
                snapshot([(1, [10, 10])]), good,
                .duplicateItemID("10", in: .old, first: RowPath(section: 0, row: 0), second: RowPath(section: 0, row: 1))
            ),
            (
                snapshot([(1, [10]), (2, [7, 10])]), good,
                .duplicateItemID("10", in: .old, first: RowPath(section: 0, row: 0), second: RowPath(section: 1, row: 1))
            ),
            (
                good, snapshot([(1, [10, 11]), (2, [20, 11])]),
                .duplicateItemID("11", in: .new, first: RowPath(section: 0, row: 1), second: RowPath(section: 1, row: 1))
            ),
            (
                good, snapshot([(1, [99]), (2, [99])]),
                .duplicateItemID("99", in: .new, first: RowPath(section: 0, row: 0), second: RowPath(section: 1, row: 0))
            ),
        ]
        for (old, new, error) in cases {
            #expect(throws: error) { try SectionedDiff.stages(from: old, to: new, isUpdated: { _ in false }) }
        }
        let strings = [SectionItems(id: "a", items: ["x", "x"])]
        #expect(throws: SectionedDiffError.duplicateItemID(
            "\"x\"", in: .old, first: RowPath(section: 0, row: 0), second: RowPath(section: 0, row: 1))) {
            try SectionedDiff.stages(from: strings, to: [], isUpdated: { _ in false })
        }
        #expect(
            SectionedDiffError.duplicateItemID("\"x\"", in: .new, first: RowPath(section: 0, row: 0), second: RowPath(section: 1, row: 2)).description
                == "item identifier \"x\" appears twice in the new snapshot, at [0, 0] and [1, 2]")
    }

    @Test("empty to non-empty and back")
    func emptyAndNonEmpty() throws {
        let full = snapshot([(1, [10, 11]), (2, []), (3, [30])])
        let up = try SectionedDiff.stages(from: [], to: full, isUpdated: { _ in true })
        #expect(up == [BatchStage(insertedSections: [0, 1, 2])])
        let down = try SectionedDiff.stages(from: full, to: [], isUpdated: { _ in true })
        #expect(down == [BatchStage(deletedSections: [0, 1, 2])])
        #expect(try SectionedDiff.stages(from: full, to: full, isUpdated: { _ in false }).isEmpty)
        #expect(try SectionedDiff.stages(from: Snapshot(), to: [], isUpdated: { _ in false }).isEmpty)
        let emptied = snapshot([(1, []), (2, []), (3, [])])
        #expect(try SectionedDiff.stages(from: full, to: emptied, isUpdated: { _ in true })
            == [BatchStage(deletedRows: [RowPath(section: 0, row: 0), RowPath(section: 0, row: 1), RowPath(section: 2, row: 0)])])
        #expect(check(old: emptied, new: full, updated: []) == nil)
    }

    @Test("a single section: inserts, deletes, moves and updates in one stage")
    func singleSection() throws {
        let old = snapshot([(1, [0, 1, 2, 3, 4])])
        let new = snapshot([(1, [4, 0, 2, 9, 3])])
        let stages = try SectionedDiff.stages(from: old, to: new, isUpdated: { $0 == 2 || $0 == 4 })
        #expect(stages == [
            BatchStage(
                deletedRows: [RowPath(section: 0, row: 1)],
                insertedRows: [RowPath(section: 0, row: 3)],
                reloadedRows: [RowPath(section: 0, row: 2)],
                movedRows: [RowMove(from: RowPath(section: 0, row: 4), to: RowPath(section: 0, row: 0))]),
            BatchStage(reloadedRows: [RowPath(section: 0, row: 0)]),
        ])
        #expect(check(old: old, new: new, updated: [2, 4]) == nil)
    }

    @Test("everything moved: reversed sections and rows")
    func everythingMoved() throws {
        let old = snapshot((0..<6).map { s in (s, Array(s * 10..<s * 10 + 5)) })
        let new = snapshot(old.reversed().map { ($0.id, $0.items.reversed()) })
        let stages = try SectionedDiff.stages(from: old, to: new, isUpdated: { _ in true })
        // Rows inside moved sections: reloads of unmoved rows, section moves, row moves, reloads of moved rows.
        #expect(stages.count == 4)
        #expect(stages[0].reloadedRows.count == 6 && stages[3].reloadedRows.count == 24)
        #expect(stages.reduce(0) { $0 + $1.movedSections.count } == 5)
        #expect(stages.reduce(0) { $0 + $1.movedRows.count } == 6 * 4)
        #expect(check(old: old, new: new, updated: Set(0..<60)) == nil)

        // Every row to another section, sections in place: one stage of moves, then reloads.
        let shifted = snapshot(old.map { ($0.id, old[($0.id + 1) % 6].items) })
        let moved = try SectionedDiff.stages(from: old, to: shifted, isUpdated: { _ in false })
        #expect(moved.count == 1 && moved[0].movedRows.count == 30)
        #expect(check(old: old, new: shifted, updated: [3, 17]) == nil)
    }

    @Test("staging: deletes inside a moving section go first; rows between deleted and kept sections")
    func staging() throws {
        let old = snapshot([(1, [10, 11]), (2, [20, 21]), (3, [30])])
        // Sections 1 and 2 swap (the longest increasing subsequence keeps 2, so 1 moves) while 2 loses
        // a row and 11 in section 1 is updated; 30 goes to an inserted section (deleted and inserted,
        // not reloaded). The reload lies in a moving section, so deletes and reloads come first.
        let new = snapshot([(2, [21]), (1, [10, 11]), (4, [30, 40])])
        let stages = try SectionedDiff.stages(from: old, to: new, isUpdated: { $0 == 11 || $0 == 30 })
        #expect(stages == [
            BatchStage(
                deletedSections: [2], deletedRows: [RowPath(section: 1, row: 0)],
                reloadedRows: [RowPath(section: 0, row: 1)]),
            BatchStage(insertedSections: [2], movedSections: [SectionMove(from: 0, to: 1)]),
        ])
        #expect(check(old: old, new: new, updated: [11, 30]) == nil)
        // Moving a section and moving a row into it: row moves get their own stage.
        let new2 = snapshot([(3, [30, 11]), (1, [10]), (2, [20, 21])])
        let stages2 = try SectionedDiff.stages(from: old, to: new2, isUpdated: { _ in false })
        #expect(stages2 == [
            BatchStage(movedSections: [SectionMove(from: 2, to: 0)]),
            BatchStage(movedRows: [RowMove(from: RowPath(section: 1, row: 1), to: RowPath(section: 0, row: 1))]),
        ])
    }
}
