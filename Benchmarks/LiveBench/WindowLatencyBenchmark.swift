// WindowLatencyBenchmark.swift — LiveServer write latency on a large
// location with limited query listeners (a chat room's "last n messages").

import Foundation
import LiveServer

extension ServerBenchmark {
    /// The median round trip of `writes` PUTs, one at a time, each setting
    /// the numeric `score` of a random child of a location of `children`
    /// children, while `listeners` streams listen to
    /// `orderBy="score"&limitToLast=n` there (each drained by one reader),
    /// `n` taking `distinct` values (10, 11, …) among them.
    static func windowWriteLatency(children: Int, listeners: Int, distinct: Int = 1, writes: Int) async throws -> Double {
        let server = try await LiveServer.start()
        defer { Task { try? await server.shutdown() } }
        var rng = SystemRandomNumberGenerator()
        let writer = try BenchSocket(port: server.port)
        try writer.fillRoom(children: children) { _ in Int.random(in: 0..<1_000_000, using: &rng) }

        let streams = try (0..<listeners).map { _ in try BenchSocket(port: server.port) }
        for (i, stream) in streams.enumerated() {
            let limit = 10 + i % max(1, distinct)
            try stream.send("GET /room.json?orderBy=%22score%22&limitToLast=\(limit) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        }
        let drain = StreamDrain(streams)
        let drainThread = Thread { drain.run() }
        drainThread.start()
        drain.waitForFirstPuts()

        var times: [Double] = []
        times.reserveCapacity(writes)
        let clock = ContinuousClock()
        for _ in 0..<writes {
            let child = Int.random(in: 0..<children, using: &rng)
            let value = "{\"score\":\(Int.random(in: 0..<1_000_000, using: &rng)),\"text\":\"m\"}"
            let request = "PUT /room/c\(child).json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(value.utf8.count)\r\n\r\n\(value)"
            times.append(try clock.measure {
                try writer.send(request)
                try writer.readResponse()
            }.inSeconds)
        }
        drain.stop()
        return Timing.median(times)
    }
}

extension BenchSocket {
    /// Writes `/room`: `children` children `c<i>`, each `{"score": score(i), "text": "m"}`.
    func fillRoom(children: Int, score: (Int) -> Int) throws {
        var body = "{"
        body.reserveCapacity(children * 32)
        for i in 0..<children {
            if i > 0 { body += "," }
            body += "\"c\(i)\":{\"score\":\(score(i)),\"text\":\"m\"}"
        }
        body += "}"
        try send("PUT /room.json?print=silent HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        try readResponse(status: "204")
    }
}

/// Reads and drops what streams send, so that no listener falls behind;
/// tells when every stream has had its first `put`.
final class StreamDrain: @unchecked Sendable {
    private let sockets: [BenchSocket]
    private let lock = NSLock()
    private var stopped = false
    private var started: Set<Int> = []

    init(_ sockets: [BenchSocket]) { self.sockets = sockets }

    func run() {
        var fds = sockets.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        let marker = Array("event: put".utf8)
        while !isStopped && !sockets.isEmpty {
            guard poll(&fds, nfds_t(fds.count), 100) > 0 else { continue }
            for (i, entry) in fds.enumerated() where entry.revents != 0 {
                guard (try? sockets[i].fill()) == true else { fds[i].fd = -1; continue }
                let bytes = sockets[i].take()
                if bytes.firstRange(of: marker) != nil {
                    lock.lock(); started.insert(i); lock.unlock()
                }
            }
        }
    }

    /// Blocks until every stream had a `put` (at most 120 s).
    func waitForFirstPuts() {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            lock.lock(); let count = started.count; lock.unlock()
            if count == sockets.count { return }
            usleep(10_000)
        }
    }

    func stop() { lock.lock(); stopped = true; lock.unlock() }

    private var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }
}
