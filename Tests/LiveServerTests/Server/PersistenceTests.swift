// PersistenceTests.swift — the data file across restarts, kills and torn
// journal lines, with the live-server executable in a child process.

import Foundation
import LiveModel
import LiveTestSupport
import LiveServer
import Testing

@Suite("LiveServer persistence", .serialized)
struct PersistenceTests {
    /// A live-server child process. Starting, killing and stopping it
    /// block, so they run off the cooperative pool.
    final class Child: @unchecked Sendable {
        // @unchecked: used by one test at a time.
        let process = Process()
        let port: Int
        /// Signalled when the process ends.
        private let exited = DispatchSemaphore(value: 0)

        /// Starts one on `data` and reads the URL it prints.
        static func start(data: String) async throws -> Child {
            try await offThePool { try Child(data: data) }
        }

        private init(data: String) throws {
            let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("live-server")
            process.executableURL = binary
            process.arguments = ["--port", "0", "--data", data]
            process.terminationHandler = { [exited] _ in exited.signal() }
            // Its errors go to a file of its own, not to this process's
            // standard error: a server left running by a crashed test run
            // would otherwise hold swift test's pipe, and the run would wait
            // for ever instead of failing.
            let log = data + ".stderr"
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            defer { try? FileManager.default.removeItem(atPath: log) }
            let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            defer { try? errors.close() }
            let output = try ProcessLaunch.exclusively { [process] in
                let output = ProcessLaunch.pipe()
                process.standardOutput = output
                process.standardError = errors
                try process.run()
                return output
            }
            var line: [UInt8] = []
            while true {
                let byte = output.fileHandleForReading.readData(ofLength: 1)
                guard let first = byte.first else { break }
                if first == UInt8(ascii: "\n") { break }
                line.append(first)
            }
            let url = String(decoding: line, as: UTF8.self)
            guard let port = url.split(separator: ":").last.flatMap({ Int($0) }) else {
                let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                throw RawHTTPError.malformed("live-server printed \(url) \(said)")
            }
            self.port = port
        }

        func kill() async {
            await offThePool {
                Foundation.kill(self.process.processIdentifier, SIGKILL)
                self.process.waitUntilExit()
            }
        }

        /// Sends SIGTERM; true when the server then stops by itself within
        /// 10 s with status 0 (else it is killed, so that nothing hangs).
        @discardableResult
        func terminate() async -> Bool {
            await offThePool { self.terminateBlocking() }
        }

        private func terminateBlocking() -> Bool {
            process.terminate()
            let stopped = exited.wait(timeout: .now() + .seconds(10)) == .success
            if !stopped { Foundation.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()  // also lets Foundation release the process
            return stopped && process.terminationReason == .exit && process.terminationStatus == 0
        }
    }

    static func temporaryFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("live-server-\(UUID().uuidString).json").path
    }

    @Test("every acknowledged write survives a SIGKILL; a clean stop folds the journal into the file")
    func killAndRestart() async throws {
        let file = Self.temporaryFile()
        defer { for suffix in ["", ".journal", ".tmp"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
        var child = try await Child.start(data: file)
        for i in 0..<100 {
            let r = try await request(child.port, "PUT", "/items/k\(i).json", body: #"{"n": \#(i)}"#)
            #expect(r.status == 200)
        }
        _ = try await request(child.port, "PATCH", "/items.json", body: #"{"k0": null, "k1/n": -1}"#)
        await child.kill()
        child = try await Child.start(data: file)
        var r = try await request(child.port, "GET", "/items.json?shallow=true")
        #expect(r.json?.objectValue?.count == 99)
        #expect(try await request(child.port, "GET", "/items/k1/n.json").json == -1)
        #expect(await child.terminate(), "SIGTERM stops the server cleanly")
        let journal = try FileManager.default.attributesOfItem(atPath: file + ".journal")[.size] as? Int
        #expect(journal == 0, "a clean stop empties the journal")
        child = try await Child.start(data: file)
        r = try await request(child.port, "GET", "/items/k99.json")
        #expect(r.json == json(#"{"n": 99}"#))
        #expect(await child.terminate(), "SIGTERM stops the server cleanly")
    }

    @Test("SIGTERM sent the moment the URL is read stops the server cleanly, every time")
    func terminateAtOnce() async throws {
        for round in 0..<10 {
            let file = Self.temporaryFile()
            defer { for suffix in ["", ".journal", ".tmp"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
            let child = try await Child.start(data: file)
            #expect(await child.terminate(), "round \(round)")
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
            #expect(try await request(server.port, "GET", "/seed.json").json == json(#"{"a": 1, "b": 2}"#))
            _ = try await request(server.port, "PUT", "/seed/d.json", body: "4")
        }
        try await withServer({ $0.dataFile = file }) { server in
            let r = try await request(server.port, "GET", "/seed.json")
            #expect(r.json == json(#"{"a": 1, "b": 2, "d": 4}"#))
        }
    }

    @Test("shutting down without writes leaves the data file untouched; after a write it holds the new snapshot")
    func shutdownCompactsOnlyWrites() async throws {
        let file = Self.temporaryFile()
        defer { for suffix in ["", ".journal", ".tmp"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
        // Plain JSON with spacing and a null: the server would write it back
        // compact and without the null.
        let original = #"{ "seed": {"a": 1, "gone": null} }"#
        try original.write(toFile: file, atomically: true, encoding: .utf8)
        try await withServer({ $0.dataFile = file }) { server in
            let read = try await request(server.port, "GET", "/seed.json")
            #expect(read.json == json(#"{"a": 1}"#))
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == original)
        try await withServer({ $0.dataFile = file }) { server in
            _ = try await request(server.port, "PUT", "/seed/b.json", body: "2")
        }
        let saved = try String(contentsOfFile: file, encoding: .utf8)
        #expect(try JSONValue(parsingUTF8: Array(saved.utf8)) == json(#"{"seed": {"a": 1, "b": 2}}"#))
        #expect(try String(contentsOfFile: file + ".journal", encoding: .utf8).isEmpty)
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
