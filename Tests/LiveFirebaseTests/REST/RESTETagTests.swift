// RESTETagTests.swift — conditional writes with ETags against a LiveServer.

@testable import LiveFirebase
import LiveModel
import LiveServer
import Testing

@Suite struct RESTETagTests {
    @Test func conditionalSetSucceedsWithTheCurrentETag() async throws {
        try await withServer { server in
            let client = try restClient(server)
            let (empty, nullTag) = try await client.getWithETag("counter")
            #expect(!empty.exists)
            #expect(nullTag == "null_etag")
            let first = try await client.set(1, at: "counter", ifMatch: nullTag)
            let (snapshot, tag) = try await client.getWithETag("counter")
            #expect(snapshot.value == 1)
            #expect(first == tag)
            let second = try await client.set(2, at: "counter", ifMatch: tag)
            #expect(second != nil && second != tag)
            #expect(try await client.get("counter").value == 2)
        }
    }

    @Test func aStaleETagFailsWithTheCurrentValue() async throws {
        try await withServer { server in
            let client = try restClient(server)
            try await client.set(["n": 1], at: "doc")
            let (_, stale) = try await client.getWithETag("doc")
            try await client.set(["n": 2, "by": "someone else"], at: "doc")
            let (_, current) = try await client.getWithETag("doc")
            for attempt in 0..<2 {
                do {
                    if attempt == 0 {
                        try await client.set(["n": 3], at: "doc", ifMatch: stale)
                    } else {
                        try await client.remove(at: "doc", ifMatch: stale)
                    }
                    Issue.record("a write with a stale ETag succeeded")
                } catch let error as DatabaseError {
                    guard case .etagMismatch(let etag, let value) = error else { throw error }
                    #expect(etag == current)
                    #expect(value == ["n": 2, "by": "someone else"])
                    #expect(!error.description.contains("someone else"))
                }
            }
            #expect(try await client.get("doc").value == ["n": 2, "by": "someone else"])
        }
    }

    @Test func conditionalRemove() async throws {
        try await withServer { server in
            let client = try restClient(server)
            try await client.set("x", at: "doc")
            let (_, tag) = try await client.getWithETag("doc")
            try await client.remove(at: "doc", ifMatch: tag)
            #expect(!(try await client.get("doc").exists))
            // Removing what is absent, on the condition that it is absent.
            try await client.remove(at: "doc", ifMatch: "null_etag")
            // Absent, but the caller thought it was there.
            do {
                try await client.remove(at: "doc", ifMatch: tag)
                Issue.record("removal with a stale ETag succeeded")
            } catch let error as DatabaseError {
                guard case .etagMismatch("null_etag", .null) = error else { throw error }
            }
        }
    }

    @Test func thePriorityIsPartOfTheETag() async throws {
        try await withServer { server in
            let client = try restClient(server)
            try await client.set("v", at: "doc")
            let (_, before) = try await client.getWithETag("doc")
            try await client.set("v", priority: .number(1), at: "doc")
            let (snapshot, after) = try await client.getWithETag("doc")
            #expect(before != after)
            #expect(snapshot.priority == .number(1))
        }
    }

    @Test func aMissingETagIsAnInvalidResponse() async throws {
        let transport = RESTFakeTransport(RESTFakeAnswer(status: 200, body: "1"))
        let client = DatabaseClient(try DatabaseReference(url: "https://db.example.com"), transport: transport)
        do {
            _ = try await client.getWithETag("x")
            Issue.record("no ETag was accepted")
        } catch {
            guard case .invalidResponse(let message) = error else { throw error }
            #expect(message.contains("ETag"))
        }
        #expect(transport.requests.first?.value(forHTTPHeaderField: "X-Firebase-ETag") == "true")
    }

    @Test func aMismatchWithoutAnETagOrWithAnUnreadableBody() async throws {
        let noTag = RESTFakeTransport(RESTFakeAnswer(status: 412, body: "1"))
        let client = DatabaseClient(try DatabaseReference(url: "https://db.example.com"), transport: noTag)
        await #expect(throws: DatabaseError.invalidResponse("HTTP 412 from https://db.example.com/x.json without the current ETag")) {
            try await client.set(1, at: "x", ifMatch: "e")
        }
        let html = RESTFakeTransport(RESTFakeAnswer(status: 412, headers: ["ETag": "abc"], body: "<html>oops</html>"))
        let other = DatabaseClient(try DatabaseReference(url: "https://db.example.com"), transport: html)
        do {
            try await other.remove(at: "x", ifMatch: "e")
            Issue.record("accepted")
        } catch {
            guard case .invalidResponse = error else { throw error }
        }
        let request = try #require(html.requests.first)
        #expect(request.value(forHTTPHeaderField: "if-match") == "e")
        #expect(request.httpMethod == "DELETE")
        #expect(request.url?.absoluteString.contains("print=silent") == false)
    }
}
