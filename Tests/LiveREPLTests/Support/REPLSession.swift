// REPLSession.swift — a running live-repl whose standard input stays open:
// commands are sent one at a time and its output lines are awaited, so a
// test sees what it prints while idle.

import Foundation
import LiveTestSupport
import Testing

/// A `live-repl` process driven through pipes (script mode, input kept open).
final class REPLSession: @unchecked Sendable {
    private let process = Process()
    private let input: Pipe
    private let lines: AsyncStream<String>
    private var iterator: AsyncStream<String>.AsyncIterator
    /// Every line printed so far (for failure messages).
    private(set) var transcript: [String] = []

    init(_ arguments: [String]) throws {
        process.executableURL = try REPLProcess.binary()
        process.arguments = arguments
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        self.lines = lines
        iterator = lines.makeAsyncIterator()
        let (input, output) = try ProcessLaunch.exclusively { [process] in
            let input = ProcessLaunch.pipe(), output = ProcessLaunch.pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            try process.run()
            return (input, output)
        }
        self.input = input
        let reader = output.fileHandleForReading
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    continuation.yield(String(decoding: pending[pending.startIndex..<end], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...end)
                }
            }
            if !pending.isEmpty { continuation.yield(String(decoding: pending, as: UTF8.self)) }
            continuation.finish()
        }
    }

    /// Sends one command line.
    func send(_ line: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// The next line printed, waiting at most `seconds` (a bound for a hung
    /// process, not a way to wait for something).
    func next(within seconds: Double = 20) async throws -> String {
        let deadline = Task {
            try await Task.sleep(for: .seconds(seconds))
            self.process.terminate()
        }
        defer { deadline.cancel() }
        guard let line = await iterator.next() else {
            throw REPLTestError("live-repl ended (or hung for \(seconds) s); it printed:\n"
                                + transcript.joined(separator: "\n"))
        }
        transcript.append(line)
        return line
    }

    /// Sends `line` and returns the first line printed after it that is not
    /// a change from the server (those are returned in `between`).
    func command(_ line: String) async throws -> (reply: String, between: [String]) {
        try send(line)
        var between: [String] = []
        while true {
            let printed = try await next()
            if printed.contains(#""between":true"#) { between.append(printed) } else { return (printed, between) }
        }
    }

    /// Closes standard input and waits for the exit status (on a thread of
    /// its own, not the cooperative pool).
    func finish() async throws -> Int32 {
        try input.fileHandleForWriting.close()
        let process = self.process
        return await offThePool {
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
