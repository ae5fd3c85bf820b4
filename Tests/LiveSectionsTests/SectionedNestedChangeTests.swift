// SectionedNestedChangeTests.swift — changes of the collection made from
// inside the sections' own observers (stage, step and sequential handlers):
// held until the change being told is told to every observer, then told as
// the next change, so that every observer's view stays valid.
import Foundation
import LiveCollection
import LiveModel
import LiveSections
import LiveTestSupport
import Testing

@MainActor
@Suite("SectionedCollection changes made from its observers' handlers")
struct SectionedNestedChangeTests {
    /// The sections a brute-force grouping of `collection` gives.
    static func grouping(_ collection: SortedCollection<Note>) -> [[Key]] {
        var groups: [Int: [Key]] = [:]
        for m in collection.models { groups[m.group, default: []].append(m.identifier) }
        return groups.keys.sorted().map { groups[$0]! }
    }

    /// A fill of `members` (key, score, group), prepared as a first load is.
    static func prepared(_ members: [(key: Key, score: Int, group: Int)]) throws -> PreparedFill<Note> {
        let json = "{" + members.map { #""\#($0.key.string)": {"identifier": "\#($0.key.string)", "score": \#($0.score), "group": \#($0.group), "label": 0}"# }
            .joined(separator: ",") + "}"
        let children = try Snapshot.parse(json: json, order: .child("score")).orderedChildren()
        return PreparedFill<Note>(children, order: .child("score")) { .model(try Note(identifier: $0.key!, dictionary: $0.value)) }
    }

    /// A change to make: drawn first, made after, so that observers told
    /// while it is made may draw their own.
    enum Change {
        case add(Note)
        case remove(Key)
        /// Removes every model of the key's section.
        case removeSectionOf(Key)
        /// Removes everything, then fills the collection again.
        case refill([(key: Key, score: Int, group: Int)])
        case batch([Change])
    }

    /// A random change: a single one, a batch of a few (inserting, moving,
    /// changing section, removing, emptying sections), or everything
    /// removed and the collection filled again.
    static func draw(_ r: inout Rng, keys: [Key]) -> Change {
        if r.below(12) == 0 {
            return .refill(keys.filter { _ in r.below(2) == 0 }.map { (key: $0, score: r.below(10), group: r.below(4)) })
        }
        func one(_ r: inout Rng) -> Change {
            let key = keys[r.below(keys.count)]
            switch r.below(4) {
            case 0: return .remove(key)
            case 1: return .removeSectionOf(key)
            default: return .add(Note(identifier: key, score: Double(r.below(10)), group: r.below(4), label: r.below(3)))
            }
        }
        if r.below(3) == 0 { return one(&r) }
        return .batch((0..<(1 + r.below(5))).map { _ in one(&r) })
    }

    /// Makes `change`.
    static func make(_ change: Change, in collection: SortedCollection<Note>) throws {
        switch change {
        case .add(let note): try collection.add(note)
        case .remove(let key): collection.remove(key)
        case .removeSectionOf(let key):
            guard let group = collection.model(for: key)?.group else { return }
            collection.performBatch {
                for m in collection.models where m.group == group { collection.remove(m.identifier) }
            }
        case .refill(let members):
            collection.removeAll()
            _ = collection.fill(try prepared(members))
        case .batch(let changes):
            try collection.performBatch { for change in changes { try make(change, in: collection) } }
        }
    }

    /// Draws a random change and makes it.
    static func change(_ collection: SortedCollection<Note>, _ r: inout Rng, keys: [Key]) throws {
        try make(draw(&r, keys: keys), in: collection)
    }

    @Test("seeded: stage, step and sequential handlers change the collection; every observer's view follows it, nothing traps")
    func randomNested() throws {
        let seed = testSeed("SectionedNestedChangeTests.randomNested")
        var r = Rng(seed: seed)
        var nested = Rng(seed: seed ^ 0x4e57)
        let keys = (0..<16).map { Key($0) }
        for round in 0..<TestScale.count(40) {
            let context = "seed \(seed) round \(round)"
            let collection = SortedCollection<Note>(order: .child("score"))
            var problems: [String] = []
            /// Changes handlers still may make in this round.
            var budget = 0
            func nestedChange() {
                guard budget > 0, nested.below(3) == 0 else { return }
                budget -= 1
                let change = Self.draw(&nested, keys: keys)
                do { try Self.make(change, in: collection) } catch { problems.append("\(error)") }
            }
            // Observers of the collection itself, registered before the
            // sections and so told first, change it too.
            // (The collection holds its observers weakly.)
            let changeHook = ChangeHook<Note> { _ in nestedChange() }, groupHook = GroupHook<Note> { _ in nestedChange() }
            let hooks = [collection.addObserver(changeHook), collection.addObserver(groupHook)]
            defer { hooks.forEach { $0.cancel() }; _ = (changeHook, groupHook) }
            let sectioned = SectionedCollection(collection) { $0.group }

            // A list view told stages: applies them to its own rows.
            var staged: [[Key]] = []
            let t1 = sectioned.observeStages { stages in
                let final = sectioned.snapshot()
                for stage in stages {
                    do {
                        staged = try BatchUpdateChecker.apply(stage, to: staged, inserting: { final[$0.section].items[$0.row] },
                                                              insertingSection: { final[$0].items })
                    } catch { problems.append("stages: \(error)") }
                }
                nestedChange()
            }
            // A list view told steps: reads every row shown before each
            // commit (rows a change removed included), then checks the state
            // after it.
            var stepped: [[Key]] = []
            let t2 = sectioned.observeSteps { steps in
                // Now and then a change before the steps are committed: what
                // is shown moves on to the change being told first.
                if nested.below(4) == 0 { nestedChange() }
                for step in steps {
                    for s in 0..<sectioned.numberOfSections {
                        for row in 0..<sectioned.numberOfRows(inSection: s) {
                            _ = sectioned[RowPath(section: s, row: row)]
                        }
                    }
                    step.commit()
                    let shown = (0..<sectioned.numberOfSections).map { s in
                        (0..<sectioned.numberOfRows(inSection: s)).map { sectioned[RowPath(section: s, row: $0)].identifier }
                    }
                    do {
                        stepped = try BatchUpdateChecker.apply(step.stage, to: stepped,
                                                               inserting: { shown[$0.section][$0.row] },
                                                               insertingSection: { shown[$0] })
                    } catch { problems.append("steps: \(error)") }
                    if stepped != shown { problems.append("steps: \(stepped) after a commit, \(shown) shown") }
                }
                nestedChange()
            }
            // A sequential observer: replays the events.
            var replayed: [[Key]] = []
            let t3 = sectioned.observe { change in
                switch change {
                case .sectionInserted(_, let at, let models): replayed.insert(models.map(\.identifier), at: at)
                case .sectionRemoved(_, let at): replayed.remove(at: at)
                case .rowInserted(let m, let p): replayed[p.section].insert(m.identifier, at: p.row)
                case .rowRemoved(let m, let p):
                    if replayed[p.section].remove(at: p.row) != m.identifier { problems.append("events: removal of another row") }
                case .rowUpdated(let m, let p):
                    if replayed[p.section][p.row] != m.identifier { problems.append("events: update of another row") }
                case .rowMoved(let m, let from, let to):
                    replayed[from.section].remove(at: from.row)
                    replayed[to.section].insert(m.identifier, at: to.row)
                }
                nestedChange()
            }
            defer { t1.cancel(); t2.cancel(); t3.cancel() }
            for step in 0..<30 {
                budget = 3
                try Self.change(collection, &r, keys: keys)
                let expected = Self.grouping(collection)
                let where_ = "\(context) step \(step)"
                guard problems.isEmpty else { Issue.record("\(where_): \(problems)"); return }
                guard sectioned.snapshot().map(\.items) == expected else {
                    Issue.record("\(where_): sections \(sectioned.snapshot().map(\.items)), grouping \(expected)"); return
                }
                guard staged == expected, stepped == expected, replayed == expected else {
                    Issue.record("\(where_): stages \(staged), steps \(stepped), events \(replayed), grouping \(expected)")
                    return
                }
            }
        }
    }

    /// The keys of every row shown, read through the subscript.
    static func shownKeys(_ sectioned: SectionedCollection<Note, Int>) -> [[Key]] {
        (0..<sectioned.numberOfSections).map { s in
            (0..<sectioned.numberOfRows(inSection: s)).map { sectioned[RowPath(section: s, row: $0)].identifier }
        }
    }

    @Test("a stage handler empties and refills the collection; steps read every row shown before their commit, then change it again")
    func refillFromAHandler() throws {
        let collection = SortedCollection<Note>(order: .child("score"))
        try collection.add(Note(identifier: "a", score: 1, group: 0, label: 0))
        try collection.add(Note(identifier: "b", score: 2, group: 1, label: 0))
        let sectioned = SectionedCollection(collection) { $0.group }
        var refilled = false, addedBefore = false, addedAfter = false
        var shownBeforeCommits: [[[Key]]] = []
        let t1 = sectioned.observeStages { _ in
            guard !refilled else { return }
            refilled = true
            collection.removeAll()
            #expect(collection.fill(try! Self.prepared([(key: "c", score: 3, group: 2)])))
        }
        let t2 = sectioned.observeSteps { steps in
            for step in steps {
                shownBeforeCommits.append(Self.shownKeys(sectioned))
                step.commit()
            }
            if refilled && !addedAfter {
                addedAfter = true
                try? collection.add(Note(identifier: "k", score: 4, group: 2, label: 0))
            }
        }
        defer { t1.cancel(); t2.cancel() }
        try collection.add(Note(identifier: "d", score: 0, group: 0, label: 0))
        #expect(sectioned.snapshot().map(\.items) == [["c", "k"]] && Self.grouping(collection) == [["c", "k"]])
        // The refill's step was handed out with the rows it replaces still shown.
        #expect(shownBeforeCommits.contains([["d", "a"], ["b"]]))
        _ = addedBefore
    }

    @Test("a step handler changes the collection before committing a grouped change, and a replacement")
    func changeBeforeCommit() throws {
        let collection = SortedCollection<Note>(order: .child("score"))
        for (i, group) in [0, 0, 1, 2].enumerated() {
            try collection.add(Note(identifier: Key(i), score: Double(i), group: group, label: 0))
        }
        let sectioned = SectionedCollection(collection) { $0.group }
        var staged = sectioned.snapshot().map(\.items)
        let t1 = sectioned.observeStages { stages in
            let final = sectioned.snapshot()
            for stage in stages {
                staged = (try? BatchUpdateChecker.apply(stage, to: staged, inserting: { final[$0.section].items[$0.row] },
                                                        insertingSection: { final[$0].items })) ?? [["rejected"]]
            }
        }
        var extra = 10
        let t2 = sectioned.observeSteps { steps in
            if extra < 13 {
                try? collection.add(Note(identifier: Key(extra), score: Double(extra), group: extra % 4, label: 0))
                extra += 1
            }
            for step in steps { step.commit() }
        }
        defer { t1.cancel(); t2.cancel() }
        try collection.performBatch {
            collection.remove(Key(2))
            try collection.add(Note(identifier: "x", score: 0.5, group: 5, label: 0))
        }
        #expect(sectioned.snapshot().map(\.items) == Self.grouping(collection))
        #expect(staged == Self.grouping(collection))
        collection.removeAll()
        #expect(collection.fill(try Self.prepared([(key: "p", score: 1, group: 1), (key: "q", score: 2, group: 3)])))
        #expect(sectioned.snapshot().map(\.items) == Self.grouping(collection))
        #expect(staged == Self.grouping(collection))
    }

    /// A collection holding `x` (section 0, label 7) and `y` (section 0),
    /// with an observer of its own, added before any sections (so told
    /// first), that runs `reaction` in a batch when told of the first
    /// removal. Keep the hook and the token as long as the collection.
    static func reacting(with reaction: @escaping (SortedCollection<Note>) throws -> Void) throws
        -> (collection: SortedCollection<Note>, hook: ChangeHook<Note>, token: ObservationToken) {
        let collection = SortedCollection<Note>(order: .child("score"))
        try collection.add(Note(identifier: "x", score: 1, group: 0, label: 7))
        try collection.add(Note(identifier: "y", score: 2, group: 0, label: 0))
        var reacted = false
        let hook = ChangeHook<Note> { change in
            guard !reacted, case .removed = change else { return }
            reacted = true
            try? collection.performBatch { try reaction(collection) }
        }
        return (collection, hook, collection.addObserver(hook))
    }

    @Test("a key whose change an earlier observer of the collection undoes in a batch that changes nothing")
    func unchangedBatchBeforeTheSections() throws {
        // Adds and removes x again: a batch that changes nothing.
        var reacted = false
        let (collection, hook, token) = try Self.reacting { collection in
            reacted = true
            try collection.add(Note(identifier: "x", score: 3, group: 1, label: 0))
            collection.remove("x")
        }
        let sectioned = SectionedCollection(collection) { $0.group }
        defer { token.cancel(); _ = hook }
        collection.remove("x")
        #expect(reacted)
        #expect(sectioned.snapshot().map(\.items) == [["y"]])
        #expect(Self.shownKeys(sectioned) == [["y"]])
    }

    @Test("a key removed and, before the sections hear it, added and removed again in a batch by an earlier observer of the collection")
    func batchBeforeTheSections() throws {
        let (collection, hook, token) = try Self.reacting { collection in
            try collection.add(Note(identifier: "x", score: 3, group: 1, label: 0))
            collection.remove("x")
            try collection.add(Note(identifier: "z", score: 4, group: 1, label: 0))
        }
        let sectioned = SectionedCollection(collection) { $0.group }
        var removed: [Note] = []
        var shownBeforeCommit: [[Key]] = []
        let t1 = sectioned.observe { if case .rowRemoved(let m, _) = $0 { removed.append(m) } }
        let t2 = sectioned.observeSteps { steps in
            shownBeforeCommit = Self.shownKeys(sectioned).flatMap { [$0] }
            for step in steps { step.commit() }
        }
        defer { token.cancel(); t1.cancel(); t2.cancel(); _ = hook }
        collection.remove("x")
        #expect(sectioned.snapshot().map(\.items) == [["y"], ["z"]])
        #expect(removed.map(\.identifier) == ["x"] && removed.first?.label == 7, "the row leaves with the model it was shown with")
        #expect(shownBeforeCommit == [["x", "y"]])
    }

    @Test("sections made in the middle of a batch follow the rest of it, whether or not it changes anything in the end")
    func madeInsideABatch() throws {
        let collection = SortedCollection<Note>(order: .child("score"))
        try collection.add(Note(identifier: "x", score: 1, group: 0, label: 0))
        var sectioned: SectionedCollection<Note, Int>?
        // Adds y, then (after the sections are made, showing y) removes it:
        // a batch that, in the end, changes nothing.
        try collection.performBatch {
            try collection.add(Note(identifier: "y", score: 2, group: 1, label: 0))
            sectioned = SectionedCollection(collection) { $0.group }
            #expect(sectioned?.snapshot().map(\.items) == [["x"], ["y"]])
            collection.remove("y")
        }
        #expect(sectioned?.snapshot().map(\.items) == [["x"]])
        // Adds z, then moves it and x to other sections after the sections
        // are made.
        try collection.performBatch {
            try collection.add(Note(identifier: "z", score: 3, group: 1, label: 0))
            sectioned = SectionedCollection(collection) { $0.group }
            try collection.add(Note(identifier: "z", score: 3, group: 2, label: 0))
            try collection.add(Note(identifier: "x", score: 1, group: 2, label: 0))
        }
        #expect(sectioned?.snapshot().map(\.items) == Self.grouping(collection))
        #expect(sectioned.map(Self.shownKeys) == [["x", "z"]])
    }

    @Test("a handler that empties a section the change inserted, and removes a key it inserted")
    func undoesTheChangeItIsToldOf() throws {
        let collection = SortedCollection<Note>(order: .child("score"))
        try collection.add(Note(identifier: "a", score: 1, group: 0, label: 0))
        let sectioned = SectionedCollection(collection) { $0.group }
        var told: [[BatchStage]] = []
        var events: [String] = []
        var reacted = false
        let t1 = sectioned.observeStages { stages in
            told.append(stages)
            guard !reacted else { return }
            reacted = true
            collection.remove("b")
            collection.remove("c")
        }
        let t2 = sectioned.observe { change in
            switch change {
            case .sectionInserted(let s, _, let models): events.append("+section \(s) \(models.map(\.identifier.string))")
            case .sectionRemoved(let s, _): events.append("-section \(s)")
            case .rowInserted(let m, _): events.append("+\(m.identifier.string)")
            case .rowRemoved(let m, _): events.append("-\(m.identifier.string)")
            case .rowUpdated(let m, _): events.append("~\(m.identifier.string)")
            case .rowMoved(let m, _, _): events.append(">\(m.identifier.string)")
            }
        }
        defer { t1.cancel(); t2.cancel() }
        try collection.performBatch {
            try collection.add(Note(identifier: "b", score: 2, group: 1, label: 0))
            try collection.add(Note(identifier: "c", score: 3, group: 0, label: 0))
        }
        // The batch is told whole to every observer, then the handler's removals.
        #expect(told.count == 2)
        #expect(events == ["+c", "+section 1 [\"b\"]", "-section 1", "-c"])
        #expect(sectioned.snapshot().map(\.items) == [["a"]])
    }
}
