// DataFileSafetyTests.swift — what live-server never does to a data file:
// share it with a second server, drop acknowledged writes after a damaged
// journal line, or make a private file readable by others. (Unreadable
// files, full disks and other users are tested from outside, as an
// ordinary user: Tests/FirebaseAdmin/test_boundary_outside.py.)

import Foundation
import LiveModel
@testable import LiveServer
import Testing

@Suite("LiveServer data file safety")
struct DataFileSafetyTests {
    static func temporaryFile() -> String { PersistenceTests.temporaryFile() }

    static func remove(_ file: String) {
        for suffix in ["", ".journal", ".lock"] { try? FileManager.default.removeItem(atPath: file + suffix) }
    }

    static func start(_ file: String) async throws(LiveServerError) -> LiveServer {
        var configuration = LiveServerConfiguration()
        configuration.dataFile = file
        return try await LiveServer.start(configuration)
    }

    static func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    @Test("a second server on the same data file is refused, and the first keeps every write")
    func secondServer() async throws {
        let file = Self.temporaryFile()
        defer { Self.remove(file) }
        let first = try await Self.start(file)
        _ = try await request(first.port, "PUT", "/a.json", body: "1")
        do {
            let second = try await Self.start(file)
            try await second.shutdown()
            Issue.record("a second server started on \(file)")
        } catch let error as LiveServerError {
            #expect(error.description.contains("another process holds the lock"), "\(error)")
        }
        _ = try await request(first.port, "PUT", "/b.json", body: "2")
        try await first.shutdown()
        let again = try await Self.start(file)
        #expect(try await request(again.port, "GET", "/.json").json == json(#"{"a": 1, "b": 2}"#))
        try await again.shutdown()
    }

    @Test("a damaged journal line with acknowledged writes after it stops the start and changes nothing")
    func damagedMiddle() async throws {
        let file = Self.temporaryFile()
        defer { Self.remove(file) }
        try #"{"seed": 1}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let journal = #"[["/a",1]]"# + "\n" + #"[["/b",2]][["/c"# + "\n" + #"[["/d",4]]"# + "\n"
        try journal.write(toFile: file + ".journal", atomically: true, encoding: .utf8)
        do {
            let server = try await Self.start(file)
            try await server.shutdown()
            Issue.record("started past a damaged journal line")
        } catch let error as LiveServerError {
            #expect(error.description.contains("line 2") && error.description.contains("does not start"), "\(error)")
        }
        #expect(try String(contentsOfFile: file + ".journal", encoding: .utf8) == journal, "the journal is left as it is")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == #"{"seed": 1}"#)
    }

    @Test("a data file keeps its mode when compacted; new files are private")
    func modes() async throws {
        let file = Self.temporaryFile()
        defer { Self.remove(file) }
        try "{}".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o640)
        var server = try await Self.start(file)
        _ = try await request(server.port, "PUT", "/a.json", body: "1")
        try await server.shutdown()
        #expect(try Self.mode(file) == 0o640)
        #expect(try Self.mode(file + ".journal") == 0o600)
        Self.remove(file)
        server = try await Self.start(file)
        _ = try await request(server.port, "PUT", "/a.json", body: "1")
        try await server.shutdown()
        #expect(try Self.mode(file) == 0o600, "a new data file is readable by its owner alone")
    }

    @Test("a journal that is a symbolic link is refused, never followed")
    func journalLink() async throws {
        let file = Self.temporaryFile()
        defer { Self.remove(file); try? FileManager.default.removeItem(atPath: file + ".target") }
        try "".write(toFile: file + ".target", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: file + ".journal", withDestinationPath: file + ".target")
        do {
            let server = try await Self.start(file)
            try await server.shutdown()
            Issue.record("followed a journal link")
        } catch let error as LiveServerError {
            #expect(error.description.contains(".journal"), "\(error)")
        }
    }
}

/// Compaction writes the snapshot without the server's lock.
@Suite("LiveServer compaction")
struct CompactionTests {
    @Test("writes and reads go on while a compaction writes; the lines written meanwhile stay in the journal")
    func offTheLock() async throws {
        let file = DataFileSafetyTests.temporaryFile()
        defer { DataFileSafetyTests.remove(file) }
        let gate = DispatchSemaphore(value: 0)
        let server = try await DataFileSafetyTests.start(file)
        server.core.journal?.compactionBytes = 1
        server.core.compactionGate = { gate.wait() }
        // The first write passes the threshold: its compaction waits at the gate.
        #expect(try await request(server.port, "PUT", "/a.json", body: "1").status == 200)
        #expect(server.core.lock.withLock { server.core.compacting })
        #expect(try await request(server.port, "PUT", "/b.json", body: "2").status == 200, "not held up")
        #expect(try await request(server.port, "GET", "/.json").json == json(#"{"a": 1, "b": 2}"#))
        gate.signal()
        await server.core.finishCompaction()
        let journal = try String(contentsOfFile: file + ".journal", encoding: .utf8)
        #expect(journal == #"[["/b",2]]"# + "\n", "only the line written meanwhile")
        #expect(try JSONValue(parsing: String(contentsOfFile: file, encoding: .utf8)) == json(#"{"a": 1}"#))
        server.core.compactionGate = nil
        try await server.shutdown()
        let again = try await DataFileSafetyTests.start(file)
        #expect(try await request(again.port, "GET", "/.json").json == json(#"{"a": 1, "b": 2}"#))
        try await again.shutdown()
    }
}
