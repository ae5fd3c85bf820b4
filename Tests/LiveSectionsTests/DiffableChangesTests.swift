// DiffableChangesTests.swift — sections as whole snapshots with their
// changed keys (what a diffable data source applies), and which changed
// rows a stage may reconfigure.
import LiveSections
import LiveTestSupport
import Testing

@MainActor
@Suite("DiffableChanges")
struct DiffableChangesTests {
    @Test("seeded random changes: each snapshot equals the sections, and every row whose model changed is marked")
    func followsTheSections() throws {
        let seed = TestSeed.current("DiffableChangesTests.followsTheSections", default: 20_261_126)
        var r = seed.generator
        let collection = SortedCollection<Note>(order: .child("score"))
        let sections = SectionedCollection(collection) { $0.group }
        var told: [DiffableChange<Int>] = []
        let changes = DiffableChanges(sections) { told.append($0) }
        #expect(changes.current.sections.isEmpty)
        for step in 0..<TestScale.count(2_000) {
            var before: [Key: Note] = [:]
            for model in collection.models { before[model.identifier] = model }
            let change = {
                let key = Key(stringLiteral: "k\(Int.random(in: 0..<40, using: &r))")
                switch Int.random(in: 0..<4, using: &r) {
                case 0: collection.remove(key)
                case 1: try collection.add(Note(identifier: key, score: Double(Int.random(in: 0..<20, using: &r)),
                                                group: Int.random(in: 0..<5, using: &r), label: 0))
                case 2:
                    if var model = collection.model(for: key) {
                        model.label += 1
                        try collection.add(model)
                    }
                default:
                    if var model = collection.model(for: key) {
                        model.group = Int.random(in: 0..<5, using: &r)
                        try collection.add(model)
                    }
                }
            }
            told.removeAll()
            if Int.random(in: 0..<4, using: &r) == 0 {
                try collection.performBatch { for _ in 0..<Int.random(in: 1...6, using: &r) { try change() } }
            } else {
                try change()
            }
            #expect(told.count <= 1, "\(seed), step \(step)")
            guard let last = told.last else { continue }
            #expect(last.sections == sections.snapshot(), "\(seed), step \(step)")
            let after = Set(collection.models.map(\.identifier))
            let stayed = Set(before.keys).intersection(after)
            let differ = stayed.filter { before[$0] != collection.model(for: $0) }
            let marked = Set(last.changedKeys)
            #expect(marked.count == last.changedKeys.count, "\(seed), step \(step): a key marked twice")
            #expect(differ.isSubset(of: marked), "\(seed), step \(step): \(differ.subtracting(marked)) not marked")
            #expect(marked.isSubset(of: stayed), "\(seed), step \(step): \(marked.subtracting(stayed)) marked but not shown before and after")
        }
        withExtendedLifetime(changes) {}
    }

    @Test("a row moved into another section whose old section goes is marked changed")
    func sectionGoes() throws {
        let collection = SortedCollection<Note>(order: .child("score"))
        try collection.add(Note(identifier: "a", score: 1, group: 0, label: 0))
        try collection.add(Note(identifier: "b", score: 2, group: 1, label: 0))
        let sections = SectionedCollection(collection) { $0.group }
        var told: [DiffableChange<Int>] = []
        let changes = DiffableChanges(sections) { told.append($0) }
        try collection.performBatch {
            try collection.add(Note(identifier: "a", score: 3, group: 1, label: 0))
            try collection.add(Note(identifier: "c", score: 0, group: 2, label: 0))
        }
        #expect(told.count == 1)
        #expect(told.first?.changedKeys == ["a"])
        #expect(told.first?.sections == [SectionItems(id: 1, items: ["b", "a"]), SectionItems(id: 2, items: ["c"])])
        withExtendedLifetime(changes) {}
    }

    @Test("changed rows are reconfigured only in a stage that changes nothing else")
    func reconfigureOnlyAlone() {
        let alone = BatchStage(reloadedRows: [RowPath(section: 0, row: 1)])
        #expect(alone.changedRows(as: .reconfigure) == ([], [RowPath(section: 0, row: 1)]))
        #expect(alone.changedRows(as: .reload) == ([RowPath(section: 0, row: 1)], []))
        let mixed = BatchStage(insertedRows: [RowPath(section: 0, row: 0)], reloadedRows: [RowPath(section: 0, row: 1)])
        #expect(mixed.changedRows(as: .reconfigure) == ([RowPath(section: 0, row: 1)], []))
    }
}
