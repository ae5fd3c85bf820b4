// ReadmeExampleTests.swift — the README's LiveSections example, run as a
// test with the README's one import, so the README stays true.
import LiveSections
import Testing

/// The README's `Message`, with nothing but `import LiveSections` in scope.
struct ReadmeMessage: LiveModelProtocol, Codable {
    var identifier: Key
    var text: String
    var likes: Int?
}

@MainActor
@Suite("README example (LiveSections)")
struct LiveSectionsReadmeTests {
    @Test("sections over a sorted collection, checked as UIKit checks a batch")
    func example() throws {
        typealias Message = ReadmeMessage
        let messages = SortedCollection<Message>(order: .child("likes"))
        try messages.add(Message(identifier: "a", text: "hi", likes: 3))
        // README begin
        let sections = SectionedCollection(messages) { $0.likes ?? 0 }   // sections ascending by likes
        let list = CheckingListTarget { sections.counts }                 // checks each batch as UIKit does
        let connector = ListConnector(target: list)
        connector.isReady = true                                          // one reload, then batches
        let steps = sections.observeSteps { connector.apply($0) }         // one batch update per stage
        // README end
        try messages.add(Message(identifier: "b", text: "yo", likes: 1))
        try messages.add(Message(identifier: "c", text: "hey", likes: 3))
        messages.remove("a")
        steps.cancel()
        #expect(list.rejected.isEmpty)
        #expect(list.batches == 3 && list.reloads == 1)
        #expect(list.shown == [1, 1] && list.shown == sections.counts)
        #expect(sections.snapshot().map(\.items) == [["b"], ["c"]])
    }

    @Test("observed sections: Identifiable sections and rows")
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    func observed() throws {
        typealias Message = ReadmeMessage
        let messages = SortedCollection<Message>(order: .child("likes"))
        try messages.add(Message(identifier: "a", text: "hi", likes: 3))
        try messages.add(Message(identifier: "b", text: "yo", likes: 1))
        // README begin
        let observed = ObservedSections(SectionedCollection(messages) { $0.likes ?? 0 })
        for section in observed.sections {                   // Identifiable by the section value
            print(section.title, section.rows.map(\.id))      // rows are Identifiable by key
        }
        // README end
        #expect(observed.sections.map(\.id) == [1, 3])
        try messages.add(Message(identifier: "c", text: "hey", likes: 1))
        #expect(observed.sections.map { $0.rows.map(\.id) } == [["b", "c"], ["a"]])
    }
}
