// StreamDatabaseStreamTests.swift — the stream driver over a scripted
// transport and a test clock: requests, timers, reconnects, stopping and
// redaction, with no real time involved.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import LiveFirebase
import LiveModel
import Logging
import Testing

@Suite(.timeLimit(.minutes(5))) struct StreamDatabaseStreamTests {
    static let token = "tok-0123456789-secret"

    private func reference(_ credentials: Credentials = .none, path: String = "/rooms/lobby") throws -> DatabaseReference {
        try DatabaseReference(url: "https://db.example.com", path: path, credentials: credentials)
    }

    /// Backoffs with jitter; the timers run on a ``TestClock``, so only the
    /// tests' advances make them fire.
    static let fast = StreamConfiguration(keepAliveTimeout: .seconds(60), initialBackoff: .milliseconds(20),
                                          maxBackoff: .milliseconds(100), jitter: .full)

    /// A stream over `transport` whose timers run on `clock`.
    private func makeStream(_ reference: DatabaseReference, query: DatabaseQuery = DatabaseQuery(),
                        _ transport: StreamFakeTransport, _ clock: TestClock,
                        configuration: StreamConfiguration = Self.fast,
                        logger: Logger = streamQuietLogger) -> DatabaseStream<TestClock> {
        DatabaseStream(reference: reference, query: query, transport: transport, configuration: configuration,
                       clock: clock, logger: logger)
    }

    @Test("GET with text/event-stream, the query's parameters and the credential; messages in order")
    func happyPath() async throws {
        let transport = StreamFakeTransport([[.ok, .put("/", #"{"a":1}"#), .sse("patch", #"{"path":"/","data":{"b":2}}"#),
                                              .sse("keep-alive", "null"), .put("/a", "3")]])
        let stream = makeStream(try reference(.fixed(.idToken(Self.token))),
                            query: DatabaseQuery(order: .key).limited(toFirst: 2), transport, TestClock())
        let recorder = StreamRecorder(await stream.start())
        #expect(await recorder.waitFor("put /a"))
        #expect(recorder.summaries == ["connected", #"put / {"a":1}"#, "patch / b=2", "put /a 3"])
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "GET")
        #expect(request.value(forHTTPHeaderField: "Accept") == "text/event-stream")
        let url = request.url?.absoluteString ?? ""
        #expect(url.hasPrefix("https://db.example.com/rooms/lobby.json?"))
        #expect(url.contains("orderBy=%22%24key%22") && url.contains("limitToFirst=2") && url.contains("auth=\(Self.token)"))
        #expect(await stream.isRunning)
        await stream.stop()
        #expect(await recorder.waitFor("ended"))
        #expect(await transport.waitUntilClosed(0), "stopping closes the connection")
        #expect(await !stream.isRunning)
    }

    @Test("a bearer credential goes in the header, not the URL")
    func bearer() async throws {
        let transport = StreamFakeTransport([[.ok]])
        let stream = makeStream(try reference(.fixed(.bearer(Self.token))), transport, TestClock())
        let recorder = StreamRecorder(await stream.start())
        #expect(await recorder.waitFor("connected"))
        let request = try #require(transport.requests.first)
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer \(Self.token)")
        #expect(!(request.url?.absoluteString.contains(Self.token) ?? true))
        await stream.stop()
    }

    @Test("a closed stream reconnects to the query URL and resyncs from the new put")
    func reconnect() async throws {
        let transport = StreamFakeTransport([
            [.ok, .put("/", "1"), .end],
            [.event(.response(status: 503, headers: [:])), .end],
            [.fail(URLError(.networkConnectionLost))],
            [.ok, .put("/", "2")],
        ])
        let clock = TestClock()
        let stream = makeStream(try reference(), transport, clock)
        let recorder = StreamRecorder(await stream.start())
        #expect(await recorder.waitFor("put / 2", reconnectingOn: clock))
        let summaries = recorder.summaries
        #expect(Array(summaries.prefix(2)) == ["connected", "put / 1"])
        #expect(summaries.filter { $0.hasPrefix("disconnected") }.count == 3, "\(summaries)")
        #expect(summaries.contains { $0.contains("the network connection was lost") })
        #expect(Set(transport.requests.compactMap { $0.url?.absoluteString }).count == 1)
        await stream.stop()
    }

    @Test("a 307 is followed to its Location with the credential; a reconnect starts from the query URL again")
    func redirect() async throws {
        let transport = StreamFakeTransport([
            [.event(.response(status: 307, headers: ["location": "https://db2.example.com/rooms/lobby.json?auth=old"])), .end],
            [.ok, .put("/", "1"), .end],
            [.ok, .put("/", "2")],
        ])
        let clock = TestClock()
        let stream = makeStream(try reference(.fixed(.idToken(Self.token))), transport, clock)
        let recorder = StreamRecorder(await stream.start())
        #expect(await recorder.waitFor("put / 2", reconnectingOn: clock))
        let urls = transport.requests.map { $0.url?.absoluteString ?? "" }
        try #require(urls.count == 3, "\(urls)")
        #expect(urls[1] == "https://db2.example.com/rooms/lobby.json?auth=\(Self.token)", "the token replaces the old one")
        #expect(urls[2].hasPrefix("https://db.example.com/"))
        await stream.stop()
    }

    @Test("silence past the keep-alive timeout closes the connection and reconnects")
    func keepAliveTimeout() async throws {
        let transport = StreamFakeTransport([[.ok, .put("/", "1")]], fallback: [.ok, .put("/", "2")])
        let clock = TestClock()
        var configuration = Self.fast
        configuration.keepAliveTimeout = .seconds(5)
        let stream = makeStream(try reference(), transport, clock, configuration: configuration)
        let recorder = StreamRecorder(await stream.start())
        #expect(await recorder.waitFor("put / 1"))
        clock.advance(by: .seconds(5))
        #expect(await recorder.waitFor("disconnected"))
        #expect(recorder.summaries.contains("disconnected: connection failed: no data from the server for 5.0 seconds"),
                "\(recorder.summaries)")
        #expect(await transport.waitUntilClosed(0), "the silent connection is closed")
        #expect(await recorder.waitFor("put / 2", reconnectingOn: clock))
        await stream.stop()
    }

    @Test("bytes keep the connection alive; the timeout counts from the last of them")
    func keepAliveBytes() async throws {
        // A ping every 100 ms for 5 s against a 4 s timeout, each handled
        // before the clock moves on; then 4 s of silence.
        let transport = StreamFakeTransport([[.ok, .put("/", "1")]])
        let clock = TestClock()
        var configuration = Self.fast
        configuration.keepAliveTimeout = .seconds(4)
        let stream = makeStream(try reference(), transport, clock, configuration: configuration)
        let recorder = StreamRecorder(await stream.start())
        #expect(await recorder.waitFor("put / 1"))
        let handled = 2  // the response and the put
        for ping in 1...50 {
            clock.advance(by: .milliseconds(100))
            transport.push([.event(.bytes(Array(": ping\n".utf8)))])
            try #require(await transport.waitUntilHandled(handled + ping, of: 0),
                         "ping \(ping) at \(clock.now.offset): \(recorder.summaries)")
        }
        #expect(!recorder.summaries.contains { $0.hasPrefix("disconnected") }, "\(recorder.summaries)")
        #expect(transport.count == 1)
        clock.advance(by: .seconds(4))
        #expect(await recorder.waitFor("disconnected: connection failed: no data from the server for 4.0 seconds"))
        await stream.stop()
    }

    @Test("ending the iteration stops the stream and closes the connection")
    func consumerLeaves() async throws {
        let transport = StreamFakeTransport([[.ok, .put("/", "1")]])
        let stream = makeStream(try reference(), transport, TestClock())
        let recorder = StreamRecorder(await stream.start())
        #expect(await recorder.waitFor("put / 1"))
        recorder.cancel()
        #expect(await transport.waitUntilClosed(0))
        #expect(await !stream.isRunning, "the stream stopped as it closed the connection")
    }

    @Test("starting again stops the first run, which ends, and connects afresh")
    func restart() async throws {
        let transport = StreamFakeTransport([], fallback: [.ok, .put("/", "1")])
        let stream = makeStream(try reference(), transport, TestClock())
        let first = StreamRecorder(await stream.start())
        #expect(await first.waitFor("put / 1"))
        let second = StreamRecorder(await stream.start())
        #expect(await first.waitFor("ended"))
        #expect(await second.waitFor("put / 1"))
        #expect(await transport.waitUntilClosed(0))
        #expect(transport.count == 2)
        await stream.stop()
        #expect(await second.waitFor { $0.last == "ended" })
    }

    @Test("an invalid query ends at once")
    func invalidQuery() async throws {
        let transport = StreamFakeTransport([])
        let stream = makeStream(try reference(), query: DatabaseQuery().limited(toFirst: 0), transport, TestClock())
        let recorder = StreamRecorder(await stream.start())
        #expect(await recorder.waitFor("ended: invalid query"))
        #expect(transport.count == 0)
    }

    @Test("a provider is asked again with forceRefresh after auth_revoked; its failure reconnects")
    func provider() async throws {
        let asked = StreamLogCapture.Lines()
        let transport = StreamFakeTransport([
            [.ok, .put("/", "1"), .sse("auth_revoked", #""credential is no longer valid""#)],
            [.ok, .put("/", "2")],
        ])
        let credentials = Credentials.provider { force in
            asked.append("\(force)")
            return .idToken(force ? "fresh-token-after-refresh" : Self.token)
        }
        let stream = makeStream(try reference(credentials), transport, TestClock())
        let recorder = StreamRecorder(await stream.start())
        #expect(await recorder.waitFor("put / 2"))
        #expect(asked.all == ["false", "true"])
        #expect(recorder.summaries.prefix(4) == ["connected", "put / 1", "renewing", "connected"])
        #expect(transport.requests.last?.url?.absoluteString.contains("auth=fresh-token-after-refresh") == true)
        await stream.stop()
    }

    @Test("a failing provider: disconnected, then another try")
    func providerFails() async throws {
        let asked = StreamLogCapture.Lines()
        let transport = StreamFakeTransport([], fallback: [.ok, .put("/", "1")])
        let credentials = Credentials.provider { force in
            asked.append("\(force)")
            if asked.all.count == 1 { throw URLError(.notConnectedToInternet) }
            return .idToken(Self.token)
        }
        let clock = TestClock()
        let stream = makeStream(try reference(credentials), transport, clock)
        let recorder = StreamRecorder(await stream.start())
        #expect(await recorder.waitFor("put / 1", reconnectingOn: clock))
        #expect(recorder.summaries.first?.hasPrefix("disconnected: no credential: the provider failed") == true)
        #expect(transport.count == 1)
        await stream.stop()
    }

    @Test("no token in errors or logs, even when a transport error or a server message quotes it")
    func redaction() async throws {
        let lines = StreamLogCapture.Lines()
        let quoted = "https://db.example.com/rooms/lobby.json?auth=\(Self.token)"
        struct Leaky: Error, CustomStringConvertible {
            let text: String
            var description: String { "failed to load \(text)" }
        }
        let transport = StreamFakeTransport([
            [.fail(Leaky(text: quoted))],
            [.fail(URLError(.cannotConnectToHost, userInfo: [NSURLErrorFailingURLErrorKey: URL(string: quoted)!]))],
            [.event(.response(status: 503, headers: [:])), .event(.bytes(Array("no \(Self.token) here".utf8))), .end],
            [.event(.response(status: 307, headers: ["location": quoted])), .end],
            [.event(.response(status: 404, headers: [:])),
             .event(.bytes(Array(#"{"error": "not found: \#(QueryEncoding.percentEncode(Self.token))"}"#.utf8))), .end],
        ])
        let clock = TestClock()
        let stream = makeStream(try reference(.fixed(.idToken(Self.token))), transport, clock,
                            logger: StreamLogCapture.logger(lines))
        let recorder = StreamRecorder(await stream.start())
        #expect(await recorder.waitFor("ended", reconnectingOn: clock))
        let texts = recorder.messages.map { "\($0) \($0.summary) \(String(reflecting: $0))" }
        #expect(texts.count == 4, "\(texts)")
        for text in texts + lines.all {
            #expect(!text.contains(Self.token) && !text.contains("0123456789-secret"), "\(text)")
        }
        #expect(lines.all.contains { $0.contains("connecting") && $0.contains("auth=<redacted>") })
        #expect(lines.all.contains { $0.hasPrefix("notice") && $0.contains("disconnected") })
    }
}
