// SectionedCollectionTests.swift — a sectioned collection driven by random
// changes: its sequential events and its stages (through the checker) must
// both reproduce it, and it must equal a brute-force grouping, after every step.
import Foundation
import LiveCollection
import LiveModel
import LiveSections
import LiveTestSupport
import Testing

struct Tile: LiveModelProtocol, Codable, Equatable {
    var identifier: Key
    var score: Double
    var group: Int
}

@MainActor
@Suite("SectionedCollection")
struct SectionedCollectionTests {
    @Test("30,000 random changes: sequential events, stages and a brute-force grouping agree after every step",
          arguments: [(false, false), (true, false), (false, true)])
    func randomChanges(descending: Bool, swiftOrder: Bool) throws {
        let seed = testSeed("randomChanges(descending: \(descending), swiftOrder: \(swiftOrder))",
                            default: 20_261_121 &+ (descending ? 1 : 0) &+ (swiftOrder ? 2 : 0))
        var r = Rng(seed: seed)
        // Firebase order by score, or the same order from a Swift sort key.
        let collection = swiftOrder ? SortedCollection<Tile>(sortedBy: { $0.score })
                                    : SortedCollection<Tile>(order: .child("score"))
        // Observers of the collection itself, told before and after the
        // sections (whichever runs first): a changed key's path is its row
        // as shown at that moment, nil when it is not shown.
        var windowProblem: String?
        let probe = { (sectioned: SectionedCollection<Tile, Int>, key: Key) in
            var shownAt: RowPath?
            for (s, section) in sectioned.snapshot().enumerated() {
                if let row = section.items.firstIndex(of: key) { shownAt = RowPath(section: s, row: row) }
            }
            let path = sectioned.path(of: key)
            if path != shownAt { windowProblem = "path(of: \(key)) is \(String(describing: path)), shown at \(String(describing: shownAt))" }
        }
        var sectionedRef: SectionedCollection<Tile, Int>?
        let before = ChangeProbe { key in sectionedRef.map { probe($0, key) } }
        let beforeToken = collection.addObserver(before)
        let sectioned = SectionedCollection(collection, descending: descending) { $0.group }
        sectionedRef = sectioned
        let after = ChangeProbe { key in probe(sectioned, key) }
        let afterToken = collection.addObserver(after)
        defer { beforeToken.cancel(); afterToken.cancel() }
        var sequential: [(Int, [Key])] = []
        var staged: [[Key]] = []
        var problem: String?
        let t1 = sectioned.observe { change in
            switch change {
            case .sectionInserted(let s, let at, let models):
                if models.isEmpty { problem = "an empty section inserted" }
                sequential.insert((s, models.map(\.identifier)), at: at)
            case .sectionRemoved(_, let at): sequential.remove(at: at)
            case .rowInserted(let m, let p): sequential[p.section].1.insert(m.identifier, at: p.row)
            case .rowRemoved(let m, let p):
                if sequential[p.section].1.remove(at: p.row) != m.identifier { problem = "removal of the wrong row \(p)" }
                if sequential[p.section].1.isEmpty { problem = "a section left empty" }
            case .rowUpdated(let m, let p):
                if sequential[p.section].1[p.row] != m.identifier { problem = "update at the wrong row \(p)" }
            case .rowMoved(let m, let from, let to):
                sequential[from.section].1.remove(at: from.row)
                sequential[to.section].1.insert(m.identifier, at: to.row)
            }
        }
        let t2 = sectioned.observeStages { stages in
            let final = sectioned.snapshot()
            for stage in stages {
                do {
                    staged = try BatchUpdateChecker.apply(stage, to: staged, inserting: { final[$0.section].items[$0.row] },
                                                          insertingSection: { final[$0].items })
                } catch {
                    problem = "stage rejected: \(error)"
                }
            }
        }
        defer { t1.cancel(); t2.cancel() }
        let keys = (0..<40).map { Key($0) }
        for step in 0..<TestScale.count(30_000) {
            let key = keys[r.below(keys.count)]
            switch r.below(10) {
            case 0..<5: try collection.add(Tile(identifier: key, score: Double(r.below(10)), group: r.below(6)))
            case 5..<8: collection.remove(key)
            default:
                let n = r.below(6)
                var ops: [(Key, Int, Int, Bool)] = []
                for _ in 0..<n { ops.append((keys[r.below(keys.count)], r.below(10), r.below(6), r.below(3) > 0)) }
                try collection.performBatch {
                    for (k, score, group, add) in ops {
                        if add { try collection.add(Tile(identifier: k, score: Double(score), group: group)) } else { collection.remove(k) }
                    }
                }
            }
            // Brute force: group the collection's models.
            var groups: [Int: [Key]] = [:]
            for m in collection.models { groups[m.group, default: []].append(m.identifier) }
            let ids = groups.keys.sorted(by: descending ? (>) : (<))
            let expected = ids.map { SectionItems(id: $0, items: groups[$0]!) }
            let context = "seed \(seed) step \(step)"
            guard problem == nil else { Issue.record("\(context): \(problem!)"); return }
            guard windowProblem == nil else { Issue.record("\(context): \(windowProblem!)"); return }
            guard sectioned.snapshot() == expected else { Issue.record("\(context): sections differ from the grouping"); return }
            guard sequential.map(\.0) == ids, sequential.map(\.1) == expected.map(\.items) else {
                Issue.record("\(context): the sequential mirror differs"); return
            }
            guard staged == expected.map(\.items) else { Issue.record("\(context): the stage mirror differs"); return }
            if let (s, section) = expected.enumerated().randomElement(), let row = section.items.indices.randomElement() {
                guard sectioned.path(of: section.items[row]) == RowPath(section: s, row: row),
                      sectioned[RowPath(section: s, row: row)].identifier == section.items[row] else {
                    Issue.record("\(context): path lookup"); return
                }
            }
        }
    }

    @Test("sections follow their order; empty sections disappear; rows keep the collection's order")
    func basics() throws {
        let collection = SortedCollection<Tile>(order: .child("score"))
        try collection.add(Tile(identifier: "a", score: 3, group: 2))
        try collection.add(Tile(identifier: "b", score: 1, group: 2))
        try collection.add(Tile(identifier: "c", score: 2, group: 1))
        let sectioned = SectionedCollection(collection) { $0.group }
        #expect(sectioned.numberOfSections == 2 && sectioned.section(at: 0) == 1)
        #expect(sectioned.snapshot().map(\.items) == [["c"], ["b", "a"]])
        collection.remove("c")
        #expect(sectioned.numberOfSections == 1 && sectioned.numberOfRows(inSection: 0) == 2)
        try collection.add(Tile(identifier: "b", score: 5, group: 2))
        #expect(sectioned.snapshot().map(\.items) == [["a", "b"]] && sectioned.path(of: "b") == RowPath(section: 0, row: 1))
    }
}

@MainActor
@Suite("SectionedCollection orders and titles")
struct SectionedCollectionOrderTests {
    struct Team: Hashable { let name: String; let rank: Int }

    @Test("sections ordered by a comparator over a related object, with titles")
    func comparatorAndTitles() throws {
        let collection = SortedCollection<Tile>(order: .child("score"))
        let teams = [0: Team(name: "Zebras", rank: 1), 1: Team(name: "Ants", rank: 2), 2: Team(name: "Bees", rank: 0)]
        let sectioned = SectionedCollection(collection, sectionsOrderedBy: { $0.rank < $1.rank },
                                            title: { $0.name }, sectionedBy: { teams[$0.group]! })
        for (i, g) in [0, 1, 2, 1, 0].enumerated() { try collection.add(Tile(identifier: Key(i), score: Double(i), group: g)) }
        #expect((0..<sectioned.numberOfSections).map { sectioned.title(ofSection: $0) } == ["Bees", "Zebras", "Ants"])
        #expect(sectioned.snapshot().map(\.items) == [[Key(2)], [Key(0), Key(4)], [Key(1), Key(3)]])
        let numbered = SectionedCollection(collection, descending: true) { $0.group }
        #expect(numbered.title(ofSection: 0) == "2" && numbered.section(at: 2) == 0)
    }
}

@MainActor
@Suite("SectionedCollection behind a list view")
struct SectionedCollectionListTests {
    @Test("every batch a list view gets passes UIKit's rules, counts included, single and grouped changes alike")
    func throughConnector() throws {
        let collection = SortedCollection<Tile>(order: .child("score"))
        let sectioned = SectionedCollection(collection) { $0.group }
        let target = CheckingListTarget(counts: { sectioned.counts })
        let connector = ListConnector(target: target)
        connector.isReady = true
        let token = sectioned.observeSteps { connector.apply($0) }
        defer { token.cancel() }
        var r = Rng(seed: 7)
        func below(_ n: Int) -> Int { r.below(n) }
        for _ in 0..<5_000 {
            let key = Key(below(40))
            switch below(10) {
            case 0..<5: try collection.add(Tile(identifier: key, score: Double(below(10)), group: below(6)))
            case 5..<8: collection.remove(key)
            default:
                try collection.performBatch {
                    for _ in 0..<below(8) {
                        let k = Key(below(40))
                        if below(3) > 0 { try collection.add(Tile(identifier: k, score: Double(below(10)), group: below(6))) } else { collection.remove(k) }
                    }
                }
            }
        }
        #expect(target.rejected.isEmpty, "\(target.rejected.first.map { "\($0)" } ?? "")")
        #expect(target.shown == sectioned.counts && target.batches > 2_000)
    }
}

/// Calls `check` with the key of every change of a collection, single or grouped.
@MainActor
final class ChangeProbe: SortedCollectionObserver {
    typealias Model = Tile
    let check: (Key) -> Void
    init(_ check: @escaping (Key) -> Void) { self.check = check }
    func collection(_ c: SortedCollection<Tile>, didChange change: SequentialChange<Tile>) {
        switch change {
        case .inserted(let m, _), .removed(let m, _), .updated(let m, _), .moved(let m, _, _): check(m.identifier)
        }
    }
    func collection(_ c: SortedCollection<Tile>, didApply update: CollectionUpdate<Tile>) {
        for m in update.insertedModels + update.movedModels + update.updatedModels { check(m.identifier) }
    }
}
