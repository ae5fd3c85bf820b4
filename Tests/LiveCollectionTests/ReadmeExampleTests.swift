// ReadmeExampleTests.swift — the README's LiveCollection example, run as a test.
import LiveCollection
import Testing

struct Message: LiveModelProtocol, Codable {
    var identifier: Key
    var text: String
    var likes: Int?
}

@MainActor
@Suite("README example (LiveCollection)")
struct LiveCollectionReadmeTests {
    @Test("sorted collection, batches, a feed from snapshots")
    func example() async throws {
        // README begin
        var seen: [CollectionBatch] = []
        let messages = SortedCollection<Message>(order: .child("likes"))
        let token = messages.observeUpdates { update in
            seen.append(update.batch)   // old positions for deletes, new ones for inserts
        }
        try messages.add(Message(identifier: "a", text: "hi", likes: 3))
        try messages.performBatch {     // one update, between did-start-load and did-end-load
            try messages.add(Message(identifier: "b", text: "yo", likes: 1))
            messages.remove("a")
        }
        let feed = CollectionFeed(collection: messages, dataSource: DecodingDataSource<Message>())
        let received = try Snapshot.parse(json: #"{"c": {"text": "hey", "likes": 2}}"#, order: .child("likes"))
        await feed.load(Array(received.children))   // replaces the content, as one batch
        // README end
        token.cancel()
        #expect(messages.models.map(\.identifier) == ["c"])
        #expect(seen.count == 3)
        #expect(seen[1].deleted == [0] && seen[1].inserted == [0])
        #expect(seen[2].deleted == [0] && seen[2].inserted == [0])
    }
}
