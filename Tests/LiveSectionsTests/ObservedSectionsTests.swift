// ObservedSectionsTests.swift — a sectioned collection as Observation state:
// it follows every change, and a change invalidates only what it touched.
import LiveSections
import LiveTestSupport
import Testing

@MainActor
@Suite("ObservedSections")
struct ObservedSectionsTests {
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("seeded random changes, single and grouped: sections, titles, rows and models always equal the sections")
    func followsTheSections() throws {
        let seed = TestSeed.current("ObservedSectionsTests.followsTheSections", default: 20_261_126)
        var r = seed.generator
        let collection = SortedCollection<Note>(order: .child("score"))
        let sections = SectionedCollection(collection, title: { "group \($0)" }) { $0.group }
        let observed = ObservedSections(sections)
        for step in 0..<TestScale.count(2_000) {
            let change = {
                let key = Key(stringLiteral: "k\(Int.random(in: 0..<40, using: &r))")
                switch Int.random(in: 0..<3, using: &r) {
                case 0: collection.remove(key)
                case 1: try collection.add(Note(identifier: key, score: Double(Int.random(in: 0..<20, using: &r)),
                                                group: Int.random(in: 0..<5, using: &r), label: 0))
                default:
                    if var model = collection.model(for: key) {
                        model.label += 1
                        try collection.add(model)
                    }
                }
            }
            if Int.random(in: 0..<4, using: &r) == 0 {
                try collection.performBatch { for _ in 0..<Int.random(in: 1...6, using: &r) { try change() } }
            } else {
                try change()
            }
            let expected = sections.snapshot()
            #expect(observed.sections.map(\.id) == expected.map(\.id), "\(seed), step \(step)")
            #expect(observed.sections.map(\.title) == expected.map { "group \($0.id)" }, "\(seed), step \(step)")
            #expect(observed.sections.map { $0.rows.map(\.id) } == expected.map(\.items), "\(seed), step \(step)")
            #expect(observed.sections.flatMap { $0.rows.map(\.model) } == collection.models.sorted { $0.group < $1.group },
                    "\(seed), step \(step)")
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("a change invalidates only what it touched: a row, a section's rows, or the sections")
    func invalidatesWhatChanged() throws {
        let collection = SortedCollection<Note>(order: .child("score"))
        for (i, key) in ["a", "b", "c", "d"].enumerated() {
            try collection.add(Note(identifier: Key(stringLiteral: key), score: Double(i), group: i % 2, label: 0))
        }
        let observed = ObservedSections(SectionedCollection(collection) { $0.group })
        let seen = Invalidations()
        func arm() {
            seen.arm("sections") { _ = observed.sections }
            for section in observed.sections {
                seen.arm("rows \(section.id)") { _ = section.rows }
                for row in section.rows { seen.arm(row.id.string) { _ = row.model } }
            }
        }
        arm()
        try collection.add(Note(identifier: "c", score: 2, group: 0, label: 5))        // in place
        #expect(seen.take() == ["c"])
        arm()
        try collection.add(Note(identifier: "e", score: 9, group: 1, label: 0))        // into section 1
        #expect(seen.take() == ["rows 1"])
        arm()
        try collection.add(Note(identifier: "f", score: 10, group: 2, label: 0))       // a new section
        #expect(seen.take() == ["sections"])
        arm()
        try collection.performBatch {                                                  // grouped, section 0 only
            try collection.add(Note(identifier: "g", score: 0.5, group: 0, label: 0))
            try collection.add(Note(identifier: "a", score: 0, group: 0, label: 1))
        }
        #expect(seen.take() == ["a", "rows 0"])
        #expect(observed.sections.map { $0.rows.map(\.id) } == [["a", "g", "c"], ["b", "d", "e"], ["f"]])
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("a row keeps its object when a grouped change moves it to another section")
    func rowKeepsItsObject() throws {
        let collection = SortedCollection<Note>(order: .child("score"))
        try collection.add(Note(identifier: "a", score: 1, group: 0, label: 0))
        try collection.add(Note(identifier: "b", score: 2, group: 1, label: 0))
        let observed = ObservedSections(SectionedCollection(collection) { $0.group })
        let a = observed.sections[0].rows[0]
        try collection.performBatch {
            try collection.add(Note(identifier: "a", score: 3, group: 1, label: 0))   // its section goes
            try collection.add(Note(identifier: "c", score: 0, group: 2, label: 0))
        }
        #expect(observed.sections.map { $0.rows.map(\.id) } == [["b", "a"], ["c"]])
        #expect(observed.sections[0].rows[1] === a)
        #expect(a.model.score == 3)
    }
}
