// ServerSessionTests.swift — live-repl connected to a server: the embedded
// one, and a LiveServer given with --url and --auth. Each write shows at
// once (pending), so `show` after it shows it; its confirmation comes later
// as a change between commands, and every write is answered before the
// session ends.

import Foundation
import LiveFirebase
import LiveModel
import LiveSections
import LiveServer
import Testing

@Suite("live-repl connected to a server", .serialized)
struct ServerSessionTests {
    static func shows(_ line: String) throws -> [[String]] {
        guard case .show(let sections) = try REPLLine(line) else { throw REPLTestError("not a show line: \(line)") }
        return sections.map(\.keys)
    }

    @Test("embedded server with sample data: set, update, push and remove each show at once")
    func embeddedWrites() async throws {
        let script = """
            show
            set /item-3/score 1000
            show
            update / {"item-1": null, "item-2/score": -1}
            show
            push / {"score": 500, "title": "pushed"}
            show
            remove /item-3
            show
            put /item-9 {"score": 2000}
            show
            query --order-by score --limit-last 2
            show
            """
        let run = try await REPLProcess.run(["--sample", "6", "--order-by", "score", "--json"], input: script + "\n")
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let lines = run.commandLines
        try #require(lines.count == 13, "\(run.stdout)")
        #expect(run.writeStates == [1: ["pending", "confirmed"], 2: ["pending", "confirmed"],
                                    3: ["pending", "confirmed"], 4: ["pending", "confirmed"]], "\(run.stdout)")
        let start = try Self.shows(lines[0])[0]
        #expect(start.count == 6)
        #expect(try Self.shows(lines[2])[0].last == "item-3", "set moved item-3 last")
        let afterUpdate = try Self.shows(lines[4])[0]
        #expect(afterUpdate.first == "item-2" && !afterUpdate.contains("item-1"))
        let afterPush = try Self.shows(lines[6])[0]
        #expect(afterPush.count == 6 && afterPush[4].hasPrefix("-"), "the pushed child sorts before item-3: \(afterPush)")
        #expect(!(try Self.shows(lines[8])[0]).contains("item-3"))
        #expect(try Self.shows(lines[10])[0].last == "item-9", "an injected put shows too")
        // A new query loads from the server, where the injected child never was.
        #expect(try Self.shows(lines[12])[0] == [afterPush[3], afterPush[4]])
        // Every write's change line names the child it touched.
        guard case .change(_, let events) = try REPLLine(lines[1]) else { Issue.record("\(lines[1])"); return }
        #expect(events.map(\.type) == ["child_moved", "child_changed"] && events.allSatisfy { $0.key == "item-3" })
    }

    @Test("a write, then at once a new load mode: the write's confirmation and every change are reported")
    func writeThenReplace() async throws {
        let script = "show\nset /x {\"score\": 5}\nload page 2\nshow\nload all\nshow\n"
        let run = try await REPLProcess.run(["--sample", "4", "--order-by", "score", "--json"], input: script)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.writeStates == [1: ["pending", "confirmed"]], "\(run.stdout)")
        // Every stage reported, applied in order, gives what the next `show` prints.
        var mirror = StageMirror(), waiting: [[(BatchStage, counts: [Int])]] = [], first = true
        for line in run.stdout.split(separator: "\n").map(String.init) {
            switch try REPLLine(line) {
            case .change(let stages, _): waiting.append(stages)
            case .show(let sections):
                let final = sections.map(\.keys)
                if first { mirror.rows = final }
                first = false
                for stages in waiting { try mirror.apply(stages, final: final) }
                waiting.removeAll()
                #expect(mirror.rows == final, "\(run.stdout)")
            default: break
            }
        }
    }

    @Test("--url and --auth: a LiveServer that requires a token; without it, a clear refusal")
    func urlWithAuth() async throws {
        var configuration = LiveServerConfiguration()
        configuration.tokens = ["secret-token"]
        let server = try await LiveServer.start(configuration)
        defer { Task { try? await server.shutdown() } }
        let script = "set /a {\"n\": 1}\nset /b {\"n\": 0}\nshow\n"
        let run = try await REPLProcess.run(["--url", server.url, "--auth", "secret-token", "--order-by", "n", "--json"],
                                      input: script)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(try Self.shows(try #require(run.commandLines.last)) == [["b", "a"]])
        #expect(!run.stdout.contains("secret-token") && !run.stderr.contains("secret-token"))

        let refused = try await REPLProcess.run(["--url", server.url, "--auth", "wrong-token"], input: "show\n")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("permission denied"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("wrong-token"), "a token in an error: \(refused.stderr)")
    }

    @Test("a write the server refuses (a stale ETag) shows at once, then is reverted with the reason; an invalid one is refused at once")
    func refusedWrites() async throws {
        let script = """
            show
            set --if-match stale /item-1/score 1000
            sync
            show
            update / {"item-2": {"score": 5}, "item-2/score": 6}
            sync
            show
            """
        let run = try await REPLProcess.run(["--sample", "3", "--order-by", "score", "--json"], input: script + "\n")
        #expect(run.status == 1, "the refused update is an error: \(run.stdout)\n\(run.stderr)")
        let lines = run.commandLines
        try #require(lines.count == 7, "\(run.stdout)")
        let before = try Self.shows(lines[0])
        // Shown at once: item-1 moves last, as a change with stages.
        guard case .change(let stages, let events) = try REPLLine(lines[1]) else { Issue.record("\(lines[1])"); return }
        #expect(!stages.isEmpty && events.contains { $0.key == "item-1" }, "\(lines[1])")
        #expect(try Self.shows(lines[3]) == before, "reverted: the server's rows again")
        guard case .error(let message) = try REPLLine(lines[4]) else { Issue.record("\(lines[4])"); return }
        #expect(message.contains("/item-2/score"), "\(message)")
        #expect(try Self.shows(lines[6]) == before)
        #expect(run.writeStates == [1: ["pending", "reverted"]], "\(run.stdout)")
        let reverts = run.lines.filter { $0.contains(#""state":"reverted""#) }
        #expect(reverts.count == 1 && reverts[0].contains("ETag"), "\(reverts)")
        // Each revert is a change of its own, with the stages a list view applies.
        #expect(reverts.allSatisfy { !$0.contains(#""stages":[]"#) }, "\(reverts)")
    }

    @Test("offline: writes show and wait, are kept in the cache at the end, and are sent once by the next run")
    func offlineWrites() async throws {
        let server = try await LiveServer.start(LiveServerConfiguration())
        defer { Task { try? await server.shutdown() } }
        let client = DatabaseClient(try DatabaseReference(url: server.url, path: "/items"))
        try await client.set(["a": ["n": 1], "b": ["n": 2]])
        let cache = NSTemporaryDirectory() + "live-repl-offline-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let options = ["--url", server.url, "--order-by", "n", "--cache", cache, "--json"]
        let first = try await REPLProcess.run(options, input: """
            offline
            set /c {"n": 0}
            remove /a
            sync
            show
            """ + "\n")
        #expect(first.status == 1, "sync while offline is an error: \(first.stdout)\n\(first.stderr)")
        let lines = first.commandLines
        try #require(lines.count == 6, "five commands, then the note on the writes kept: \(first.stdout)")
        #expect(try Self.shows(lines[4]) == [["c", "b"]], "shown at once, offline")
        guard case .error(let message) = try REPLLine(lines[3]) else { Issue.record("\(lines[3])"); return }
        #expect(message.contains("offline"), "\(message)")
        #expect(first.writeStates == [1: ["pending"], 2: ["pending"]], "\(first.stdout)")
        #expect(first.stdout.contains("kept in the cache"), "\(first.stdout)")
        #expect(try await client.get().value == ["a": ["n": 1], "b": ["n": 2]], "nothing sent offline")

        let second = try await REPLProcess.run(options, input: "show\nsync\nshow\n")
        #expect(second.status == 0, "\(second.stdout)\n\(second.stderr)")
        #expect(try Self.shows(try #require(second.commandLines.first)) == [["c", "b"]], "the writes show from the start")
        #expect(try Self.shows(try #require(second.commandLines.last)) == [["c", "b"]])
        #expect(second.writeStates == [1: ["confirmed"], 2: ["confirmed"]], "\(second.stdout)")
        #expect(try await client.get().value == ["b": ["n": 2], "c": ["n": 0]])
    }

    @Test("load last N, then load older: each older page prepended as one change, with the rows it added")
    func loadOlder() async throws {
        let run = try await REPLProcess.run(["--sample", "8", "--order-by", "score", "--json"],
                                            input: "load last 3\nshow\nload older\nshow\nload older\nload older\nquery\n")
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let lines = run.commandLines
        try #require(lines.count == 7, "\(run.stdout)")
        let last = try Self.shows(lines[1])[0], all = try Self.shows(lines[3])[0]
        #expect(last.count == 3 && all.count == 6 && Array(all.suffix(3)) == last, "\(all)")
        let older = try #require(try JSONValue(parsing: lines[2]).objectValue)
        #expect(older["prepended"] == 3, "\(lines[2])")
        #expect(older["stages"]?[0]?["insertedRows"] == [[0, 0], [0, 1], [0, 2]], "\(lines[2])")
        #expect(try JSONValue(parsing: lines[4])["prepended"] == 2, "the oldest page is short: \(lines[4])")
        #expect(try JSONValue(parsing: lines[5])["prepended"] == 0, "none left: \(lines[5])")
        #expect(lines[6].contains("pages of 3 from the end, 3 loaded, all loaded"), "\(lines[6])")
    }

    @Test("human output, connected: set then show shows the write")
    func humanConnected() async throws {
        let run = try await REPLProcess.run(["--sample", "3", "--order-by", "score"], input: "set /item-1/score -5\nshow\n")
        #expect(run.status == 0, "\(run.stdout)")
        let rows = run.lines.drop { $0 != "> show" }.dropFirst(2)
        #expect(rows.first?.contains("item-1  -5") == true, "\(run.stdout)")
    }
}
