// FaultTests.swift — each injected stream fault, as a client sees it.

import LiveModel
import LiveServer
import Testing

@Suite("LiveServer faults", .serialized)
struct FaultTests {
    @Test("dropAfter closes the stream after N events")
    func dropAfter() async throws {
        try await withServer { server in
            server.setFaults([.dropAfter(events: 2)])
            let stream = try await EventReader(port: server.port, "/d.json")
            _ = try await request(server.port, "PUT", "/d/a.json", body: "1")
            _ = try await request(server.port, "PUT", "/d/b.json", body: "2")
            #expect(try await stream.next()?.payload?.path == "/")
            #expect(try await stream.next()?.payload?.path == "/a")
            #expect(try await stream.next() == nil)
        }
    }

    @Test("dropMidEvent sends half an event and closes; a per-listener fault leaves others alone")
    func dropMidEvent() async throws {
        try await withServer { server in
            let hurt = try await EventReader(port: server.port, "/m.json")
            let fine = try await EventReader(port: server.port, "/m.json")
            _ = try await hurt.next()
            _ = try await fine.next()
            let id = try #require(server.listeners().first?.id)
            #expect(server.setFaults([.dropMidEvent(afterEvents: 1)], listener: id))
            _ = try await request(server.port, "PUT", "/m/a.json", body: #""0123456789""#)
            #expect(try await hurt.next() == nil, "half an event is no event")
            #expect(try await fine.next()?.payload?.data == "0123456789")
        }
    }

    @Test("malformedEvent sends one event that is not JSON, then goes on")
    func malformed() async throws {
        try await withServer { server in
            server.setFaults([.malformedEvent(afterEvents: 1)])
            let stream = try await EventReader(port: server.port, "/b.json")
            _ = try await stream.next()
            _ = try await request(server.port, "PUT", "/b/a.json", body: "1")
            let bad = try #require(try await stream.next())
            #expect(bad.name == "put" && bad.json == nil)
            #expect(try await stream.next()?.payload?.data == 1)
        }
    }

    @Test("redirect answers a stream with a 307 to a second port, which serves the same data")
    func redirect() async throws {
        try await withServer { server in
            _ = try await request(server.port, "PUT", "/r.json", body: "7")
            let second = try await server.addPort()
            server.setFaults([.redirect(port: second)])
            let response = try await request(server.port, "GET", "/r.json?auth=x", headers: ["Accept": "text/event-stream"])
            #expect(response.status == 307 && response.headers["location"] == "http://127.0.0.1:\(second)/r.json?auth=x")
            server.setFaults([])
            let stream = try await EventReader(port: second, "/r.json")
            #expect(try await stream.next()?.payload?.data == 7)
        }
    }

    @Test("delay holds events back but keeps their order; silence stops everything, keep-alives too")
    func delayAndSilence() async throws {
        try await withServer({ $0.keepAliveInterval = .milliseconds(50) }) { server in
            server.setFaults([.delay(milliseconds: 200)])
            let start = ContinuousClock.now
            let slow = try await EventReader(port: server.port, "/q.json")
            for i in 0..<5 { _ = try await request(server.port, "PUT", "/q/\(i).json", body: "\(i)") }
            _ = try await slow.next()
            #expect(ContinuousClock.now - start >= .milliseconds(190))
            for i in 0..<5 { #expect(try await slow.next()?.payload?.path == "/\(i)") }
            server.setFaults([.silence])
            let quiet = try await EventReader(port: server.port, "/q.json", timeoutSeconds: 1)
            await #expect(throws: RawHTTPError.self) { _ = try await quiet.next(skippingKeepAlives: false) }
        }
    }

    @Test("a stream that lost an event to silence stays silent once it is lifted; one that lost none goes on")
    func silenceLostEvent() async throws {
        try await withServer { server in
            let lost = try await EventReader(port: server.port, "/s/a.json")
            let kept = try await EventReader(port: server.port, "/s/b.json")
            _ = try await lost.next()
            _ = try await kept.next()
            server.setFaults([.silence])
            _ = try await request(server.port, "PUT", "/s/a.json", body: "1") // lost by the first stream only
            server.setFaults([])
            _ = try await request(server.port, "PUT", "/s/a.json", body: "2")
            _ = try await request(server.port, "PUT", "/s/b.json", body: "3")
            // Events are handed to a stream while the write is applied,
            // before its response: the counts are final here.
            let sent = server.listeners().sorted { $0.id < $1.id }.map(\.eventsSent)
            #expect(sent == [1, 2], "the first put only, then the first put and the write")
            #expect(try await kept.next()?.payload?.data == 3)
            let fresh = try await EventReader(port: server.port, "/s/a.json")
            #expect(try await fresh.next()?.payload?.data == 2)
        }
    }
}
