// LiveViewTests.swift — live-repl as a live view: what another client
// writes while the REPL waits for input is applied and printed at once
// (`"between": true` lines), `show` prints the current state, and `sync`
// returns once the collection equals the server's answer.

import Foundation
import LiveFirebase
import LiveModel
import LiveServer
import Testing

@Suite("live-repl shows changes while it waits for input")
struct LiveViewTests {
    /// Applies child events to a list of keys as Firebase defines them, one
    /// change at a time: each `prevKey` names the child before it in the
    /// order after its whole change. Removed and moved children leave; then
    /// the added and moved ones are placed, each once the child it follows
    /// is in place (in one change, a child may follow another that moves
    /// after it is added).
    static func apply(_ events: [ReplayedEvent], to keys: inout [String]) {
        for change in Set(events.map(\.change)).sorted() {
            var placing: [ReplayedEvent] = []
            for event in events where event.change == change && event.type != "child_changed" {
                keys.removeAll { $0 == event.key }
                if event.type != "child_removed" { placing.append(event) }
            }
            var waiting = Set(placing.map(\.key))
            while let i = placing.firstIndex(where: { $0.prevKey.map { !waiting.contains($0) } ?? true }) {
                let event = placing.remove(at: i)
                waiting.remove(event.key)
                // A prevKey that is nowhere: the caller's comparison with `show` names it.
                let at = event.prevKey.map { keys.firstIndex(of: $0).map { $0 + 1 } ?? keys.count } ?? 0
                keys.insert(event.key, at: at)
            }
        }
    }

    static func events(_ line: String) throws -> [ReplayedEvent] {
        guard case .change(_, let events) = try REPLLine(line) else { throw REPLTestError("not a change: \(line)") }
        return events
    }

    @Test("--json, input open and idle: another client's write comes as a between line; show and sync agree")
    func idleJSON() async throws {
        let server = try await LiveServer.start()
        defer { Task { try? await server.shutdown() } }
        let client = DatabaseClient(try DatabaseReference(url: server.url, path: "/items"))
        try await client.set(["a": ["score": 1], "b": ["score": 2], "c": ["score": 3]])

        let repl = try REPLSession(["--url", server.url, "--path", "/items", "--order-by", "score", "--json"])
        let (synced, before) = try await repl.command("sync")
        #expect(synced == #"{"children":3,"synced":true}"#, "\(repl.transcript)")
        #expect(before.isEmpty)

        // Nothing is typed from here until the change has been printed.
        try await client.update(["a": ["score": 10], "d": ["score": 0]])
        var keys = ["a", "b", "c"]
        while keys != ["d", "b", "c", "a"] {
            let line = try await repl.next()
            #expect(line.contains(#""between":true"#), "\(line)")
            Self.apply(try Self.events(line), to: &keys)
        }
        let (shown, late) = try await repl.command("show")
        #expect(late.isEmpty, "\(late)")
        #expect(try ServerSessionTests.shows(shown) == [["d", "b", "c", "a"]])

        // sync after another write returns only once the change is in.
        try await client.remove(at: "b")
        let (again, between) = try await repl.command("sync")
        #expect(again == #"{"children":3,"synced":true}"#, "\(repl.transcript)")
        for line in between { Self.apply(try Self.events(line), to: &keys) }
        #expect(keys == ["d", "c", "a"])
        #expect(try ServerSessionTests.shows(try await repl.command("show").reply) == [keys])
        #expect(try await repl.finish() == 0)
    }

    @Test("sync fails after the timeout it names when the collection cannot match the server")
    func syncTimeout() async throws {
        let server = try await LiveServer.start()
        defer { Task { try? await server.shutdown() } }
        let client = DatabaseClient(try DatabaseReference(url: server.url, path: "/items"))
        try await client.set(["a": ["score": 1]])
        let repl = try REPLSession(["--url", server.url, "--path", "/items", "--order-by", "score", "--json"])
        // An injected child exists only here, never on the server.
        _ = try await repl.command(#"put /zz {"score": 9}"#)
        let (reply, _) = try await repl.command("sync 0.2")
        #expect(reply.contains("sync: the collection did not match the server's answer to the query within 0.2 s"),
                "\(reply)")
        #expect(reply.contains("1 extra"), "\(reply)")
        #expect(try await repl.finish() == 1)
    }

    @Test("sync while another client writes without pause: it meets one of the server's answers and returns")
    func syncUnderChurn() async throws {
        let server = try await LiveServer.start()
        defer { Task { try? await server.shutdown() } }
        let client = DatabaseClient(try DatabaseReference(url: server.url, path: "/items"))
        var children = JSONObject()
        for i in 0..<2_000 { children["k\(i)"] = ["score": .number(Double(i))] }
        try await client.set(.object(children))
        try await client.set(0, at: "c0/score")
        // Writes one after another, each moving a child, from before the
        // REPL starts until the sync is answered.
        let writes = Task {
            var written = 1
            while !Task.isCancelled {
                do {
                    try await client.set(.number(Double(-written)), at: DatabasePath("c\(written % 20)/score"))
                } catch where Task.isCancelled {
                    break // the write under way when the sync was answered
                }
                written += 1
            }
            return written
        }
        let repl = try REPLSession(["--url", server.url, "--path", "/items", "--order-by", "score", "--json"])
        _ = try await repl.command("show")
        let (reply, _) = try await repl.command("sync 60")
        writes.cancel()
        let written = try await writes.value
        #expect(reply.contains(#""synced":true"#), "after \(written) writes: \(reply)")
        #expect(try await repl.finish() == 0)
    }

    @Test("sync: a bad timeout is a usage error; offline it returns at once")
    func syncOffline() async throws {
        let run = try await REPLProcess.run(["--offline", "--json"], input: "sync nope\nput /a 1\nsync\n")
        #expect(run.lines.count == 3, "\(run.stdout)")
        #expect(run.lines.first?.contains("sync: the timeout must be a number of seconds") == true, "\(run.stdout)")
        #expect(run.lines.last == #"{"children":1,"synced":true}"#, "\(run.stdout)")
    }
}
