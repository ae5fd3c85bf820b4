// PersistenceTests.swift — the data file across restarts, kills and torn
// journal lines, with the live-server executable in a child process.

import Foundation
import LiveModel
import LiveServer
import Testing

@Suite("LiveServer persistence", .serialized)
struct PersistenceTests {
    /// A live-server child process.
    final class Child {
        let process = Process()
        let port: Int

        init(data: String) throws {
            let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("live-server")
            process.executableURL = binary
            process.arguments = ["--port", "0", "--data", data]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            var line: [UInt8] = []
            while true {
                let byte = output.fileHandleForReading.readData(ofLength: 1)
                guard let first = byte.first else { break }
                if first == UInt8(ascii: "\n") { break }
                line.append(first)
            }
            let url = String(decoding: line, as: UTF8.self)
            guard let port = url.split(separator: ":").last.flatMap({ Int($0) }) else {
                throw RawHTTPError.malformed("live-server printed \(url)")
            }
            self.port = port
        }

        func kill() {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        /// Sends SIGTERM; true when the server then stops by itself within
        /// 10 s with status 0 (else it is killed, so that nothing hangs).
        @discardableResult
        func terminate() -> Bool {
            process.terminate()
            let deadline = ContinuousClock.now + .seconds(10)
            while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
            let stopped = !process.isRunning
            if !stopped { Foundation.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()  // also lets Foundation release the process
            return stopped && process.terminationReason == .exit && process.terminationStatus == 0
        }
    }

    static func temporaryFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("live-server-\(UUID().uuidString).json").path
    }

    @Test("every acknowledged write survives a SIGKILL; a clean stop folds the journal into the file")
    func killAndRestart() throws {
        let file = Self.temporaryFile()
        defer { for suffix in ["", ".journal", ".tmp"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
        var child = try Child(data: file)
        for i in 0..<100 {
            let r = try request(child.port, "PUT", "/items/k\(i).json", body: #"{"n": \#(i)}"#)
            #expect(r.status == 200)
        }
        _ = try request(child.port, "PATCH", "/items.json", body: #"{"k0": null, "k1/n": -1}"#)
        child.kill()
        child = try Child(data: file)
        var r = try request(child.port, "GET", "/items.json?shallow=true")
        #expect(r.json?.objectValue?.count == 99)
        #expect(try request(child.port, "GET", "/items/k1/n.json").json == -1)
        #expect(child.terminate(), "SIGTERM stops the server cleanly")
        let journal = try FileManager.default.attributesOfItem(atPath: file + ".journal")[.size] as? Int
        #expect(journal == 0, "a clean stop empties the journal")
        child = try Child(data: file)
        r = try request(child.port, "GET", "/items/k99.json")
        #expect(r.json == json(#"{"n": 99}"#))
        #expect(child.terminate(), "SIGTERM stops the server cleanly")
    }

    @Test("SIGTERM sent the moment the URL is read stops the server cleanly, every time")
    func terminateAtOnce() throws {
        for round in 0..<10 {
            let file = Self.temporaryFile()
            defer { for suffix in ["", ".journal", ".tmp"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
            let child = try Child(data: file)
            #expect(child.terminate(), "round \(round)")
        }
    }

    @Test("a torn last journal line (a write never acknowledged) is dropped; the rest loads")
    func tornJournal() async throws {
        let file = Self.temporaryFile()
        defer { for suffix in ["", ".journal", ".tmp"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
        try #"{"seed": {"a": 1}}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let torn = #"[["/seed/b",2]]"# + "\n" + #"[["/seed/c",3]"#
        try torn.write(toFile: file + ".journal", atomically: true, encoding: .utf8)
        try await withServer({ $0.dataFile = file }) { server in
            #expect(try request(server.port, "GET", "/seed.json").json == json(#"{"a": 1, "b": 2}"#))
            _ = try request(server.port, "PUT", "/seed/d.json", body: "4")
        }
        try await withServer({ $0.dataFile = file }) { server in
            let r = try request(server.port, "GET", "/seed.json")
            #expect(r.json == json(#"{"a": 1, "b": 2, "d": 4}"#))
        }
    }

    @Test("a data file that is not JSON stops the server from starting, with a clear error")
    func corruptFile() async throws {
        let file = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "{nope".write(toFile: file, atomically: true, encoding: .utf8)
        var configuration = LiveServerConfiguration()
        configuration.dataFile = file
        do {
            let server = try await LiveServer.start(configuration)
            try await server.shutdown()
            Issue.record("started on a corrupt data file")
        } catch let error as LiveServerError {
            #expect(error.description.contains(file))
        }
    }
}
