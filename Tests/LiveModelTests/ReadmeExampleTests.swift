// ReadmeExampleTests.swift — the README's LiveModel example, run as a test so the README stays true.
import LiveModel
import Testing

@Suite("README example")
struct ReadmeExampleTests {
    struct Message: LiveModelProtocol, Codable {
        var identifier: Key          // the child's key
        var text: String
        var likes: Int?
    }

    @Test("parse, order, read lazily, decode")
    func example() throws {
        // README begin
        let snapshot = try Snapshot.parse(
            json: #"{"b": {"text": "hi", "likes": 2}, "a": {"text": "yo"}, "10": {"text": "ten"}}"#,
            order: .child("likes"))
        let keys = snapshot.children.map { $0.key!.description }   // values are not parsed
        let models = try snapshot.children.map { try Message(snapshot: $0) }
        let sorted = snapshot.orderedChildren()                      // by likes, then key: 10, a, b
        // README end
        #expect(keys.count == 3)
        #expect(Set(keys) == ["b", "a", "10"])
        #expect(models.first { $0.identifier == "b" }?.likes == 2)
        #expect(sorted.map { $0.key!.description } == ["10", "a", "b"])  // no likes (null) first, 10 before a
        #expect(sorted.map(\.sortValue) == [.null, .null, .number(2)])
        #expect(Key("10") < Key("9a"))
    }
}
