// CacheBenchmark.swift — a cache-first start against a start from the
// network, in the same run: the time to the first batch a list view gets.

import Foundation
import LiveCollection
import LiveFirebase
import LiveModel
import LiveServer

@MainActor
enum CacheBenchmark {
    struct Figures {
        /// start() to the first batch, from the server over loopback.
        var networkSeconds: Double
        /// start() to the first batch, from the disk cache.
        var cacheSeconds: Double
        /// From the cached batch to the server's value applied (nothing changed).
        var confirmSeconds: Double
        /// The longest main-actor stall while the server's value was applied.
        var confirmStallSeconds: Double
        /// saveCache(), and the file's size.
        var saveSeconds: Double
        var fileBytes: Int
        /// Then 100 children changed one by one: saveCache() and the bytes
        /// it added to the file, per changed child.
        var changedSaveSeconds: Double
        var bytesPerChangedChild: Double
        /// start() to the first batch of a second collection of the same
        /// location in another order, from a shared cache (the first one
        /// loaded), and the longest main-actor stall from its start() until
        /// it is live.
        var sharedSeconds: Double
        var sharedStallSeconds: Double
    }

    static func run(children: Int) async throws -> Figures {
        let server = try await FirebaseBenchmark.server(children: children)
        defer { Task { try? await server.shutdown() } }
        let directory = NSTemporaryDirectory() + "live-bench-cache-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = CollectionCache(directory: directory, limitBytes: 1 << 40)
        let reference = try DatabaseReference(url: server.url, path: "/items")
        let shared = SharedCache()
        func make(order: QueryOrder = .child("s"), sharing: Bool = false) throws
            -> FirebaseCollection<DecodingDataSource<BenchChild>> {
            try FirebaseCollection(reference: reference, query: DatabaseQuery(order: order), mode: .all,
                                   dataSource: DecodingDataSource<BenchChild>(), cache: sharing ? nil : cache,
                                   sharedCache: shared)
        }

        // From the network, then saved.
        let network = try make()
        let networkSeconds = try await timeToFirstBatch(network)
        // A second screen of the same location, in key order, while the
        // first holds it: from the shared cache.
        let sibling = try make(order: .key, sharing: true)
        var sharedShown = false
        let sharedWatch = sibling.observeStatus { if $0 == .cached { sharedShown = true } }
        let sharedProbe = StallProbe()
        sharedProbe.start()
        let sharedSeconds = try await timeToFirstBatch(sibling)
        let sharedStall = sharedProbe.stop()
        sharedWatch.cancel()
        guard sharedShown else { throw BenchError("the second collection did not show the shared children first") }
        guard sibling.collection.count == children, sibling.status == .live else {
            throw BenchError("the shared start holds \(sibling.collection.count) of \(children) children, \(sibling.status)")
        }
        sibling.stop()
        let saveStart = DispatchTime.now().uptimeNanoseconds
        try await network.saveCache()
        let saveSeconds = Double(DispatchTime.now().uptimeNanoseconds - saveStart) / 1e9
        network.stop()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".cache") }
        let fileBytes = try files.reduce(0) {
            $0 + ((try FileManager.default.attributesOfItem(atPath: directory + "/" + $1)[.size] as? Int) ?? 0)
        }

        // From the cache: the first batch, then the server's confirmation.
        let cached = try make()
        var cachedAt: UInt64 = 0
        let probe = StallProbe()
        let watch = cached.observeStatus { status in
            guard status == .cached else { return }
            cachedAt = DispatchTime.now().uptimeNanoseconds
            probe.start()
        }
        defer { watch.cancel() }
        let cacheSeconds = try await timeToFirstBatch(cached)
        let confirmStall = probe.stop()
        guard cachedAt != 0 else { throw BenchError("the second start did not show the cached children") }
        let confirmSeconds = Double(DispatchTime.now().uptimeNanoseconds - cachedAt) / 1e9
        guard cached.collection.count == children, cached.status == .live else {
            throw BenchError("the cached start holds \(cached.collection.count) of \(children) children, \(cached.status)")
        }

        // 100 children changed one by one, then saved.
        try await cached.saveCache()
        let file = directory + "/" + files[0]
        let before = try FileManager.default.attributesOfItem(atPath: file)[.size] as! Int
        for i in 0..<100 {
            try await cached.receive(.put, at: DatabasePath("/k\(i * (children / 100))/t"), json: #""changed \#(i)""#)
        }
        let changedStart = DispatchTime.now().uptimeNanoseconds
        try await cached.saveCache()
        let changedSaveSeconds = Double(DispatchTime.now().uptimeNanoseconds - changedStart) / 1e9
        let after = try FileManager.default.attributesOfItem(atPath: file)[.size] as! Int
        cached.stop()
        return Figures(networkSeconds: networkSeconds, cacheSeconds: cacheSeconds, confirmSeconds: confirmSeconds,
                       confirmStallSeconds: confirmStall, saveSeconds: saveSeconds, fileBytes: fileBytes,
                       changedSaveSeconds: changedSaveSeconds, bytesPerChangedChild: Double(after - before) / 100,
                       sharedSeconds: sharedSeconds, sharedStallSeconds: sharedStall)
    }

    /// Starts `collection`; returns the seconds from start() to its first
    /// batch, once start() has returned (the server's value is in).
    private static func timeToFirstBatch(_ collection: FirebaseCollection<DecodingDataSource<BenchChild>>)
        async throws -> Double {
        var firstBatch: UInt64?
        let token = collection.collection.observeUpdates { _ in
            if firstBatch == nil { firstBatch = DispatchTime.now().uptimeNanoseconds }
        }
        defer { token.cancel() }
        let start = DispatchTime.now().uptimeNanoseconds
        try await collection.start()
        guard let firstBatch else { throw BenchError("no batch") }
        return Double(firstBatch - start) / 1e9
    }
}
