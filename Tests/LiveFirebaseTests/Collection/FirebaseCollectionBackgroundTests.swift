// FirebaseCollectionBackgroundTests.swift — a first load is indexed and
// decoded away from the main actor, and taken in one step.

import Foundation
@testable import LiveFirebase
import LiveCollection
import LiveModel
import LiveSections
import LiveServer
import Testing

/// The keys of the detached preparations, in the order they ran.
final class PreparationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var keys: [String] = []

    func record(_ key: String) { lock.withLock { keys.append(key) } }

    var entries: [String] { lock.withLock { keys } }
}

/// Holds a detached preparation until the test lets it go.
final class PreparationGate: @unchecked Sendable {
    private let lock = NSLock()
    private let release = DispatchSemaphore(value: 0)
    private var hasArrived = false

    private var timedOut = false

    /// Called by the preparation: notes its arrival and waits to be let go.
    /// (The bound only keeps a broken build from hanging: a preparation on
    /// the main actor would wait for the main actor.)
    func arriveAndWait() {
        lock.withLock { hasArrived = true }
        if release.wait(timeout: .now() + .seconds(300)) == .timedOut { lock.withLock { timedOut = true } }
    }

    var arrived: Bool { lock.withLock { hasArrived } }
    var waitTimedOut: Bool { lock.withLock { timedOut } }

    func open() { release.signal() }
}

/// Decodes like ``DecodingDataSource``, logging each detached preparation; with a gate, the preparation of the child `gate` waits
/// at it.
@MainActor
final class LoggingSource: ModelDataSource {
    typealias Model = RawChild
    let log = PreparationLog()
    let gate: PreparationGate?
    init(gate: PreparationGate? = nil) { self.gate = gate }

    func prepareNow(_ snapshot: Snapshot, current: RawChild?) throws -> Preparation<RawChild>? {
        .model(try RawChild(snapshot: snapshot))
    }

    func prepare(_ snapshot: Snapshot, current: RawChild?) async throws -> Preparation<RawChild> {
        .model(try RawChild(snapshot: snapshot))
    }

    var detachedPreparation: (@Sendable (Snapshot) throws -> Preparation<RawChild>)? {
        let log = self.log, gate = self.gate
        return { snapshot in
            log.record(snapshot.key?.string ?? "")
            if snapshot.key == "gate" { gate?.arriveAndWait() }
            return .model(try RawChild(snapshot: snapshot))
        }
    }
}

// Serialized: a test holding a preparation at its gate blocks one of the
// cooperative pool's threads, and there may be no more than two.
@MainActor
@Suite("FirebaseCollection away from the main actor: first loads, new queries, pages", .serialized)
struct FirebaseCollectionBackgroundTests {
    func make(_ mode: LoadMode, _ source: LoggingSource) throws -> FirebaseCollection<LoggingSource> {
        let reference = try DatabaseReference(url: "http://127.0.0.1:9", path: "/items")
        return try FirebaseCollection(reference: reference, query: DatabaseQuery(order: .child("s")), mode: mode,
                                      dataSource: source, opener: .offline)
    }

    /// Sends a whole value holding the child `gate` and returns once its
    /// preparation waits at `gate`, with the put's task (it ends after the
    /// gate opens). Fails if the value was applied without a detached
    /// preparation.
    func putHeld(at gate: PreparationGate, into c: FirebaseCollection<LoggingSource>) async throws
        -> Task<Void, any Error> {
        var putDone = false
        let put = Task { @MainActor in
            try await c.receive(.put, at: .root, json: #"{"a": {"s": 3}, "gate": {"s": 1}}"#)
            putDone = true
        }
        while !gate.arrived && !putDone { await Task.yield() }
        try #require(gate.arrived, "the put was applied without its detached preparation")
        return put
    }

    @Test("modes all and paged: the first value is prepared by the detached preparation and arrives as one batch",
          arguments: [LoadMode.all, .paged(size: 2)])
    func preparedAway(mode: LoadMode) async throws {
        let source = LoggingSource()
        let c = try make(mode, source)
        let recorder = CollectionRecorder()
        let token = c.collection.addObserver(recorder)
        defer { token.cancel() }
        var events: [String] = []
        let observation = c.observeChildEvents { events.append("\($0.kind.rawValue) \($0.key)") }
        defer { observation.cancel() }
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 3}, "b": {"s": 1}, "c": {"s": 2}}"#)
        let shown = mode == .all ? ["b", "c", "a"] : ["b", "c"]
        // Each child shown was prepared once, away from the main actor (a
        // whole value in the document's order, a page in query order).
        #expect(source.log.entries.sorted() == shown.sorted())
        #expect(c.collection.models.map(\.identifier.string) == shown)
        #expect(recorder.log.first == "start" && recorder.log.last == "end" && recorder.batches.count == 1)
        #expect(recorder.batches.first?.inserted == Array(shown.indices))
        #expect(events == shown.map { "child_added \($0)" })
        #expect(c.status == .live && c.firstLoad?.children == shown.count)
        #expect(c.firstLoad?.observers == .zero, "no observer had work on the load")
    }

    @Test("mode live: cached children are prepared away from the main actor and shown as one batch")
    func liveCachedPreparedAway() async throws {
        let cache = CollectionCache(directory: FirebaseCollectionCacheTests.directory())
        try await FirebaseCollectionCacheTests.saved(cache, FirebaseCollectionSetQueryTests.value(5))
        let source = LoggingSource()
        let c = try FirebaseCollection(reference: try DatabaseReference(url: "http://127.0.0.1:9", path: "/items"),
                                       query: DatabaseQuery(order: .child("s")), mode: .live, dataSource: source,
                                       opener: .offline, cache: cache)
        defer { c.stop() }
        let watched = WatchedSections(c.collection)
        let start = Task { try await c.start() }
        while c.status != .cached { await Task.yield() }
        #expect(c.collection.models.map(\.identifier.string) == ["k0", "k1", "k2", "k3", "k4"])
        #expect(Set(source.log.entries) == ["k0", "k1", "k2", "k3", "k4"], "not prepared by the detached preparation")
        #expect(watched.takeStages().count == 1)
        try await c.receive(.put, at: .root, json: FirebaseCollectionSetQueryTests.value(5))
        try await start.value
        #expect(c.status == .live)
        #expect(watched.takeStages().isEmpty, "the server's value changed nothing")
    }

    @Test("a filter set while the first value is prepared applies once it is in")
    func filterSetMeanwhile() async throws {
        let gate = PreparationGate()
        let c = try make(.all, LoggingSource(gate: gate))
        let put = try await putHeld(at: gate, into: c)
        c.setFilter { $0.key != "a" }
        gate.open()
        try await put.value
        #expect(!gate.waitTimedOut)
        #expect(c.collection.models.map(\.identifier.string) == ["gate"])
        // Changes that follow are filtered too.
        try await c.receive(.put, at: DatabasePath("/a/s"), json: "0")
        #expect(c.collection.models.map(\.identifier.string) == ["gate"])
    }

    @Test("a value applied while the first one is prepared wins: the prepared one is dropped and applied after it")
    func changedMeanwhile() async throws {
        let gate = PreparationGate()
        let c = try make(.all, LoggingSource(gate: gate))
        let recorder = CollectionRecorder()
        let token = c.collection.addObserver(recorder)
        defer { token.cancel() }
        let put = try await putHeld(at: gate, into: c)
        // The main actor is free while the put is prepared (its preparation
        // held at the gate): a patch applies meanwhile.
        try await c.receive(.patch, at: .root, json: #"{"x": {"s": 0}}"#)
        #expect(c.collection.models.map(\.identifier.string) == ["x"])
        gate.open()
        try await put.value
        #expect(!gate.waitTimedOut)
        // The whole value came last: it replaced what the patch added.
        #expect(c.collection.models.map(\.identifier.string) == ["gate", "a"])
        #expect(recorder.log.first == "insert x@0" && recorder.log.last == "end", "\(recorder.log)")
        #expect(c.status == .live)
    }

    @Test("stopped while the first value is prepared: the value is dropped and the collection stays stopped")
    func stoppedMeanwhile() async throws {
        let gate = PreparationGate()
        let c = try make(.all, LoggingSource(gate: gate))
        let starting = Task { @MainActor in try await c.start() }
        while c.status != .connecting { await Task.yield() }
        let put = try await putHeld(at: gate, into: c)
        c.stop()
        gate.open()
        try await put.value
        #expect(!gate.waitTimedOut)
        #expect(c.collection.isEmpty && c.status == .stopped && c.firstLoad == nil)
        await #expect(throws: DatabaseError.stopped) { try await starting.value }
    }

    @Test("an observer of child events added while the first value is prepared is told its child_added events")
    func observerAddedMeanwhile() async throws {
        let gate = PreparationGate()
        let c = try make(.all, LoggingSource(gate: gate))
        // Nobody observes child events when the load begins: they are left out.
        let put = try await putHeld(at: gate, into: c)
        var events: [String] = []
        let observation = c.observeChildEvents { event in
            events.append("\(event.kind.rawValue) \(event.key) after \(event.previousKey?.string ?? "-")")
        }
        defer { observation.cancel() }
        gate.open()
        try await put.value
        #expect(!gate.waitTimedOut)
        #expect(events == ["child_added gate after -", "child_added a after gate"])
    }

    @Test("mode live: the first value is prepared away from the main actor, then added child by child, in order")
    func liveStaysSequential() async throws {
        let source = LoggingSource()
        let c = try make(.live, source)
        let recorder = CollectionRecorder()
        let token = c.collection.addObserver(recorder)
        defer { token.cancel() }
        var events: [String] = []
        let observation = c.observeChildEvents { events.append("\($0.kind.rawValue) \($0.key)") }
        defer { observation.cancel() }
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 3}, "b": {"s": 1}}"#)
        #expect(source.log.entries.sorted() == ["a", "b"])
        #expect(recorder.log == ["start", "insert b@0", "insert a@1", "end"], "\(recorder.log)")
        #expect(events == ["child_added b", "child_added a"])
        #expect(c.status == .live)
    }

    @Test("mode live: changes that come while a large first value is added child by child end in the view's rows")
    func liveLoadInterleaved() async throws {
        let source = LoggingSource()
        let c = try make(.live, source)
        // The main actor runs other work every 64 children.
        c.liveLoadSlice = .zero
        let n = 1_000
        // The rows as a list view holds them, from the sequential changes.
        var mirror: [Key] = []
        var changed = false
        var inserted = Set<Key>()
        let observer = SequentialObserver { change in
            switch change {
            case .inserted(let m, let at):
                mirror.insert(m.identifier, at: at)
                inserted.insert(m.identifier)
            case .removed(_, let at): mirror.remove(at: at)
            case .updated: break
            case .moved(let m, let from, let to):
                mirror.remove(at: from)
                mirror.insert(m.identifier, at: to)
            }
            guard !changed else { return }
            changed = true
            // Queued on the main actor: they run between two chunks of the load.
            Task { @MainActor in
                try await c.receive(.put, at: DatabasePath("k\(n - 1)"), json: "null")            // not added yet: never shown
                try await c.receive(.put, at: DatabasePath("k\(n - 2)/s"), json: "-1")            // not added yet: first, changed
                try await c.receive(.put, at: "k0/s", json: "\(n * 10)")             // added: moves last
                try await c.receive(.put, at: "new", json: #"{"s": 5.5}"#)
            }
        }
        let token = c.collection.addObserver(observer)
        defer { token.cancel() }
        var members: [String] = []
        for i in 0..<n { members.append(#""k\#(i)": {"s": \#(i)}"#) }
        try await c.receive(.put, at: .root, json: "{" + members.joined(separator: ",") + "}")
        await c.feed.settle()
        var expected = (0..<(n - 1)).map { Key(unchecked: "k\($0)") }
        expected.removeAll { $0 == "k0" || $0 == Key(unchecked: "k\(n - 2)") }
        expected.insert(Key(unchecked: "k\(n - 2)"), at: 0)
        expected.insert("new", at: 6)
        expected.append("k0")
        let shown = c.collection.models.map(\.identifier)
        #expect(shown == expected, "\(shown.prefix(8)) … \(shown.suffix(3))")
        #expect(mirror == shown, "the sequential changes rebuild the rows")
        // The changes ran between two chunks: the child removed before its
        // turn was never shown.
        #expect(!inserted.contains(Key(unchecked: "k\(n - 1)")))
        #expect(c.status == .live)
    }
    @Test("mode live: a new query that cuts a first load short, then fails, brings the whole first value back")
    func liveLoadCutByFailedQuery() async throws {
        let c = try make(.live, LoggingSource())
        c.liveLoadSlice = .zero
        var queryChange: Task<Void, Never>?, stop: Task<Void, Never>?
        let observer = SequentialObserver { _ in
            guard queryChange == nil else { return }
            // Between two slices of the load: a new query, then a stop
            // while it waits for its value (it fails with `stopped`).
            queryChange = Task { @MainActor in try? await c.setQuery(DatabaseQuery(order: .key)) }
            stop = Task { @MainActor in
                // Once the query change waits for its value (tasks need not
                // start in the order they were made).
                for _ in 0..<10_000 where c.replacing == nil { await Task.yield() }
                c.stop()
            }
        }
        let token = c.collection.addObserver(observer)
        defer { token.cancel() }
        var members: [String] = []
        for i in 0..<1_000 { members.append(#""k\#(i)": {"s": \#(i)}"#) }
        try await c.receive(.put, at: .root, json: "{" + members.joined(separator: ",") + "}")
        await stop?.value
        await queryChange?.value
        await c.feed.settle()
        // The query change failed: its stream was stopped.
        #expect(c.query == DatabaseQuery(order: .child("s")))
        #expect(c.collection.models.map(\.identifier) == (0..<1_000).map { Key(unchecked: "k\($0)") })
    }

}

/// Hands each single change to a closure.
final class SequentialObserver: SortedCollectionObserver {
    typealias Model = LoggingSource.Model
    let handler: (SequentialChange<Model>) -> Void
    init(_ handler: @escaping (SequentialChange<Model>) -> Void) { self.handler = handler }
    func collection(_ collection: SortedCollection<Model>, didChange change: SequentialChange<Model>) { handler(change) }
}

/// Counts the calls of a section closure, from any executor.
final class SectionCalls: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

@MainActor
@Suite("FirebaseCollection's first load into sections, against LiveServer", .serialized)
struct FirebaseCollectionSectionedLoadTests {
    /// A child's section: its `g`.
    nonisolated static func group(_ child: RawChild) -> Double {
        if case .number(let g)? = child.dictionary["g"] { return g }
        return -1
    }

    @Test("sections on the collection are built beside the first load, not on the main actor, and stay live")
    func sectionedLoad() async throws {
        var rng = SplitMix64(seed: testSeed())
        let server = try await LiveServer.start(LiveServerConfiguration())
        do {
            let reference = try DatabaseReference(url: server.url, path: "/items")
            let client = DatabaseClient(reference)
            var members: [DatabasePath: JSONValue] = [:]
            for i in 0..<300 {
                members[try DatabasePath([Key(i)])] = .object(["s": .number(Double(Int.random(in: 0..<20, using: &rng))),
                                                  "g": .number(Double(Int.random(in: 0..<7, using: &rng)))])
            }
            try await client.update(members)
            let c = try FirebaseCollection(reference: reference, query: DatabaseQuery(order: .child("s")), mode: .all,
                                           dataSource: DecodingDataSource<RawChild>())
            let calls = SectionCalls()
            let sections = SectionedCollection(c.collection) { (child: RawChild) -> Double in
                calls.add()
                return Self.group(child)
            }
            var stages: [[BatchStage]] = []
            let token = sections.observeStages { stages.append($0) }
            defer { token.cancel() }
            try await c.start()
            #expect(c.collection.count == 300)
            #expect(calls.value == 300, "each child sectioned once, beside the load")
            #expect(try #require(c.firstLoad).observers > .zero, "the sections' share of the load is its own phase")
            #expect(stages == [[BatchStage(insertedSections: Array(0..<sections.numberOfSections))]])
            let reference2 = SectionedCollection(c.collection) { Self.group($0) }
            #expect(sections.snapshot() == reference2.snapshot())

            // Live afterwards: a write moves a child to another section.
            try await client.set(.object(["s": .number(100), "g": .number(50)]), at: DatabasePath([Key(0)]))
            let moved = await eventually { sections.path(of: Key(0))?.section == sections.numberOfSections - 1 }
            #expect(moved)
            #expect(sections.snapshot() == reference2.snapshot())
            c.stop()
        } catch {
            try? await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }
}
