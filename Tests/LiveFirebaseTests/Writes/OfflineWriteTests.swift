// OfflineWriteTests.swift — writes made offline or while the connection is
// lost: shown at once, kept in order (on disk with a cache), sent once
// when the connection is back.
import Foundation
@testable import LiveFirebase
import LiveSections
import LiveTestSupport
import Testing

/// Holds the collection's retries until a test releases them.
@MainActor
final class RetryGate {
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var watchers: [CheckedContinuation<Void, Never>] = []
    private(set) var waits = 0

    var wait: @Sendable (Duration) async -> Void {
        { _ in await self.hold() }
    }

    private func hold() async {
        waits += 1
        let woken = watchers
        watchers.removeAll()
        for watcher in woken { watcher.resume() }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Returns once `count` retries have waited in all.
    func waited(_ count: Int) async {
        while waits < count { await withCheckedContinuation { watchers.append($0) } }
    }

    /// Lets every retry waiting go.
    func release() {
        let woken = waiting
        waiting.removeAll()
        for continuation in woken { continuation.resume() }
    }
}

@MainActor
@Suite("FirebaseCollection offline writes", .timeLimit(.minutes(5)))
struct OfflineWriteTests {
    typealias Collection = FirebaseCollection<DecodingDataSource<RawChild>>

    static func make(_ gate: WriteGate, cache: CollectionCache? = nil) throws -> Collection {
        try LocalWriteTests.make(gate, cache: cache)
    }

    nonisolated static func directory() -> String {
        let path = NSTemporaryDirectory() + "live-writes-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("offline, writes show at once and wait; online, they are sent once each, in order")
    func offlineThenOnline() async throws {
        let gate = WriteGate()
        let c = try Self.make(gate)
        defer { c.stop() }
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 1}}"#)
        c.goOffline()
        #expect(c.isOffline)
        let first = try c.write(.set("/b", ["s": 2]))
        let second = try c.write(.remove("/a"))
        #expect(LocalWriteTests.rows(c) == ["b=2"])
        #expect(c.pendingWrites == [first, second])
        await Task.yield()
        #expect(gate.sent.isEmpty, "nothing is sent offline")
        c.goOnline()
        #expect(await gate.next() == .set("/b", ["s": 2]))
        gate.answer()
        #expect(await gate.next() == .remove("/a"))
        gate.answer()
        #expect(await c.outcome(of: second) == .confirmed)
        #expect(gate.sent.count == 2 && gate.attempts == [.first, .first])
        #expect(LocalWriteTests.rows(c) == ["b=2"])
    }

    @Test("a lost connection keeps the write, which is sent again (as maybe applied) when the connection is back")
    func connectionLost() async throws {
        let gate = WriteGate(), retry = RetryGate()
        let c = try Self.make(gate)
        c.writeRetryWait = retry.wait
        defer { c.stop(); retry.release() }
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 1}}"#)
        let watched = WatchedSections(c.collection)
        var states: [String] = []
        let token = c.observeWrites { states.append("\($0) \($1)") }
        defer { token.cancel() }
        let id = try c.write(.set("/a/s", 5))
        let later = try c.write(.set("/c", ["s": 0]))
        _ = await gate.next()
        gate.answer(.transport("the connection was reset"))
        await retry.waited(1)
        #expect(LocalWriteTests.rows(c) == ["c=0", "a=5"], "still shown")
        #expect(c.pendingWrites == [id, later])
        #expect(!gate.isHolding)
        retry.release()
        #expect(await gate.next() == .set("/a/s", 5))
        #expect(gate.attempts == [.first, .again], "it may have reached the server")
        gate.answer()
        #expect(await gate.next() == .set("/c", ["s": 0]))
        gate.answer()
        #expect(await c.outcome(of: later) == .confirmed)
        #expect(states == ["\(id) pending", "\(later) pending", "\(id) confirmed", "\(later) confirmed"])
        #expect(watched.takeStages().count == 2, "the two writes; nothing when they are confirmed")
        #expect(watched.problem == nil, "\(watched.problem ?? "")")
    }

    @Test("a write that could not connect is sent again as a first attempt, once the collection is live")
    func notConnected() async throws {
        let gate = WriteGate(), retry = RetryGate()
        let c = try Self.make(gate)
        c.writeRetryWait = retry.wait
        defer { c.stop(); retry.release() }
        let id = try c.write(.set("/a", ["s": [".sv": ["increment": 1]]]))
        _ = await gate.next()
        gate.answer(.transport("not sent: could not connect to the server: connection refused (errno 111)"))
        await retry.waited(1)
        // The stream's value: the collection is live, and the write goes.
        try await c.receive(.put, at: .root, json: #"{"b": {"s": 2}}"#)
        _ = await gate.next()
        #expect(gate.attempts == [.first, .first], "it never reached the server")
        gate.answer()
        #expect(await c.outcome(of: id) == .confirmed)
    }

    @Test("writes kept in the cache from an earlier run show over its children and are sent after the server's value")
    func restored() async throws {
        let cache = CollectionCache(directory: Self.directory())
        let gate = WriteGate()
        do {
            let c = try Self.make(gate, cache: cache)
            try await c.receive(.put, at: .root, json: #"{"a": {"s": 1}, "b": {"s": 2}}"#)
            try await c.saveCache()
            c.goOffline()
            try c.write(.set("/a/s", 7))
            try c.write(.set("/n", ["s": 0]))
            try c.write(.remove("/b"))
            c.stop()
        }
        // A run that ended with a write sent and not answered.
        do {
            let queue = WriteQueue(cache: cache, reference: try DatabaseReference(url: "http://127.0.0.1:9", path: "/items"))
            #expect(queue.entries.map(\.id) == [1, 2, 3])
            queue.setAttempted(1, true)
        }
        let next = try Self.make(gate, cache: cache)
        let retry = RetryGate()
        next.writeRetryWait = retry.wait
        defer { next.stop(); retry.release() }
        #expect(next.writeQueueError == nil)
        #expect(next.pendingWrites == [1, 2, 3])
        let watched = WatchedSections(next.collection)
        // Started; once the cached children show, the status says so.
        var started: Task<Void, any Error>?
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            var token: ObservationToken?
            token = next.observeStatus { status in
                guard status == .cached else { return }
                token?.cancel()
                token = nil
                done.resume()
            }
            started = Task { try await next.start() }
        }
        #expect(LocalWriteTests.rows(next) == ["n=0", "a=7"], "the cache's children with the writes over them")
        #expect(gate.sent.isEmpty, "not before the server's value")
        // The server's value: the first write was applied before the end.
        try await next.receive(.put, at: .root, json: #"{"a": {"s": 7}, "b": {"s": 2}}"#)
        try await started?.value
        #expect(LocalWriteTests.rows(next) == ["n=0", "a=7"])
        #expect(await gate.next() == .set("/a/s", 7))
        gate.answer()
        #expect(await gate.next() == .set("/n", ["s": 0]))
        gate.answer()
        #expect(await gate.next() == .remove("/b"))
        gate.answer()
        #expect(await next.outcome(of: 3) == .confirmed)
        #expect(gate.attempts == [.again, .first, .first])
        #expect(next.pendingWrites.isEmpty)
        #expect(LocalWriteTests.rows(next) == ["n=0", "a=7"])
        #expect(watched.problem == nil, "\(watched.problem ?? "")")
        #expect(!FileManager.default.fileExists(atPath: cache.path(for: cache.writesIdentity(next.reference), suffix: ".writes")),
                "an empty queue leaves no file")
        let another = try Self.make(gate, cache: cache)
        #expect(another.writeQueueError != nil, "one collection at a time holds a queue's file")
        let id = try next.write(.set("/z", ["s": 9]))
        #expect(WriteQueue(cache: cache, reference: next.reference).entries.isEmpty,
                "the file is held: nobody else reads it")
        _ = await gate.next()
        gate.answer()
        #expect(await next.outcome(of: id) == .confirmed)
    }
}
