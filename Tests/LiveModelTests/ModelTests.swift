import Testing
import LiveModel

@Suite("LiveModelProtocol")
struct ModelTests {
    struct Message: LiveModelProtocol, Codable, Equatable {
        var identifier: Key
        var text: String
        var likes: Int?
    }

    final class Counter: LiveModelProtocol {
        let identifier: Key
        private(set) var count: Int

        init(identifier: Key, dictionary: JSONValue) throws {
            self.identifier = identifier
            guard let count = dictionary["count"]?.numberValue else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no count"))
            }
            self.count = Int(count)
        }

        var dictionary: JSONValue { ["count": .number(Double(count))] }

        func update(with dictionary: JSONValue) throws {
            guard let count = dictionary["count"]?.numberValue else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no count"))
            }
            self.count = Int(count)
        }
    }

    @Test("Codable models get init, update and dictionary; the key is the identifier")
    func codableModel() throws {
        var message = try Message(identifier: "m1", dictionary: ["text": "hi"])
        #expect(message == Message(identifier: "m1", text: "hi", likes: nil))
        #expect(try message.dictionary == ["text": "hi"])
        try message.update(with: ["text": "hello", "likes": 3])
        #expect(message == Message(identifier: "m1", text: "hello", likes: 3))
        // A failed update leaves the model as it was.
        #expect(throws: DecodingError.self) { try message.update(with: ["likes": 4]) }
        #expect(message.likes == 3)
    }

    @Test("class models keep their identity across updates")
    func classModel() throws {
        let counter = try Counter(identifier: "c", dictionary: ["count": 1])
        var reference: some LiveModelProtocol = counter  // through the protocol's mutating requirement
        try reference.update(with: ["count": 5])
        #expect(counter === (reference as AnyObject) && counter.count == 5)
        #expect(counter.dictionary == ["count": 5])
    }
}
