// ListenerOpenBenchmark.swift — what opening a limited query stream costs
// the server when streams with the same query are already open there.

import Foundation
import LiveServer

extension ServerBenchmark {
    struct OpenFigures {
        /// Process CPU time, and time to the first `put`, for each stream
        /// opened, in order (seconds).
        var cpu: [Double]
        var wall: [Double]
    }

    /// Opens `streams` streams, one after the other, on
    /// `orderBy="score"&limitToLast=10` over a location of `children`
    /// children (the server in this process), each read to the end of its
    /// first `put` before the next opens.
    static func openLimitedStreams(children: Int, streams: Int) async throws -> OpenFigures {
        let server = try await LiveServer.start()
        defer { Task { try? await server.shutdown() } }
        try BenchSocket(port: server.port).fillRoom(children: children) { ($0 &* 7919) % 1_000_003 }

        var open: [BenchSocket] = []
        var figures = OpenFigures(cpu: [], wall: [])
        let clock = ContinuousClock()
        for _ in 0..<streams {
            let cpuBefore = processCPUSeconds()
            let started = clock.now
            let stream = try BenchSocket(port: server.port)
            try stream.send("GET /room.json?orderBy=%22score%22&limitToLast=10 HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            try stream.readFirstPut()
            figures.wall.append((clock.now - started).inSeconds)
            figures.cpu.append(processCPUSeconds() - cpuBefore)
            open.append(stream)
        }
        return figures
    }

    /// The CPU time this process has used, in seconds.
    static func processCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

extension BenchSocket {
    /// Blocks until a stream's first `put` event arrived whole.
    func readFirstPut() throws {
        let marker = Array("event: put\ndata: ".utf8), end = Array("\n\n".utf8)
        var seen: [UInt8] = []
        while true {
            guard try fill() else { throw POSIXError(.ECONNRESET) }
            seen += take()
            if let at = seen.firstRange(of: marker), seen[at.upperBound...].firstRange(of: end) != nil { return }
        }
    }
}
