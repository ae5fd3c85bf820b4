// FirebaseBenchmark.swift — LiveFirebase end to end on loopback: a write at
// the server to a collection observer's callback (events per second and
// latency), and the initial load of a location over HTTP.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LiveCollection
import LiveFirebase
import LiveModel
import LiveSections
import LiveServer

/// A child of the benchmark: a score (the write time, in ns) and a title.
struct BenchChild: LiveModelProtocol, Codable, Sendable {
    var identifier: Key
    var s: Double
    var t: String
}

@MainActor
enum FirebaseBenchmark {
    struct Figures {
        var loadSeconds: Double      // FirebaseCollection.start() with mode .all
        var fetchSeconds: Double     // the same bytes with a plain GET (baseline)
        var eventsPerSecond: Double  // pipelined writes, observed
        var medianLatency: Double    // one write at a time
        var p99Latency: Double
        var changesPerSecond: Double // children changed by pipelined multi-path patches, through sections
        /// The longest main-actor stall (StallProbe) during the initial
        /// load, the pipelined writes and the pipelined patches, in seconds.
        var loadStall: Double
        /// The same load into a collection carrying 100 sections.
        var sectionedLoadStall: Double
        /// The same, in mode live (children added one by one), with 100 sections.
        var liveLoadStall: Double
        /// How long the main actor takes to release the loaded collection
        /// with its 100 sections, once stopped.
        var releaseSeconds: Double
        var eventsStall: Double
        var patchStall: Double
    }

    /// Children each multi-path patch of the grouped-throughput figure changes.
    nonisolated static let patchSize = 100

    /// A server in this process whose `/items` holds `children` children
    /// (`k<i>`: `s` = i and a title); the caller shuts it down.
    static func server(children: Int) async throws -> LiveServer {
        let server = try await LiveServer.start()
        var body = "{"
        for i in 0..<children { body += (i == 0 ? "" : ",") + #""k\#(i)":{"s":\#(i),"t":"title \#(i)"}"# }
        body += "}"
        let document = body
        try await blocking {
            let socket = try BenchSocket(port: server.port)
            try socket.send("PUT /items.json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(document.utf8.count)\r\n\r\n\(document)")
            try socket.readResponse()
        }
        return server
    }

    static func run(children: Int, writes: Int, pacedWrites: Int) async throws -> Figures {
        // The location: `children` children ordered by `s`.
        let server = try await server(children: children)
        defer { Task { try? await server.shutdown() } }
        let origin = DispatchTime.now().uptimeNanoseconds
        let now: @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds - origin }

        // Baseline: the same location's bytes with a plain GET.
        let url = try DatabaseURL(server.url).restURL(for: "/items", parameters: DatabaseQuery(order: .child("s")).streamParameters)
        let fetchStart = now()
        _ = try await PlatformHTTPTransport.shared.send(URLRequest(url: url))
        let fetchSeconds = Double(now() - fetchStart) / 1e9

        let reference = try DatabaseReference(url: server.url, path: "/items")
        let collection = try FirebaseCollection(reference: reference, query: DatabaseQuery(order: .child("s")),
                                                mode: .all, dataSource: DecodingDataSource<BenchChild>())
        let probe = StallProbe()
        probe.start()
        let loadStart = now()
        try await collection.start()
        let loadSeconds = Double(now() - loadStart) / 1e9
        let loadStall = probe.stop()
        guard collection.collection.count == children else {
            throw BenchError("loaded \(collection.collection.count) of \(children) children")
        }
        let (sectionedLoadStall, releaseSeconds) = try await sectionedLoad(reference, children: children, probe: probe,
                                                                           now: now)
        // The default mode: the children arrive one by one.
        let (liveLoadStall, _) = try await sectionedLoad(reference, children: children, probe: probe, now: now,
                                                         mode: .live)

        // Every observed update: its count, and the latency its value carries.
        let observed = UpdateCounter()
        var latencies: [UInt64] = []
        let token = collection.collection.observeUpdates { update in
            for model in update.movedModels + update.updatedModels + update.insertedModels {
                latencies.append(now() &- UInt64(model.s))
            }
            observed.increment()
        }
        defer { token.cancel() }

        // Throughput: writes pipelined on one connection, 16 in flight.
        let port = server.port
        probe.start()
        let throughputStart = now()
        // A thread of its own: the socket blocks, and the cooperative pool
        // must stay free for the stream.
        let failures = Counter()
        Thread {
            do {
                try BenchSocket(port: port).pipeline(count: writes) { i in
                    BenchSocket.request("PUT", "/items/k\(i % children)/s.json", body: String(now()))
                }
            } catch {
                failures.add(1)
            }
        }.start()
        try await observed.wait(for: writes, seconds: 60)
        if failures.value > 0 { throw BenchError("the writer failed") }
        let eventsPerSecond = Double(writes) / (Double(now() - throughputStart) / 1e9)
        let eventsStall = probe.stop()

        // Latency: one write at a time, waiting for its event.
        latencies.removeAll()
        let socket = try BenchSocket(port: port)
        for i in 0..<pacedWrites {
            let before = observed.count
            let value = String(now())
            try await blocking {
                try socket.send("PUT /items/k\(i % children)/s.json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(value.utf8.count)\r\n\r\n\(value)")
                try socket.readResponse()
            }
            try await observed.wait(for: before + 1, seconds: 10)
        }
        let sorted = latencies.sorted()
        func quantile(_ q: Double) -> Double {
            sorted.isEmpty ? .nan : Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]) / 1e9
        }
        let (changesPerSecond, patchStall) = try await patchThroughput(collection, port: port, children: children,
                                                                       writes: writes, probe: probe, now: now)
        collection.stop()
        return Figures(loadSeconds: loadSeconds, fetchSeconds: fetchSeconds, eventsPerSecond: eventsPerSecond,
                       medianLatency: quantile(0.5), p99Latency: quantile(0.99), changesPerSecond: changesPerSecond,
                       loadStall: loadStall, sectionedLoadStall: sectionedLoadStall, liveLoadStall: liveLoadStall,
                       releaseSeconds: releaseSeconds,
                       eventsStall: eventsStall, patchStall: patchStall)
    }

    /// The longest main-actor stall while the location loads into a
    /// collection that carries 100 sections; and how long the main actor
    /// then takes to release them, once stopped.
    private static func sectionedLoad(_ reference: DatabaseReference, children: Int, probe: StallProbe,
                                      now: @Sendable () -> UInt64, mode: LoadMode = .all) async throws
        -> (stall: Double, release: Double) {
        var collection: FirebaseCollection<DecodingDataSource<BenchChild>>? = try FirebaseCollection(
            reference: reference, query: DatabaseQuery(order: .child("s")), mode: mode,
            dataSource: DecodingDataSource<BenchChild>())
        var sections: SectionedCollection<BenchChild, Int>? = SectionedCollection(collection!.collection) { child in
            child.identifier.string.utf8.reduce(0) { $0 &+ Int($1) } % 100
        }
        let staged = sections!.observeStages { _ in }
        probe.start()
        try await collection!.start()
        let stall = probe.stop()
        collection!.stop()
        guard sections!.counts.reduce(0, +) == children else {
            throw BenchError("\(sections!.counts.reduce(0, +)) of \(children) children in the sections")
        }
        staged.cancel()
        // Whatever the stopped stream still holds goes first.
        for _ in 0..<10 { await Task.yield() }
        weak let releasedCollection = collection
        weak let releasedSections = sections
        let start = now()
        sections = nil
        collection = nil
        let seconds = Double(now() - start) / 1e9
        // Timed only if it happened here.
        guard releasedCollection == nil, releasedSections == nil else {
            throw BenchError("the sectioned load's collection outlived its release")
        }
        return (stall, seconds)
    }

    /// Child changes per second when the server receives multi-path patches
    /// of ``patchSize`` children each, 16 in flight, and the collection
    /// carries 100 sections whose stages are observed; and the longest
    /// main-actor stall while they stream in (the sections are made before).
    private static func patchThroughput(_ collection: FirebaseCollection<DecodingDataSource<BenchChild>>, port: Int,
                                        children: Int, writes: Int, probe: StallProbe,
                                        now: @escaping @Sendable () -> UInt64) async throws
        -> (changesPerSecond: Double, stall: Double) {
        let sections = SectionedCollection(collection.collection) { (child: BenchChild) in
            child.identifier.string.utf8.reduce(0) { $0 &+ Int($1) } % 100
        }
        // Counted by the sorted collection's updates: the sections apply the
        // same change in the same notification, before the next one is read.
        let changed = UpdateCounter()
        let staged = sections.observeStages { _ in }
        defer { staged.cancel() }
        let token = collection.collection.observeUpdates { update in
            for _ in 0..<(update.movedModels.count + update.updatedModels.count + update.insertedModels.count) {
                changed.increment()
            }
        }
        defer { token.cancel() }
        let patches = max(1, writes / patchSize)
        probe.start()
        let start = now()
        let failures = Counter()
        Thread {
            do {
                try BenchSocket(port: port).pipeline(count: patches) { p in
                    let first = (p * patchSize) % children
                    let members = (0..<patchSize).map { #""k\#((first + $0) % children)/s":\#(now())"# }
                    return BenchSocket.request("PATCH", "/items.json", body: "{" + members.joined(separator: ",") + "}")
                }
            } catch {
                failures.add(1)
            }
        }.start()
        let expected = patches * min(patchSize, children)
        try await changed.wait(for: expected, seconds: 120)
        let seconds = Double(now() - start) / 1e9
        let stall = probe.stop()
        if failures.value > 0 { throw BenchError("the patch writer failed") }
        return (Double(expected) / seconds, stall)
    }

    static func blocking(_ body: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global().async {
                do { try body(); done.resume() } catch { done.resume(throwing: error) }
            }
        }
    }
}

/// Counts observed updates and wakes one waiter when a count is reached,
/// so the benchmark waits without polling.
@MainActor
final class UpdateCounter {
    private(set) var count = 0
    private var target = Int.max
    private var waiter: CheckedContinuation<Void, any Error>?

    func increment() {
        count += 1
        if count >= target, let waiter {
            self.waiter = nil
            waiter.resume()
        }
    }

    /// Returns once `count` reaches `target`; throws after `seconds`.
    func wait(for target: Int, seconds: Double) async throws {
        if count >= target { return }
        let deadline = Task { [weak self] in
            try await Task.sleep(for: .seconds(seconds))
            guard let self, let waiter = self.waiter else { return }
            self.waiter = nil
            waiter.resume(throwing: BenchError("saw \(self.count) of \(target) events in \(seconds) s"))
        }
        defer { deadline.cancel() }
        try await withCheckedThrowingContinuation { continuation in
            self.target = target
            self.waiter = continuation
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
