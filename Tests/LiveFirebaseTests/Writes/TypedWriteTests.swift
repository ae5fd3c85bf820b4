// TypedWriteTests.swift — writes of Encodable values and server values:
// what is sent, what a collection shows, and what a real LiveServer keeps.
import Foundation
@testable import LiveFirebase
import LiveModel
import LiveServer
import Testing

/// A model as an app writes it: the server sets `sent`.
private struct Message: LiveModelProtocol, Codable, Equatable {
    var identifier: Key
    var text: String
    @ServerTimestamp var sent: Date?
}

private struct Points: Encodable {
    var score: ServerValue
    var note: String?
}

@Suite("Typed writes: encoding")
struct TypedWriteEncodingTests {
    @Test("server values encode as the database is sent them, in JSON values and in Encodable values")
    func serverValues() throws {
        #expect(JSONValue.serverTimestamp == json(#"{".sv": "timestamp"}"#))
        #expect(JSONValue.increment(by: 2.5) == json(#"{".sv": {"increment": 2.5}}"#))
        #expect(try JSONValue.written(Points(score: .increment(-1))) == json(#"{"score": {".sv": {"increment": -1}}}"#))
        #expect(try JSONValue.written(ServerValue.timestamp) == JSONValue.serverTimestamp)
    }

    @Test("a ServerTimestamp left nil is the server's time; a date is its milliseconds; a model's key is not written")
    func timestamps() throws {
        let unsent = Message(identifier: "m1", text: "hi")
        #expect(try JSONValue.written(unsent) == json(#"{"text": "hi", "sent": {".sv": "timestamp"}}"#))
        var sent = unsent
        sent.sent = Date(timeIntervalSince1970: 1_700_000_000.25)
        #expect(try JSONValue.written(sent) == json(#"{"text": "hi", "sent": 1700000000250}"#))
    }

    @Test("a ServerTimestamp reads milliseconds back; absent, null or the server value is nil; another type is an error")
    func decoding() throws {
        let unset = try JSONEncoder().encode(Message(identifier: "m", text: "a"))
        #expect(try JSONDecoder().decode(Message.self, from: unset).sent == nil, "a JSONEncoder round trip before the server set it")
        #expect(try Message(identifier: "m", dictionary: json(#"{"text": "a"}"#)).sent == nil)
        #expect(try Message(identifier: "m", dictionary: json(#"{"text": "a", "sent": null}"#)).sent == nil)
        let read = try Message(identifier: "m", dictionary: json(#"{"text": "a", "sent": 1700000000250}"#))
        #expect(read.sent == Date(timeIntervalSince1970: 1_700_000_000.25))
        #expect(throws: (any Error).self) { try Message(identifier: "m", dictionary: json(#"{"text": "a", "sent": "noon"}"#)) }
    }

    @Test("a dictionary of paths is an update of those paths, its values encoded; a JSON null still removes")
    func dictionaries() throws {
        #expect(try JSONValue.updates(["a/b": 1, "c": 2] as [DatabasePath: Int]) == ["a/b": 1, "c": 2])
        #expect(try JSONValue.updates(["gone": JSONValue.null] as [DatabasePath: JSONValue]) == ["gone": .null])
        #expect(try JSONValue.updates(["t": ServerValue.timestamp] as [DatabasePath: ServerValue]) == ["t": .serverTimestamp])
    }

    @Test("a model is written without its key's member wherever it is: alone, in a dictionary, in an array")
    func nestedModels() throws {
        var model = Message(identifier: "m1", text: "hi")
        model.sent = Date(timeIntervalSince1970: 1)
        #expect(try JSONValue.written(["a": model]) == json(#"{"a": {"text": "hi", "sent": 1000}}"#))
        #expect(try JSONValue.written([model]) == json(#"[{"text": "hi", "sent": 1000}]"#))
        #expect(try JSONValue.updates(["a": model] as [DatabasePath: Message]) == ["a": json(#"{"text": "hi", "sent": 1000}"#)])
        #expect(try DatabasePath.of(model, under: "/rooms") == "/rooms/m1")
    }

    @Test("an update is made from an object's members, each a path; anything else is refused with what is wrong")
    func updates() throws {
        struct Deep: Encodable {
            let members: [String: Int]
            func encode(to encoder: any Encoder) throws { try members.encode(to: encoder) }
        }
        let paths = try JSONValue.updates(Deep(members: ["a/b": 1, "c": 2]))
        #expect(paths == ["a/b": 1, "c": 2])
        #expect(try JSONValue.updates(Points(score: .timestamp)).keys.map(\.description) == ["/score"],
                "a nil member is left out")
        func refusal(_ body: () throws(DatabaseError) -> Void) -> String? {
            do { try body(); return nil } catch { if case .invalidValue(let why) = error { return why }; return "\(error)" }
        }
        #expect(refusal { () throws(DatabaseError) in _ = try JSONValue.updates(5) }?.contains("not encoded as one") == true)
        #expect(refusal { () throws(DatabaseError) in _ = try JSONValue.updates(Deep(members: ["a.b": 1])) }?.contains("\"a.b\"") == true)
        #expect(refusal { () throws(DatabaseError) in _ = try JSONValue.written(Double.nan) }?.contains("Double cannot be written") == true)
        let nested = refusal { () throws(DatabaseError) in _ = try JSONValue.written(["scores": [1, Double.infinity]]) }
        #expect(nested?.contains("at .scores[1]: inf cannot be stored") == true, "\(nested ?? "")")
    }
}

@MainActor
@Suite("Typed writes against live-server", .timeLimit(.minutes(5)))
struct TypedWriteServerTests {
    @Test("a pushed model shows at once with a time, and the server keeps its own time and no key member")
    func pushModel() async throws {
        try await withServer { server in
            let reference = try streamReference(server, "/messages")
            let messages: DecodedCollection<Message> = try FirebaseCollection(
                of: Message.self, reference: reference, query: DatabaseQuery(order: .child("sent")), mode: .all,
                opener: .database(configuration: StreamLiveServerTests.fast))
            defer { messages.stop() }
            try await messages.start()
            let before = Date()
            let key = try await messages.push(Message(identifier: "ignored", text: "hi"))
            let after = Date()
            let shown = try #require(messages.collection.models.first { $0.identifier == key })
            #expect(shown.text == "hi")
            #expect(shown.sent != nil, "a server time is estimated at once")
            let stored = try await restClient(server, path: "/messages").get(try DatabasePath(key.string)).value
            #expect(stored["identifier"] == nil)
            let millis = try #require(stored["sent"]?.numberValue)
            #expect(millis >= (before.timeIntervalSince1970 * 1000).rounded(.down) - 1)
            #expect(millis <= (after.timeIntervalSince1970 * 1000).rounded(.up) + 1)
            // A model is set and updated at its key.
            var edited = try #require(messages.collection.model(for: key))
            edited.text = "hello"
            try await messages.set(edited)
            #expect(try await restClient(server, path: "/messages").get(try DatabasePath(key.string)).value["text"] == "hello")
            try await restClient(server, path: "/messages").set(Message(identifier: "m2", text: "set by key"))
            #expect(try await restClient(server, path: "/messages").get("m2").value["text"] == "set by key")
        }
    }

    @Test("an increment and a set of Encodable values through the REST client and a collection")
    func incrementAndSet() async throws {
        try await withServer { server in
            let client = try restClient(server, path: "/scores")
            try await client.set(["alice": ["score": 5]] as [String: [String: Int]], at: .root)
            try await client.update(Points(score: .increment(10), note: "bonus"), at: "alice")
            #expect(try await client.get("alice").value == json(#"{"score": 15, "note": "bonus"}"#))
            let scores = try FirebaseCollection(of: RawChild.self, reference: try streamReference(server, "/scores"),
                                                mode: .all, opener: .database(configuration: StreamLiveServerTests.fast))
            defer { scores.stop() }
            try await scores.start()
            try await scores.update(Points(score: .increment(-20)), at: "alice")
            #expect(try await client.get("alice").value == json(#"{"score": -5, "note": "bonus"}"#))
            #expect(scores.collection.models.first?.dictionary["score"] == .number(-5), "the estimate is the sum")
            // A dictionary literal of paths is an update of those paths.
            try await scores.update(["alice/note": "kept", "carol/score": 1])
            #expect(try await client.get("alice").value == json(#"{"score": -5, "note": "kept"}"#))
            #expect(try await client.get("carol").value == json(#"{"score": 1}"#))
            let pushed = try await client.push(Points(score: .timestamp, note: nil))
            #expect(try await client.get(try DatabasePath(pushed.string)).value["score"]?.numberValue != nil)
            await #expect(throws: DatabaseError.self) { try await scores.set(Double.infinity, at: "bob") }
            #expect(scores.collection.models.count == 3, "a value that cannot be written is not shown")
        }
    }
}
