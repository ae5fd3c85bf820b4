// FirebaseCollectionFaultTests.swift — a Firebase collection against
// LiveServer's faults, end to end. After each fault the collection ends
// equal to the server's data, with no duplicate, lost or reloaded child,
// and its status told the user what happened.

import Foundation
import LiveCollection
@testable import LiveFirebase
import LiveModel
import LiveServer
import Testing

@MainActor
@Suite("FirebaseCollection against LiveServer's faults", .serialized)
struct FirebaseCollectionFaultTests {
    nonisolated static let query = DatabaseQuery(order: .child("s"))

    /// A listening collection, what it told, and the children written.
    @MainActor
    final class Rig {
        let server: LiveServer
        let client: DatabaseClient
        let collection: FirebaseCollection<DecodingDataSource<RawChild>>
        let recorder = CollectionRecorder()
        var statuses: [CollectionStatus] = []
        var tokens: [Any] = []
        var written = 0
        var rng: SplitMix64

        init(_ server: LiveServer, seed: UInt64, credentials: Credentials = .none,
             transport: any StreamTransport = PlatformStreamTransport(),
             configuration: StreamConfiguration = StreamConfiguration(keepAliveTimeout: .seconds(5),
                                                                      initialBackoff: .milliseconds(20),
                                                                      maxBackoff: .milliseconds(200))) throws {
            self.server = server
            rng = SplitMix64(seed: seed)
            let reference = try DatabaseReference(url: server.url, path: "/items", credentials: credentials)
            client = DatabaseClient(reference)
            collection = try FirebaseCollection(
                reference: reference,
                query: FirebaseCollectionFaultTests.query, mode: .all, dataSource: DecodingDataSource<RawChild>(),
                opener: .database(transport: transport, configuration: configuration))
            tokens.append(collection.collection.addObserver(recorder))
            tokens.append(collection.observeStatus { [unowned self] in statuses.append($0) })
        }

        /// `n` random writes: children set, changed, removed.
        func write(_ n: Int) async throws {
            for _ in 0..<n {
                let key = Key(Int.random(in: 0..<16, using: &rng))
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: try await client.remove(at: DatabasePath([key]))
                case 1: try await client.set(.number(Double(Int.random(in: 0..<9, using: &rng))), at: DatabasePath([key, "s"]))
                default:
                    try await client.set(.object(["s": .number(Double(Int.random(in: 0..<9, using: &rng))), "t": "x"]),
                                         at: DatabasePath([key]))
                    written += 1
                }
            }
        }

        /// The collection settles on the answer of `server` (the rig's own
        /// by default); no reload happened.
        func settles(_ context: String, on server: LiveServer? = nil, auth: String? = nil) async throws {
            let server = server ?? self.server
            let keys = try await serverAnswer(server, FirebaseCollectionFaultTests.query, auth: auth)
            let values = try await serverValues(server, auth: auth)
            let settled = await eventually(10) { holds(collection.collection, keys, values) }
            #expect(settled, "\(context): collection \(collection.collection.models.map(\.identifier)), server \(keys)")
            let inserted = recorder.batches.map(\.inserted.count).reduce(0, +)
                + recorder.log.filter { $0.hasPrefix("insert") }.count
            #expect(inserted <= 16 + written, "\(context): \(inserted) insertions for \(written) children written")
        }

        /// Whether the status went through `reconnecting` with an error matching `reason`.
        func toldReconnecting(_ reason: (DatabaseError) -> Bool) -> Bool {
            statuses.contains { if case .reconnecting(let error) = $0 { reason(error) } else { false } }
        }
    }

    @Test("a 307 redirect to another port: followed, live as before")
    func redirect() async throws {
        try await withServer { server in
            let second = try await server.addPort()
            server.setFaults([.redirect(port: second)])
            // The redirect is for the first request; the second port serves.
            let transport = StreamWatchingTransport(onEvent: { if case .response(307, _) = $0 { server.setFaults([]) } })
            let rig = try Rig(server, seed: testSeed(), transport: transport)
            try await rig.write(10)
            try await rig.collection.start()
            #expect(transport.requests.compactMap { $0.url?.port } == [server.port, second])
            try await rig.write(30)
            try await rig.settles("redirect")
            rig.collection.stop()
        }
    }

    @Test("a malformed event: the stream reconnects and resyncs, and says why")
    func malformedEvent() async throws {
        try await withServer { server in
            let rig = try Rig(server, seed: testSeed())
            try await rig.write(10)
            try await rig.collection.start()
            server.setFaults([.malformedEvent(afterEvents: 3)])
            try await rig.write(20)
            server.setFaults([])
            try await rig.write(10)
            try await rig.settles("malformed event")
            #expect(rig.toldReconnecting { if case .invalidResponse = $0 { true } else { false } }, "\(rig.statuses)")
            rig.collection.stop()
        }
    }

    @Test("a payload over the client's limit: the collection keeps its data and says why; start again once it fits")
    func oversizedPayload() async throws {
        try await withServer { server in
            let rig = try Rig(server, seed: testSeed(), configuration: StreamConfiguration(
                keepAliveTimeout: .seconds(5), initialBackoff: .milliseconds(20), maxBackoff: .milliseconds(100),
                maxEventBytes: 4096))
            try await rig.write(10)
            try await rig.collection.start()
            let kept = rig.collection.collection.models.map(\.identifier)
            try await rig.client.set(.object(["s": 1, "t": .string(String(repeating: "x", count: 8000))]), at: "/big")
            // Reconnecting would meet the same event again: the stream ends and says why.
            #expect(await eventually {
                if case .failed(let error) = rig.collection.status { "\(error)".contains("limit of 4096 bytes") } else { false }
            }, "\(rig.statuses)")
            #expect(rig.collection.collection.models.map(\.identifier) == kept, "the data is kept")
            try await rig.client.remove(at: "/big")
            try await rig.write(10)
            try await rig.collection.start()
            try await rig.settles("oversized payload")
            #expect(rig.collection.status == .live)
            rig.collection.stop()
        }
    }

    @Test("a missing keep-alive: the client gives up on the silent stream, reconnects and resyncs")
    func missingKeepAlive() async throws {
        try await withServer({ $0.keepAliveInterval = .milliseconds(100) }) { server in
            let rig = try Rig(server, seed: testSeed(), configuration: StreamConfiguration(
                keepAliveTimeout: .milliseconds(600), initialBackoff: .milliseconds(20), maxBackoff: .milliseconds(100)))
            try await rig.write(10)
            try await rig.collection.start()
            server.setFaults([.silence])
            try await rig.write(15)
            #expect(await eventually { rig.toldReconnecting { _ in true } }, "\(rig.statuses)")
            server.setFaults([])
            try await rig.write(10)
            try await rig.settles("missing keep-alive")
            rig.collection.stop()
        }
    }

    /// A server configuration keeping its data in a new temporary directory.
    static func dataFileConfiguration() throws -> (LiveServerConfiguration, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("live-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = LiveServerConfiguration()
        configuration.dataFile = directory.appendingPathComponent("db.json").path
        return (configuration, directory)
    }

    @Test("the server killed and restarted on its data file: reconnect, resync, nothing lost")
    func serverRestart() async throws {
        var (configuration, directory) = try Self.dataFileConfiguration()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await LiveServer.start(configuration)
        let rig = try Rig(first, seed: testSeed())
        try await rig.write(20)
        try await rig.collection.start()
        let before = rig.collection.collection.models.map(\.identifier)
        try await first.shutdown()
        #expect(await eventually { rig.toldReconnecting { _ in true } }, "\(rig.statuses)")
        #expect(rig.collection.collection.models.map(\.identifier) == before, "the data is kept while away")

        configuration.port = first.port
        let second = try await LiveServer.start(configuration)
        do {
            let again = try Rig(second, seed: testSeed() &+ 1)
            try await again.write(20)
            rig.written += again.written
            try await rig.settles("server restart", on: second)
            #expect(rig.collection.status == .live)
            rig.collection.stop()
        } catch {
            try? await second.shutdown()
            throw error
        }
        try await second.shutdown()
    }

    @Test("writes made while the server is down are kept, shown, and sent once each, in order, when it is back")
    func writesWhileDown() async throws {
        var (configuration, directory) = try Self.dataFileConfiguration()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await LiveServer.start(configuration)
        let reference = try DatabaseReference(url: first.url, path: "/items")
        try await DatabaseClient(reference).set(["a": ["s": 1], "b": ["s": 2]])
        let sent = RESTRecordingTransport()
        let c = try FirebaseCollection(
            reference: reference, query: Self.query, mode: .all, dataSource: DecodingDataSource<RawChild>(),
            opener: .database(configuration: StreamConfiguration(keepAliveTimeout: .seconds(5), initialBackoff: .milliseconds(20),
                                                                 maxBackoff: .milliseconds(200))),
            writer: .database(transport: sent))
        var states: [Int: [String]] = [:]
        let token = c.observeWrites { id, state in
            let name: String
            switch state {
            case .pending: name = "pending"
            case .confirmed: name = "confirmed"
            case .reverted(let error): name = "reverted: \(error)"
            }
            states[id, default: []].append(name)
        }
        defer { token.cancel() }
        try await c.start()
        try await first.shutdown()
        let ids = [try c.write(.set("/c", ["s": 0])), try c.write(.remove("/a")), try c.write(.set("/b/s", 9))]
        #expect(c.collection.models.map(\.identifier) == ["c", "b"], "shown at once")
        #expect(await eventually { sent.failures >= 1 }, "the first write was tried, and failed")

        configuration.port = first.port
        let second = try await LiveServer.start(configuration)
        do {
            for id in ids { #expect(await c.outcome(of: id) == .confirmed) }
            #expect(states.values.allSatisfy { $0 == ["pending", "confirmed"] }, "\(states)")
            let value = try await DatabaseClient(try DatabaseReference(url: second.url, path: "/items")).get().value
            #expect(value == ["b": ["s": 9], "c": ["s": 0]])
            // A refused connection sends nothing: the writes were sent again
            // as first attempts, never read back first.
            let methods = sent.requests.compactMap(\.httpMethod)
            #expect(methods.count > 3, "an attempt failed while the server was down: \(methods)")
            #expect(!methods.contains("GET"), "\(methods)")
            #expect(methods.suffix(3) == ["PUT", "DELETE", "PUT"], "\(methods)")
            #expect(await eventually { c.status == .live && c.collection.models.map(\.identifier) == ["c", "b"] })
            c.stop()
        } catch {
            try? await second.shutdown()
            throw error
        }
        try await second.shutdown()
    }

    @Test("a slow consumer: the server disconnects it past its buffer limit; it reconnects and resyncs")
    func slowConsumer() async throws {
        try await withServer({ $0.listenerBufferLimit = 64 << 10 }) { server in
            let transport = SlowSocketTransport()
            let rig = try Rig(server, seed: testSeed(), transport: transport)
            try await rig.write(10)
            try await rig.collection.start()
            // Reading slowly while megabytes of changes come: the server's
            // backlog for this listener passes its limit.
            transport.slow = true
            let big = String(repeating: "x", count: 50_000)
            for i in 0..<200 {
                try await rig.client.set(.object(["s": .number(Double(i % 9)), "t": .string(big)]), at: DatabasePath([Key(i % 16)]))
            }
            rig.written += 16
            // The server has given up on it by now; what it had sent before
            // is still in the socket buffers: read on normally to the end.
            try await Task.sleep(for: .milliseconds(500))
            transport.slow = false
            #expect(await eventually(10) { rig.toldReconnecting { "\($0)".contains("closed") } }, "\(rig.statuses)")
            try await rig.write(10)
            try await rig.settles("slow consumer")
            #expect(transport.opened >= 2, "the server never disconnected the slow consumer")
            rig.collection.stop()
        }
    }

    @Test("cancel (access ended): the collection keeps its data and says it failed")
    func cancel() async throws {
        try await withServer({ $0.tokens = ["reader"] }) { server in
            let rig = try Rig(server, seed: testSeed(), credentials: .fixed(.idToken("reader")))
            try await rig.write(10)
            try await rig.collection.start()
            let kept = rig.collection.collection.models
            server.endAccess(token: "reader")
            #expect(await eventually { if case .failed(.permissionDenied) = rig.collection.status { true } else { false } },
                    "\(rig.statuses)")
            #expect(rig.collection.collection.models.map(\.identifier) == kept.map(\.identifier))
        }
    }

    @Test("auth_revoked: the provider gives a fresh token, the collection resyncs and stays live")
    func authRevoked() async throws {
        let first = "first-token-7c1e", second = "second-token-9d2a"
        try await withServer({ $0.tokens = [first, second] }) { server in
            let provider = RESTTokenProvider(tokens: [first, second])
            let rig = try Rig(server, seed: testSeed(),
                              credentials: .provider { force in try provider.next(forceRefresh: force) })
            try await rig.write(10)
            try await rig.collection.start()
            server.revoke(token: first)
            try await rig.write(20)
            try await rig.settles("auth_revoked", auth: second)
            #expect(provider.calls.count >= 2, "the provider was not asked again")
            #expect(rig.collection.status == .live)
            rig.collection.stop()
        }
    }
}
