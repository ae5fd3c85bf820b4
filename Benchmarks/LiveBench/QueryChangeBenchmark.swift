// QueryChangeBenchmark.swift — what a loaded collection's main actor spends
// on a new query (setQuery) and on the next page (loadNextPage), over a
// server in this process, with 100 sections observed.

import Foundation
import LiveCollection
import LiveFirebase
import LiveModel
import LiveSections

@MainActor
enum QueryChangeBenchmark {
    struct Figures {
        /// setQuery to a query holding the same children (a bound below
        /// every one): until it returns, and its longest main-actor stall.
        var sameSeconds: Double
        var sameStall: Double
        /// setQuery to a query holding the first half of them.
        var halfSeconds: Double
        var halfStall: Double
        /// setQuery to another order (by key) with a bound: some of the
        /// half go, the rest are reordered.
        var reorderSeconds: Double
        var reorderStall: Double
        /// loadNextPage from half of the children to all of them
        /// (mode paged, pages of half).
        var pageSeconds: Double
        var pageStall: Double
    }

    static func run(children: Int) async throws -> Figures {
        let server = try await FirebaseBenchmark.server(children: children)
        defer { Task { try? await server.shutdown() } }
        let reference = try DatabaseReference(url: server.url, path: "/items")
        let probe = StallProbe()
        let ordered = DatabaseQuery(order: .child("s"))

        let collection = try FirebaseCollection(reference: reference, query: ordered, mode: .all,
                                                dataSource: DecodingDataSource<BenchChild>())
        defer { collection.stop() }
        let sections = sectioned(collection)
        try await collection.start()
        let (sameSeconds, sameStall) = try await timed(probe) {
            try await collection.setQuery(ordered.starting(at: .number(-1)))
        }
        guard sections.counts.reduce(0, +) == children else { throw BenchError("same query: \(sections.counts)") }
        let (halfSeconds, halfStall) = try await timed(probe) {
            try await collection.setQuery(ordered.ending(at: .number(Double(children / 2 - 1))))
        }
        guard sections.counts.reduce(0, +) == children / 2 else { throw BenchError("half: \(sections.counts)") }
        let (reorderSeconds, reorderStall) = try await timed(probe) {
            try await collection.setQuery(DatabaseQuery(order: .key).ending(at: .string("k\(children / 2 - 1)")))
        }
        let byKey = (0..<children).filter { "k\($0)" <= "k\(children / 2 - 1)" }.count
        guard sections.counts.reduce(0, +) == byKey else { throw BenchError("by key: \(sections.counts)") }

        let paged = try FirebaseCollection(reference: reference, query: ordered, mode: .paged(size: children / 2),
                                           dataSource: DecodingDataSource<BenchChild>())
        defer { paged.stop() }
        let pagedSections = sectioned(paged)
        try await paged.start()
        let (pageSeconds, pageStall) = try await timed(probe) { _ = try await paged.loadNextPage() }
        guard pagedSections.counts.reduce(0, +) == children else { throw BenchError("page: \(pagedSections.counts)") }
        return Figures(sameSeconds: sameSeconds, sameStall: sameStall, halfSeconds: halfSeconds, halfStall: halfStall,
                       reorderSeconds: reorderSeconds, reorderStall: reorderStall,
                       pageSeconds: pageSeconds, pageStall: pageStall)
    }

    private static func sectioned(_ collection: FirebaseCollection<DecodingDataSource<BenchChild>>)
        -> SectionedCollection<BenchChild, Int> {
        SectionedCollection(collection.collection) { child in
            child.identifier.string.utf8.reduce(0) { $0 &+ Int($1) } % 100
        }
    }

    /// How long `body` takes, and the longest main-actor stall meanwhile.
    private static func timed(_ probe: StallProbe, _ body: () async throws -> Void) async throws
        -> (seconds: Double, stall: Double) {
        probe.start()
        let start = ContinuousClock.now
        try await body()
        let seconds = start.duration(to: .now).inSeconds
        return (seconds, probe.stop())
    }
}
