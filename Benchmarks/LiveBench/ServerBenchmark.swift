// ServerBenchmark.swift — LiveServer on loopback: small writes per second
// with 0, 10 and 100 streaming listeners, and write-to-event latency.

import Foundation
import LiveServer

enum ServerBenchmark {
    struct Figures {
        var writesPerSecond: Double
        var medianLatency: Double   // seconds
        var p99Latency: Double
        var eventsSeen: Int
    }

    /// `writes` PUTs of a small number over `connections` keep-alive
    /// connections (`depth` requests in flight on each), with `listeners`
    /// streams on the written location, each read by one poll loop. The
    /// written value is the send time, so every event carries its latency.
    ///
    /// With `spread`, stream i listens at `/s/i` instead, and each write
    /// lands below one of them: a write concerns one stream of the many.
    static func run(writes: Int, listeners: Int, connections: Int = 4, depth: Int = 16,
                    spread: Bool = false) async throws -> Figures {
        let server = try await LiveServer.start()
        defer { Task { try? await server.shutdown() } }
        let origin = DispatchTime.now().uptimeNanoseconds
        let now: @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds - origin }

        let streams = try (0..<listeners).map { _ in try BenchSocket(port: server.port) }
        for (i, stream) in streams.enumerated() {
            let location = spread ? "/s/\(i)" : "/w"
            try stream.send("GET \(location).json HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        }
        let reader = StreamReader(streams, expected: spread ? writes : writes * listeners, clock: now)
        let readerThread = Thread { reader.run() }
        readerThread.start()
        try await Task.sleep(for: .milliseconds(300)) // the first puts arrive

        let start = now()
        let group = DispatchGroup()
        let failures = Counter()
        for c in 0..<connections {
            let share = writes / connections + (c < writes % connections ? 1 : 0)
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    try BenchSocket(port: server.port).pipeline(count: share, depth: depth) { i in
                        let target = spread ? "/s/\((c + i * connections) % listeners)/v" : "/w/\(c)-\(i % 64)"
                        return BenchSocket.request("PUT", target + ".json", body: String(now()))
                    }
                } catch {
                    failures.add(1)
                }
            }.start()
        }
        group.wait()
        let seconds = Double(now() - start) / 1e9
        reader.waitUntilDone(timeout: 30)
        let latencies = reader.latencies.sorted()
        func quantile(_ q: Double) -> Double {
            latencies.isEmpty ? .nan : Double(latencies[min(latencies.count - 1, Int(Double(latencies.count) * q))]) / 1e9
        }
        if failures.value > 0 { print("  (\(failures.value) writer connections failed)") }
        return Figures(writesPerSecond: Double(writes) / seconds, medianLatency: quantile(0.5),
                       p99Latency: quantile(0.99), eventsSeen: latencies.count)
    }
}

/// A thread-safe count.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add(_ n: Int) { lock.lock(); count += n; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
