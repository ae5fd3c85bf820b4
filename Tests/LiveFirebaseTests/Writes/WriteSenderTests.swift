// WriteSenderTests.swift — a write whose answer was lost, sent again
// against a real LiveServer: applied once where the protocol can tell.
import Foundation
@testable import LiveFirebase
import LiveServer
import Testing

@MainActor
@Suite("WriteSender: writes that may have reached the server", .timeLimit(.minutes(5)))
struct WriteSenderTests {
    /// Sends `write` through the REST sender, as attempt `attempt`.
    /// - Returns: The methods of the requests it made.
    static func send(_ write: DatabaseWrite, _ attempt: WriteAttempt, at reference: DatabaseReference)
        async throws(DatabaseError) -> [String]
    {
        let recorder = RESTRecordingTransport()
        try await WriteSender.database(transport: recorder).send(reference, write, attempt)
        return recorder.requests.map { $0.httpMethod ?? "?" }
    }

    @Test("a write already applied is confirmed without being sent again; one not applied is sent")
    func plain() async throws {
        try await withServer { server in
            let reference = try DatabaseReference(url: server.url, path: "/items")
            let client = DatabaseClient(reference)
            try await client.set(["a": ["s": 1], "b": ["s": 2]])
            #expect(try await Self.send(.set("/a", ["s": 1]), .again, at: reference) == ["GET"])
            #expect(try await Self.send(.set("/a", ["s": 5]), .again, at: reference) == ["GET", "PUT"])
            #expect(try await Self.send(.remove("/b"), .again, at: reference) == ["GET", "DELETE"])
            #expect(try await Self.send(.remove("/b"), .again, at: reference) == ["GET"])
            #expect(try await Self.send(.update("/", ["a/s": 5, "c": ["s": 3]]), .again, at: reference) == ["GET", "GET", "PATCH"])
            #expect(try await Self.send(.update("/", ["a/s": 5, "c": ["s": 3]]), .again, at: reference) == ["GET", "GET"])
            #expect(try await Self.send(.set("/d", 1), .first, at: reference) == ["PUT"])
            #expect(try await client.get().value == ["a": ["s": 5], "c": ["s": 3], "d": 1])
        }
    }

    @Test("a conditional write is sent again as it is: its ETag keeps it from applying twice")
    func conditional() async throws {
        try await withServer { server in
            let reference = try DatabaseReference(url: server.url, path: "/items")
            let client = DatabaseClient(reference)
            try await client.set(["s": 1], at: "/a")
            let etag = try await client.getWithETag("/a").etag
            try await client.set(["s": 2], at: "/a", ifMatch: etag) // the lost attempt
            #expect(try await Self.send(.set("/a", ["s": 2], ifMatch: etag), .again, at: reference) == ["PUT"])
            try await client.set(["s": 3], at: "/a") // another client, after it
            await #expect(throws: DatabaseError.self) {
                _ = try await Self.send(.set("/a", ["s": 2], ifMatch: etag), .again, at: reference)
            }
            #expect(try await client.get("/a").value == ["s": 3], "not written over")
        }
    }

    @Test("a write with a server value is not sent again: its outcome is unknown")
    func serverValue() async throws {
        try await withServer { server in
            let reference = try DatabaseReference(url: server.url, path: "/items")
            await #expect(throws: DatabaseError.self) {
                _ = try await Self.send(.set("/n", [".sv": ["increment": 1]]), .again, at: reference)
            }
            let recorder = RESTRecordingTransport()
            do throws(DatabaseError) {
                try await WriteSender.database(transport: recorder).send(reference, .update("/", ["t": [".sv": "timestamp"]]), .again)
                Issue.record("sent again")
            } catch {
                guard case .writeOutcomeUnknown = error else { Issue.record("\(error)"); return }
            }
            #expect(recorder.requests.isEmpty)
        }
    }
}
