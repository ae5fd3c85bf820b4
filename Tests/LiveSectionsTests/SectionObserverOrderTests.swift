// SectionObserverOrderTests.swift — observers of every contract are told in
// the order they were added; each step observer sees the state before the
// change until it commits.
import LiveSections
import Testing

@MainActor
@Suite("SectionedCollection: observers in the order they were added")
struct SectionObserverOrderTests {
    @Test("sequential, stage and step observers, mixed, told in order; a cancelled one is skipped; 50 times over")
    func mixedOrder() throws {
        for round in 0..<50 {
            let collection = SortedCollection<Tile>(order: .child("score"))
            try collection.add(Tile(identifier: "a", score: 1, group: 0))
            let sections = SectionedCollection(collection) { $0.group }
            var told: [String] = []
            var tokens: [ObservationToken] = []
            for i in 0..<9 {
                let name = "o\(i)"
                switch i % 3 {
                case 0: tokens.append(sections.observe { _ in if told.last != name { told.append(name) } })
                case 1: tokens.append(sections.observeStages { _ in told.append(name) })
                default: tokens.append(sections.observeSteps { steps in
                    told.append(name)
                    for step in steps { step.commit() }
                })
                }
            }
            tokens[4].cancel()
            let expected = ["o0", "o1", "o2", "o3", "o5", "o6", "o7", "o8"]
            try collection.add(Tile(identifier: "b", score: 2, group: 1))           // single: a new section
            #expect(told == expected, "round \(round), single change: \(told)")
            told.removeAll()
            try collection.performBatch {                                          // grouped
                try collection.add(Tile(identifier: "c", score: 3, group: 0))
                collection.remove("b")
            }
            #expect(told == expected, "round \(round), grouped change: \(told)")
            withExtendedLifetime(tokens) {}
        }
    }

    @Test("each step observer is shown the state before a grouped change until it commits")
    func eachStepObserverSeesTheOldState() throws {
        let collection = SortedCollection<Tile>(order: .child("score"))
        for (i, key) in ["a", "b", "c"].enumerated() { try collection.add(Tile(identifier: Key(key), score: Double(i), group: i)) }
        let sections = SectionedCollection(collection) { $0.group }
        var seen: [(before: [Int], after: [Int])] = []
        let observe = {
            sections.observeSteps { steps in
                let before = sections.counts
                for step in steps { step.commit() }
                seen.append((before, sections.counts))
            }
        }
        let first = observe(), second = observe()
        try collection.performBatch {
            try collection.add(Tile(identifier: "d", score: 4, group: 0))
            collection.remove("b")
        }
        #expect(seen.count == 2)
        for s in seen { #expect(s.before == [1, 1, 1] && s.after == [2, 1], "\(seen)") }
        withExtendedLifetime((first, second)) {}
    }
}

@MainActor
@Suite("Adapters: each step observer sees the state before the change")
struct AdapterStepObserverTests {
    @Test("StaticSections with two step observers: each is shown the old counts until it commits")
    func staticSections() throws {
        let list = StaticSections<String, String>([SectionItems(id: "s", items: ["a"])])
        var seen: [(before: [Int], after: [Int])] = []
        let observe = {
            list.observeSteps { steps in
                let before = list.counts
                for step in steps { step.commit() }
                seen.append((before, list.counts))
            }
        }
        let first = observe(), second = observe()
        try list.replace(with: [SectionItems(id: "s", items: ["a", "b"]), SectionItems(id: "t", items: ["c"])])
        #expect(seen.count == 2)
        for s in seen { #expect(s.before == [1] && s.after == [2, 1], "\(seen)") }
        withExtendedLifetime((first, second)) {}
    }
}
