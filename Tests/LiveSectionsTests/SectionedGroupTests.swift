// SectionedGroupTests.swift — grouped changes applied from their touched keys,
// checked against the full diff of the sections before and after (the
// semantics of SectionedDiff) and replayed in both contracts.
import Foundation
import LiveCollection
import LiveModel
import LiveSections
import LiveTestSupport
import Testing

/// A model whose content can change without its place.
struct Note: LiveModelProtocol, Codable, Equatable {
    var identifier: Key
    var score: Double
    var group: Int
    var label: Int
}

/// What a list of stages does to the keys, step by step from `old`.
private struct StageEffect: Equatable {
    var deleted = Set<Key>(), inserted = Set<Key>(), reloaded = Set<Key>(), moved = Set<Key>()
    var deletedSections = Set<Int>(), insertedSections = Set<Int>()
    var final: [[Key]] = []

    init(_ stages: [BatchStage], old: [SectionItems<Int, Key>], new: [SectionItems<Int, Key>]) throws {
        var state = old.map(\.items)
        let ids = old.map(\.id) // only a first stage deletes sections
        for stage in stages {
            deleted.formUnion(stage.deletedRows.map { state[$0.section][$0.row] })
            reloaded.formUnion(stage.reloadedRows.map { state[$0.section][$0.row] })
            moved.formUnion(stage.movedRows.map { state[$0.from.section][$0.from.row] })
            deletedSections.formUnion(stage.deletedSections.map { ids[$0] })
            state = try BatchUpdateChecker.apply(stage, to: state, inserting: { new[$0.section].items[$0.row] },
                                                 insertingSection: { new[$0].items })
            inserted.formUnion(stage.insertedRows.map { state[$0.section][$0.row] })
            insertedSections.formUnion(stage.insertedSections.map { new[$0].id })
        }
        final = state
    }

    /// The same, without the moves (the two plans may choose other rows to move).
    var withoutMoves: StageEffect { var copy = self; copy.moved = []; return copy }
}

@MainActor
@Suite("SectionedCollection grouped changes")
struct SectionedGroupTests {
    @Test("random grouped changes: the same deletions, insertions and reloads as a full diff; untouched rows never move; both contracts replay",
          arguments: [false, true])
    func againstFullDiff(descending: Bool) throws {
        let seed = testSeed("againstFullDiff(descending: \(descending))", default: 20_261_124 &+ (descending ? 1 : 0))
        var r = Rng(seed: seed)
        let collection = SortedCollection<Note>(order: .child("score"))
        let sectioned = SectionedCollection(collection, descending: descending) { $0.group }
        var mirror: [(id: Int, rows: [Note])] = []
        var problem: String?
        let t1 = sectioned.observe { change in
            switch change {
            case .sectionInserted(let s, let at, let models): mirror.insert((s, models), at: at)
            case .sectionRemoved(_, let at): mirror.remove(at: at)
            case .rowInserted(let m, let p): mirror[p.section].rows.insert(m, at: p.row)
            case .rowRemoved(let m, let p):
                if mirror[p.section].rows.remove(at: p.row) != m { problem = "removal of another row or content at \(p)" }
            case .rowUpdated(let m, let p): mirror[p.section].rows[p.row] = m
            case .rowMoved(let m, let from, let to):
                mirror[from.section].rows.remove(at: from.row)
                mirror[to.section].rows.insert(m, at: to.row)
            }
        }
        var stages: [BatchStage] = []
        let t2 = sectioned.observeStages { stages = $0 }
        defer { t1.cancel(); t2.cancel() }
        let keys = (0..<120).map { Key($0) }
        var grouped = 0
        for step in 0..<TestScale.count(1_500) {
            let context = "seed \(seed) step \(step)"
            let old = sectioned.snapshot()
            let oldModels = Dictionary(uniqueKeysWithValues: collection.models.map { ($0.identifier, $0) })
            var replaced = Set<Key>()
            stages = []
            let size = r.below(8) == 0 ? 1 + r.below(keys.count) : 1 + r.below(12)
            try collection.performBatch {
                for _ in 0..<size {
                    let key = keys[r.below(keys.count)]
                    var note = collection.model(for: key) ?? Note(identifier: key, score: 0, group: 0, label: 0)
                    switch r.below(6) {
                    case 0: collection.remove(key); replaced.remove(key); continue
                    case 1: note.label += 1
                    case 2: note.score = Double(r.below(30))
                    case 3: note.group = r.below(8)
                    default: note = Note(identifier: key, score: Double(r.below(30)), group: r.below(8), label: r.below(3))
                    }
                    try collection.add(note)
                    replaced.insert(key)
                }
            }
            let new = sectioned.snapshot()
            // The sections equal a grouping of the collection.
            var groups: [Int: [Key]] = [:]
            for m in collection.models { groups[m.group, default: []].append(m.identifier) }
            let ids = groups.keys.sorted(by: descending ? (>) : (<))
            guard new == ids.map({ SectionItems(id: $0, items: groups[$0]!) }) else {
                Issue.record("\(context): sections differ from the grouping"); return
            }
            // The old semantics: a full diff of both snapshots.
            let updated = replaced.filter { oldModels[$0] != nil && collection.model(for: $0) != nil }
            let full = try SectionedDiff.stages(from: old, to: new, isUpdated: { updated.contains($0) })
            let ours: StageEffect, theirs: StageEffect
            do {
                ours = try StageEffect(stages, old: old, new: new)
                theirs = try StageEffect(full, old: old, new: new)
            } catch {
                Issue.record("\(context): a stage is rejected: \(error)"); return
            }
            if !stages.isEmpty { grouped += 1 }
            guard ours.final == new.map(\.items) else { Issue.record("\(context): the stages do not reach the new state"); return }
            guard ours.withoutMoves == theirs.withoutMoves else {
                Issue.record("\(context): \(ours.withoutMoves) differs from the full diff's \(theirs.withoutMoves)"); return
            }
            guard ours.moved.isSubset(of: replaced) else { Issue.record("\(context): an untouched row moved"); return }
            guard problem == nil else { Issue.record("\(context): \(problem!)"); return }
            guard mirror.map(\.id) == ids, mirror.map({ $0.rows.map(\.identifier) }) == new.map(\.items),
                  mirror.allSatisfy({ $0.rows.allSatisfy { collection.model(for: $0.identifier) == $0 } }) else {
                Issue.record("\(context): the sequential mirror differs"); return
            }
        }
        #expect(grouped > TestScale.count(1_500) / 2)
    }

    @Test("a list view is shown the old state until the first step of a grouped change commits")
    func stepsShowOldStateFirst() throws {
        let collection = SortedCollection<Note>(order: .child("score"))
        try collection.performBatch {
            for i in 0..<20 { try collection.add(Note(identifier: Key(i), score: Double(i), group: i % 3, label: 0)) }
        }
        let sectioned = SectionedCollection(collection) { $0.group }
        let before = sectioned.counts
        var seen: [[Int]] = []
        let token = sectioned.observeSteps { steps in
            seen.append(sectioned.counts)
            for step in steps {
                step.commit()
                seen.append(sectioned.counts)
            }
        }
        defer { token.cancel() }
        try collection.performBatch {
            collection.remove(Key(0))
            collection.remove(Key(3))
            try collection.add(Note(identifier: Key(1), score: 100, group: 7, label: 1))
            try collection.add(Note(identifier: Key(40), score: 5.5, group: 1, label: 0))
        }
        #expect(seen.first == before)
        #expect(seen.dropFirst().allSatisfy { $0 == sectioned.counts })
        #expect(sectioned.counts != before && sectioned.numberOfSections == 4)
    }
}
