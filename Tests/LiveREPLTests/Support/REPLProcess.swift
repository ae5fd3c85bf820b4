// REPLProcess.swift — runs the built live-repl binary in script mode.

import Foundation
import LiveModel
import LiveTestSupport
import Testing

/// The output of one run of `live-repl`.
struct REPLRun {
    let stdout: String
    let stderr: String
    let status: Int32

    var lines: [String] {
        var lines = stdout.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The lines of `--json` output that answer commands: without the
    /// changes that came between them (`"between": true`, such as a
    /// write's confirmation).
    var commandLines: [String] { lines.filter { !$0.contains(#""between":true"#) } }

    /// The states the `--json` output gave each write, in order.
    var writeStates: [Int: [String]] {
        var states: [Int: [String]] = [:]
        for line in lines {
            guard let value = try? JSONValue(parsing: line), case .array(let writes)? = value["writes"] else { continue }
            for write in writes {
                guard let id = write["id"]?.intValue, let state = write["state"]?.stringValue else { continue }
                states[id, default: []].append(state)
            }
        }
        return states
    }
}

enum REPLProcess {
    /// The built `live-repl`, next to the test executable.
    static func binary() throws -> URL {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = runner.deletingLastPathComponent()
        // On macOS the runner sits inside the .xctest bundle.
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("live-repl")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw REPLTestError("live-repl is not built next to \(runner.path): run `swift build --build-tests` first")
    }

    /// Runs `live-repl arguments` with `input` on standard input (not a
    /// terminal: script mode), and waits for it to end, off the cooperative
    /// pool.
    static func run(_ arguments: [String], input: String, environment: [String: String] = [:]) async throws -> REPLRun {
        try await offThePool { try runBlocking(arguments, input: input, environment: environment) }
    }

    private static func runBlocking(_ arguments: [String], input: String, environment: [String: String]) throws -> REPLRun {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let (stdin, stdout, stderr) = try ProcessLaunch.exclusively {
            let pipes = (ProcessLaunch.pipe(), ProcessLaunch.pipe(), ProcessLaunch.pipe())
            process.standardInput = pipes.0
            process.standardOutput = pipes.1
            process.standardError = pipes.2
            try process.run()
            return pipes
        }
        // Read both outputs while writing, so no pipe fills up; on threads
        // of their own, as the global queues share the cooperative pool's.
        let group = DispatchGroup()
        nonisolated(unsafe) var out = Data(), err = Data()
        group.enter()
        Thread { out = stdout.fileHandleForReading.readDataToEndOfFile(); group.leave() }.start()
        group.enter()
        Thread { err = stderr.fileHandleForReading.readDataToEndOfFile(); group.leave() }.start()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return REPLRun(stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
                       status: process.terminationStatus)
    }
}

struct REPLTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
