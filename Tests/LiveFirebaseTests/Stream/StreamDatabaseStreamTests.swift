// StreamDatabaseStreamTests.swift — the stream driver over a scripted
// transport: requests, timers, reconnects, stopping and redaction.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import LiveFirebase
import LiveModel
import Testing

@Suite struct StreamDatabaseStreamTests {
    static let token = "tok-0123456789-secret"

    private func reference(_ credentials: Credentials = .none, path: String = "/rooms/lobby") throws -> DatabaseReference {
        try DatabaseReference(url: "https://db.example.com", path: path, credentials: credentials)
    }

    /// Short backoffs for tests. The keep-alive timeout is long: a test that
    /// counts connections must not see one timed out because a loaded machine
    /// stalled the process; the tests of the timeout set their own.
    static let fast = StreamConfiguration(keepAliveTimeout: .seconds(30), initialBackoff: .milliseconds(20),
                                          maxBackoff: .milliseconds(100), jitter: .full)

    @Test("GET with text/event-stream, the query's parameters and the credential; messages in order")
    func happyPath() async throws {
        let transport = StreamFakeTransport([[.ok, .put("/", #"{"a":1}"#), .sse("patch", #"{"path":"/","data":{"b":2}}"#),
                                              .sse("keep-alive", "null"), .put("/a", "3")]])
        let stream = DatabaseStream(reference: try reference(.fixed(.idToken(Self.token))),
                                    query: DatabaseQuery(order: .key).limited(toFirst: 2),
                                    transport: transport, configuration: Self.fast, logger: streamQuietLogger)
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
        #expect(await eventually { transport.isClosed(0) }, "stopping closes the connection")
        #expect(await !stream.isRunning)
    }

    @Test("a bearer credential goes in the header, not the URL")
    func bearer() async throws {
        let transport = StreamFakeTransport([[.ok]])
        let stream = DatabaseStream(reference: try reference(.fixed(.bearer(Self.token))), transport: transport, logger: streamQuietLogger)
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
        let stream = DatabaseStream(reference: try reference(), transport: transport, configuration: Self.fast, logger: streamQuietLogger)
        let recorder = StreamRecorder(await stream.start())
        #expect(await recorder.waitFor("put / 2"))
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
        let stream = DatabaseStream(reference: try reference(.fixed(.idToken(Self.token))), transport: transport,
                                    configuration: Self.fast, logger: streamQuietLogger)
        let recorder = StreamRecorder(await stream.start())
        #expect(await recorder.waitFor("put / 2"))
        let urls = transport.requests.map { $0.url?.absoluteString ?? "" }
        try #require(urls.count == 3, "\(urls)")
        #expect(urls[1] == "https://db2.example.com/rooms/lobby.json?auth=\(Self.token)", "the token replaces the old one")
        #expect(urls[2].hasPrefix("https://db.example.com/"))
        await stream.stop()
    }

    @Test("silence past the keep-alive timeout closes the connection and reconnects")
    func keepAliveTimeout() async throws {
        let transport = StreamFakeTransport([[.ok, .put("/", "1")]], fallback: [.ok, .put("/", "2")])
        var configuration = Self.fast
        configuration.keepAliveTimeout = .milliseconds(300)
        let stream = DatabaseStream(reference: try reference(), transport: transport, configuration: configuration, logger: streamQuietLogger)
        let recorder = StreamRecorder(await stream.start())
        #expect(await recorder.waitFor("put / 2"))
        #expect(recorder.summaries.contains("disconnected: connection failed: no data from the server for 0.3 seconds"))
        #expect(await eventually { transport.isClosed(0) }, "the silent connection is closed")
        await stream.stop()
    }

    @Test("bytes keep the connection alive")
    func keepAliveBytes() async throws {
        // Pings every 100 ms for 5 s against a 4 s timeout. A run in which
        // the machine stalled this test for over 2 s (before the first ping
        // or between two) says nothing about the timer, and is run again
        // (3 runs at most).
        for run in 1...3 {
            let transport = StreamFakeTransport([[.ok, .put("/", "1")]])
            var configuration = Self.fast
            configuration.keepAliveTimeout = .seconds(4)
            let stream = DatabaseStream(reference: try reference(), transport: transport, configuration: configuration, logger: streamQuietLogger)
            // From the start: the wait for the first put counts as a gap.
            let clock = ContinuousClock()
            var last = clock.now, longestGap = Duration.zero
            let recorder = StreamRecorder(await stream.start())
            #expect(await recorder.waitFor("put / 1"))
            for _ in 0..<50 {
                try await Task.sleep(for: .milliseconds(100))
                longestGap = max(longestGap, clock.now - last)
                last = clock.now
                transport.push([.event(.bytes(Array(": ping\n".utf8)))])
            }
            let disconnected = recorder.summaries.contains { $0.hasPrefix("disconnected") }
            await stream.stop()
            if disconnected, longestGap > .seconds(2), run < 3 { continue }
            #expect(!disconnected, "\(recorder.summaries); longest gap between pings \(longestGap)")
            #expect(transport.count == 1)
            return
        }
    }

    @Test("ending the iteration stops the stream and closes the connection")
    func consumerLeaves() async throws {
        let transport = StreamFakeTransport([[.ok, .put("/", "1")]])
        let stream = DatabaseStream(reference: try reference(), transport: transport, configuration: Self.fast, logger: streamQuietLogger)
        let recorder = StreamRecorder(await stream.start())
        #expect(await recorder.waitFor("put / 1"))
        recorder.cancel()
        #expect(await eventually { await !stream.isRunning })
        #expect(await eventually { transport.isClosed(0) })
    }

    @Test("starting again stops the first run, which ends, and connects afresh")
    func restart() async throws {
        let transport = StreamFakeTransport([], fallback: [.ok, .put("/", "1")])
        let stream = DatabaseStream(reference: try reference(), transport: transport, configuration: Self.fast, logger: streamQuietLogger)
        let first = StreamRecorder(await stream.start())
        #expect(await first.waitFor("put / 1"))
        let second = StreamRecorder(await stream.start())
        #expect(await first.waitFor("ended"))
        #expect(await second.waitFor("put / 1"))
        #expect(transport.count == 2 && transport.isClosed(0))
        await stream.stop()
        #expect(await second.waitFor { $0.last == "ended" })
    }

    @Test("an invalid query ends at once")
    func invalidQuery() async throws {
        let transport = StreamFakeTransport([])
        let stream = DatabaseStream(reference: try reference(), query: DatabaseQuery().limited(toFirst: 0),
                                    transport: transport, logger: streamQuietLogger)
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
        let stream = DatabaseStream(reference: try reference(credentials), transport: transport, configuration: Self.fast, logger: streamQuietLogger)
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
        let stream = DatabaseStream(reference: try reference(credentials), transport: transport, configuration: Self.fast, logger: streamQuietLogger)
        let recorder = StreamRecorder(await stream.start())
        #expect(await recorder.waitFor("put / 1"))
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
        let stream = DatabaseStream(reference: try reference(.fixed(.idToken(Self.token))), transport: transport,
                                    configuration: Self.fast, logger: StreamLogCapture.logger(lines))
        let recorder = StreamRecorder(await stream.start())
        #expect(await recorder.waitFor("ended"))
        let texts = recorder.messages.map { "\($0) \($0.summary) \(String(reflecting: $0))" }
        #expect(texts.count == 4, "\(texts)")
        for text in texts + lines.all {
            #expect(!text.contains(Self.token) && !text.contains("0123456789-secret"), "\(text)")
        }
        #expect(lines.all.contains { $0.contains("connecting") && $0.contains("auth=<redacted>") })
        #expect(lines.all.contains { $0.hasPrefix("notice") && $0.contains("disconnected") })
    }
}
