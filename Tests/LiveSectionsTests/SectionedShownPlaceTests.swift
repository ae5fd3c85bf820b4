// SectionedShownPlaceTests.swift — where a model is shown when its content
// changes in place (a class model), when a change is made from inside
// another observer's handler, and when sections are made inside a batch.
import LiveCollection
import LiveModel
import LiveSections
import LiveTestSupport
import Testing

/// A model that is a class: the collection updates it in place.
final class Badge: LiveModelProtocol {
    let identifier: Key
    var score: Double
    var group: Int
    init(identifier: Key, score: Double, group: Int) {
        self.identifier = identifier
        self.score = score
        self.group = group
    }
    convenience init(identifier: Key, dictionary: JSONValue) throws {
        self.init(identifier: identifier, score: 0, group: 0)
        try update(with: dictionary)
    }
    var dictionary: JSONValue { ["score": .number(score), "group": .number(Double(group))] }
    func update(with dictionary: JSONValue) throws {
        score = dictionary["score"]?.numberValue ?? 0
        group = Int(dictionary["group"]?.numberValue ?? 0)
    }
}

/// Calls `body` with every single change of a collection, once registered.
@MainActor
final class ChangeHook<Model: LiveModelProtocol>: SortedCollectionObserver {
    let body: (SequentialChange<Model>) -> Void
    init(_ body: @escaping (SequentialChange<Model>) -> Void) { self.body = body }
    func collection(_ c: SortedCollection<Model>, didChange change: SequentialChange<Model>) { body(change) }
}

/// Calls `body` with every grouped change of a collection, once registered.
@MainActor
final class GroupHook<Model: LiveModelProtocol>: SortedCollectionObserver {
    let body: (CollectionUpdate<Model>) -> Void
    init(_ body: @escaping (CollectionUpdate<Model>) -> Void) { self.body = body }
    func collection(_ c: SortedCollection<Model>, didApply update: CollectionUpdate<Model>) { body(update) }
}

@MainActor
@Suite("SectionedCollection: where models are shown")
struct SectionedShownPlaceTests {
    /// The sections a brute-force grouping of `collection` gives.
    func grouping(_ collection: SortedCollection<Badge>) -> [[Key]] {
        var groups: [Int: [Key]] = [:]
        for m in collection.models { groups[m.group, default: []].append(m.identifier) }
        return groups.keys.sorted().map { groups[$0]! }
    }

    /// Checks the sections against the grouping, and every path.
    func check(_ sectioned: SectionedCollection<Badge, Int>, _ collection: SortedCollection<Badge>,
               staged: [[Key]], _ context: String) -> Bool {
        let expected = grouping(collection)
        guard sectioned.snapshot().map(\.items) == expected else {
            Issue.record("\(context): sections \(sectioned.snapshot().map(\.items)) differ from \(expected)")
            return false
        }
        guard staged == expected else {
            Issue.record("\(context): the stages' mirror \(staged) differs from \(expected)")
            return false
        }
        for (s, keys) in expected.enumerated() {
            for (row, key) in keys.enumerated() where sectioned.path(of: key) != RowPath(section: s, row: row) {
                Issue.record("\(context): path(of: \(key)) is \(String(describing: sectioned.path(of: key)))")
                return false
            }
        }
        return true
    }

    @Test("class models updated in place, changes made from another observer's handler (of the same key or another), sections made inside a batch, paths asked from handlers")
    func randomInPlace() throws {
        let seed = testSeed("SectionedShownPlaceTests.randomInPlace")
        var r = Rng(seed: seed)
        var r2 = Rng(seed: seed ^ 0x5eed)
        let keys = (0..<30).map { Key($0) }
        for round in 0..<TestScale.count(25) {
            let collection = SortedCollection<Badge>(order: .child("score"))
            // Registered before the sections: it is told first, and now and
            // then changes a key (the one being told, or another) from inside
            // its handler, so that the sections hear the nested change first.
            var nesting = false
            var pending: [(Key, Int, Int)] = []
            let hook = ChangeHook<Badge> { change in
                guard !nesting, let (other, score, group) = pending.popLast() else { return }
                var key = other
                if r2.below(3) == 0 {
                    switch change {
                    case .inserted(let m, _), .removed(let m, _), .updated(let m, _), .moved(let m, _, _): key = m.identifier
                    }
                }
                nesting = true
                defer { nesting = false }
                if score < 0 { collection.remove(key) } else {
                    try? collection.add(Badge(identifier: key, score: Double(score), group: group))
                }
            }
            let hookToken = collection.addObserver(hook)
            defer { hookToken.cancel() }
            var sectioned: SectionedCollection<Badge, Int>?
            var handlerProblem: String?
            var staged: [[Key]] = []
            var stageToken: ObservationToken?
            func makeSections() {
                let s = SectionedCollection(collection) { $0.group }
                staged = s.snapshot().map(\.items)
                stageToken = s.observeStages { stages in
                    let final = s.snapshot()
                    for stage in stages {
                        staged = (try? BatchUpdateChecker.apply(stage, to: staged,
                                                                inserting: { final[$0.section].items[$0.row] },
                                                                insertingSection: { final[$0].items })) ?? [["rejected"]]
                    }
                    // Asked from a handler, every path is the row shown now.
                    for (section, keys) in final.enumerated() {
                        for (row, key) in keys.items.enumerated() where s.path(of: key) != RowPath(section: section, row: row) {
                            handlerProblem = "from a stage handler, path(of: \(key)) is \(String(describing: s.path(of: key)))"
                        }
                    }
                }
                sectioned = s
            }
            if (r.below(100) < 50) { makeSections() }
            for step in 0..<60 {
                let key = keys[r.below(keys.count)]
                if (r.below(100) < 15) { pending.append((keys[r.below(keys.count)], (r.below(100) < 30) ? -1 : r.below(8), r.below(4))) }
                switch r.below(10) {
                case 0..<4:
                    // In place: the collection's own object changes.
                    try collection.update(key, with: ["score": .number(Double(r.below(8))), "group": .number(Double(r.below(4)))])
                case 4..<6: try collection.add(Badge(identifier: key, score: Double(r.below(8)), group: r.below(4)))
                case 6..<8: collection.remove(key)
                default:
                    try collection.performBatch {
                        for i in 0..<r.below(5) {
                            let k = keys[r.below(keys.count)]
                            if sectioned == nil && i == 1 { makeSections() }
                            switch r.below(3) {
                            case 0: try collection.update(k, with: ["score": .number(Double(r.below(8))), "group": .number(Double(r.below(4)))])
                            case 1: try collection.add(Badge(identifier: k, score: Double(r.below(8)), group: r.below(4)))
                            default: collection.remove(k)
                            }
                        }
                    }
                }
                if sectioned == nil { makeSections() }
                if let handlerProblem {
                    Issue.record("seed \(seed) round \(round) step \(step): \(handlerProblem)")
                    return
                }
                guard check(sectioned!, collection, staged: staged, "seed \(seed) round \(round) step \(step)") else { return }
            }
            stageToken?.cancel()
        }
    }

    @Test("a change made while a fill is told, by an observer told first, is shown with every filled row")
    func changeDuringFill() throws {
        let collection = SortedCollection<Badge>(order: .child("score"))
        var changed = false
        let hook = GroupHook<Badge> { _ in
            guard !changed else { return }
            changed = true
            try? collection.add(Badge(identifier: "late", score: 2.5, group: 7))
        }
        let hookToken = collection.addObserver(hook)
        let sectioned = SectionedCollection(collection) { $0.group }
        var staged: [[Key]] = []
        let stageToken = sectioned.observeStages { stages in
            let final = sectioned.snapshot()
            for stage in stages {
                staged = (try? BatchUpdateChecker.apply(stage, to: staged, inserting: { final[$0.section].items[$0.row] },
                                                        insertingSection: { final[$0].items })) ?? [["rejected"]]
            }
        }
        defer { hookToken.cancel(); stageToken.cancel() }
        let json = "{" + (0..<40).map { #""c\#($0)": {"score": \#($0 % 9), "group": \#($0 % 4)}"# }.joined(separator: ",") + "}"
        let children = try Snapshot.parse(json: json, order: .child("score")).orderedChildren()
        let prepared = PreparedFill<Badge>(children, order: .child("score")) {
            .model(try Badge(identifier: $0.key!, dictionary: $0.value))
        }
        #expect(collection.fill(prepared) && changed)
        #expect(collection.count == 41)
        #expect(sectioned.snapshot().map(\.items) == grouping(collection))
        #expect(staged == grouping(collection))
    }
}
