// StreamLiveServerTests.swift — DatabaseStream with the URLSession
// transport against a LiveServer on loopback: events, redirects, drops,
// cancel, revocation and silence.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import LiveFirebase
import LiveModel
import LiveServer
import Testing

@Suite(.serialized, .timeLimit(.minutes(5))) struct StreamLiveServerTests {
    /// Quick reconnects; a keep-alive timeout long enough for a loaded machine.
    static let fast = StreamConfiguration(keepAliveTimeout: .seconds(10), initialBackoff: .milliseconds(50),
                                          maxBackoff: .milliseconds(400), jitter: .equal)

    @Test("the first put at /, then a put or patch for every write")
    func events() async throws {
        try await withServer { server in
            try await streamWrite(server, "PUT", "/room/items", #"{"a": 1}"#)
            let stream = DatabaseStream(reference: try streamReference(server, "/room/items"), configuration: Self.fast, logger: streamQuietLogger)
            let recorder = StreamRecorder(await stream.start())
            #expect(await recorder.waitFor(#"put / {"a":1}"#))
            try await streamWrite(server, "PUT", "/room/items/b", #"{"t": "x"}"#)
            #expect(await recorder.waitFor(#"put /b {"t":"x"}"#))
            try await streamWrite(server, "PATCH", "/room/items", #"{"b/t": "y", "c": 3}"#)
            #expect(await recorder.waitFor(#"patch / b/t="y",c=3"#))
            try await streamWrite(server, "DELETE", "/room/items/a", "")
            #expect(await recorder.waitFor("put /a null"))
            await stream.stop()
            #expect(await recorder.waitFor("ended"))
            // A first attempt that a loaded machine kept waiting past the
            // keep-alive timeout is tried again: what counts is what follows.
            #expect(Array(recorder.summaries.drop { $0.hasPrefix("disconnected:") })
                    == ["connected", #"put / {"a":1}"#, #"put /b {"t":"x"}"#, #"patch / b/t="y",c=3"#, "put /a null", "ended"],
                    "\(recorder.summaries)")
            #expect(await eventually { server.listeners().isEmpty })
        }
    }

    @Test("a query streams its window, parsed in the query's order")
    func query() async throws {
        try await withServer { server in
            try await streamWrite(server, "PUT", "/s", #"{"a": {"n": 3}, "b": {"n": 1}, "c": {"n": 2}}"#)
            let query = DatabaseQuery(order: .child("n")).limited(toLast: 2)
            let stream = DatabaseStream(reference: try streamReference(server, "/s"), query: query, configuration: Self.fast, logger: streamQuietLogger)
            let recorder = StreamRecorder(await stream.start())
            #expect(await recorder.waitFor("put /"))
            guard case .put(let payload)? = recorder.messages.dropFirst().first else { Issue.record("no put"); return }
            #expect(payload.data.orderedChildren().map { $0.key?.string } == ["c", "a"])
            await stream.stop()
        }
    }

    @Test("a 307 to another port is followed with the token, which the other port requires")
    func redirect() async throws {
        let token = "redirect-token-4f1c9a"
        try await withServer({ $0.tokens = [token] }) { server in
            let second = try await server.addPort()
            server.setFaults([.redirect(port: second)])
            let transport = StreamWatchingTransport(onEvent: { event in
                if case .response(307, _) = event { server.setFaults([]) }
            })
            let stream = DatabaseStream(reference: try streamReference(server, "/r", .fixed(.idToken(token))),
                                        transport: transport, configuration: Self.fast, logger: streamQuietLogger)
            let recorder = StreamRecorder(await stream.start())
            #expect(await recorder.waitFor("put / null"))
            let urls = transport.requests.compactMap { $0.url }
            #expect(urls.map(\.port) == [server.port, second])
            #expect(urls.last?.query == "format=export&auth=\(token)")
            try await streamWrite(server, "PUT", "/r", "5")
            #expect(await recorder.waitFor("put / 5"))
            await stream.stop()
        }
    }

    @Test("when the server drops the stream, it reconnects and the new put at / carries what changed meanwhile")
    func dropAndResync() async throws {
        try await withServer { server in
            server.setFaults([.dropAfter(events: 1)])
            let stream = DatabaseStream(reference: try streamReference(server, "/d"), configuration: Self.fast, logger: streamQuietLogger)
            let recorder = StreamRecorder(await stream.start())
            #expect(await recorder.waitFor("put / null"))
            try await streamWrite(server, "PUT", "/d/a", "1")
            #expect(await recorder.waitFor(#"put / {"a":1}"#))
            #expect(recorder.summaries.contains { $0.hasPrefix("disconnected: connection failed") })
            server.setFaults([.dropMidEvent(afterEvents: 1)])
            try await streamWrite(server, "PUT", "/d/b", #""0123456789""#)
            #expect(await recorder.waitFor(#"put / {"a":1,"b":"0123456789"}"#))
            #expect(!recorder.summaries.contains { $0.hasPrefix("put /b") }, "half an event is no event")
            server.setFaults([])
            await stream.stop()
        }
    }

    @Test("a malformed event: disconnected, reconnected, resynced")
    func malformed() async throws {
        try await withServer { server in
            server.setFaults([.malformedEvent(afterEvents: 1)])
            let transport = StreamWatchingTransport(onOpen: { index in if index > 0 { server.setFaults([]) } })
            let stream = DatabaseStream(reference: try streamReference(server, "/m"), transport: transport,
                                        configuration: Self.fast, logger: streamQuietLogger)
            let recorder = StreamRecorder(await stream.start())
            #expect(await recorder.waitFor("put / null"))
            try await streamWrite(server, "PUT", "/m/a", "1")
            #expect(await recorder.waitFor(#"put / {"a":1}"#))
            #expect(recorder.summaries.contains { $0.hasPrefix("disconnected: invalid response from the server: a put event") })
            await stream.stop()
        }
    }

    @Test("silence past the keep-alive timeout reconnects and resyncs")
    func silence() async throws {
        // The server says nothing after the response head; the stream's
        // timer runs on a test clock, moved past the timeout at once.
        try await withServer { server in
            server.setFaults([.silence])
            let transport = StreamWatchingTransport(onOpen: { index in if index > 0 { server.setFaults([]) } })
            let clock = TestClock()
            let stream = DatabaseStream(reference: try streamReference(server, "/k"), transport: transport,
                                        configuration: Self.fast, clock: clock, logger: streamQuietLogger)
            let recorder = StreamRecorder(await stream.start())
            #expect(await recorder.waitFor("connected"))
            #expect(recorder.summaries == ["connected"], "a silent server sends no put")
            clock.advance(by: Self.fast.keepAliveTimeout)
            #expect(await recorder.waitFor("disconnected: connection failed: no data from the server"))
            #expect(await recorder.waitFor("put / null", reconnectingOn: clock))
            #expect(transport.requests.count == 2)
            await stream.stop()
        }
    }

    @Test("cancel ends the stream with permission denied; the token is in no message or log")
    func cancel() async throws {
        let token = "cancel-token-7d2e8b"
        let lines = StreamLogCapture.Lines()
        try await withServer({ $0.tokens = [token] }) { server in
            let stream = DatabaseStream(reference: try streamReference(server, "/c", .fixed(.idToken(token))),
                                        configuration: Self.fast, logger: StreamLogCapture.logger(lines))
            let recorder = StreamRecorder(await stream.start())
            #expect(await recorder.waitFor("put / null"))
            server.endAccess(token: token)
            #expect(await recorder.waitFor("ended: permission denied: Permission denied"))
            #expect(recorder.summaries.count == 3, "no reconnect: \(recorder.summaries)")
            for text in recorder.messages.map({ String(reflecting: $0) }) + lines.all {
                #expect(!text.contains(token), "\(text)")
            }
        }
    }

    @Test("auth_revoked: a provider's new token (which the server accepts) reconnects the stream")
    func revokedWithProvider() async throws {
        let first = "first-token-a81f", second = "second-token-c03b"
        let lines = StreamLogCapture.Lines()
        try await withServer({ $0.tokens = [first] }) { server in
            let credentials = Credentials.provider { force in .idToken(force ? second : first) }
            let stream = DatabaseStream(reference: try streamReference(server, "/v", credentials),
                                        configuration: Self.fast, logger: StreamLogCapture.logger(lines))
            let recorder = StreamRecorder(await stream.start())
            #expect(await recorder.waitFor("put / null"))
            server.addToken(second)
            server.revoke(token: first)
            #expect(await recorder.waitFor("put / null", count: 2))
            #expect(recorder.summaries == ["connected", "put / null", "renewing", "connected", "put / null"])
            try await streamWrite(server, "PUT", "/v", "true")
            #expect(await recorder.waitFor("put / true"))
            await stream.stop()
            #expect(await recorder.waitFor("ended"))
            for text in recorder.messages.map({ String(reflecting: $0) }) + lines.all {
                #expect(!text.contains(first) && !text.contains(second), "\(text)")
            }
        }
    }

    @Test("auth_revoked with a fixed token ends the stream")
    func revokedFixed() async throws {
        let token = "fixed-token-55aa"
        try await withServer({ $0.tokens = [token] }) { server in
            let stream = DatabaseStream(reference: try streamReference(server, "/v", .fixed(.idToken(token))),
                                        configuration: Self.fast, logger: streamQuietLogger)
            let recorder = StreamRecorder(await stream.start())
            #expect(await recorder.waitFor("put / null"))
            server.revoke(token: token)
            #expect(await recorder.waitFor("ended: the server revoked the credential and it could not be renewed"))
        }
    }

    @Test("a refused token ends the stream; a provider is asked for a fresh one first")
    func refused() async throws {
        try await withServer({ $0.tokens = ["good-token-1234"] }) { server in
            let fixed = DatabaseStream(reference: try streamReference(server, "/x", .fixed(.accessToken("bad-token-1234"))),
                                       configuration: Self.fast, logger: streamQuietLogger)
            let ended = StreamRecorder(await fixed.start())
            #expect(await ended.waitFor("ended: permission denied: Permission denied"))
            #expect(ended.summaries.count == 1)

            let asked = StreamLogCapture.Lines()
            let provider = Credentials.provider { force in
                asked.append("\(force)")
                return .idToken(force ? "good-token-1234" : "stale-token-1234")
            }
            let renewing = DatabaseStream(reference: try streamReference(server, "/x", provider), configuration: Self.fast, logger: streamQuietLogger)
            let recorder = StreamRecorder(await renewing.start())
            #expect(await recorder.waitFor("put / null"))
            #expect(recorder.summaries == ["renewing", "connected", "put / null"])
            #expect(asked.all == ["false", "true"])
            await renewing.stop()
        }
    }
}
