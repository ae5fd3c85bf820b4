// IsolatedStreamTests.swift — an isolated stream's order, end, termination
// and turns, with a consumer on the main actor.

import Foundation
import LiveFirebase
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(5))) struct IsolatedStreamTests {
    /// Reads a stream on an actor of its own (not the main actor, which
    /// other suites keep busy), with another job queued on it first.
    actor Reader {
        private(set) var entries: [String] = []

        /// The values read and where the queued job ran among them.
        func read(_ stream: IsolatedStream<Int>) async -> [String] {
            // Isolated to this actor: queued on it now, it runs only when
            // the reading lets the actor go.
            Task { self.entries.append("other") }
            for await value in stream { entries.append(String(value)) }
            return entries
        }
    }

    /// Counts calls of a termination handler.
    final class Calls: Sendable {
        private let count = Atomic<Int>(0)
        func add() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    @Test func valuesFromAnotherThreadArriveInOrderAndTheEndAfterThem() async {
        let (stream, continuation) = IsolatedStream.makeStream(of: Int.self)
        let count = 100_000
        Thread {
            for i in 0..<count { continuation.yield(i) }
            continuation.finish()
        }.start()
        var expected = 0
        for await value in stream {
            #expect(value == expected)
            if value != expected { break }
            expected += 1
        }
        #expect(expected == count)
    }

    @Test func bufferedValuesAreReadWithoutLeavingTheActor() async {
        let (stream, continuation) = IsolatedStream.makeStream(of: Int.self, turn: .seconds(3_600))
        for i in 0..<100 { continuation.yield(i) }
        continuation.finish()
        let entries = await Reader().read(stream)
        #expect(entries == (0..<100).map(String.init))
    }

    @Test func aConsumerWithABacklogLetsItsActorGoEachTurn() async {
        let (stream, continuation) = IsolatedStream.makeStream(of: Int.self, turn: .zero)
        for i in 0..<3 { continuation.yield(i) }
        continuation.finish()
        let entries = await Reader().read(stream)
        // With a turn of zero, the actor is let go before the second value.
        #expect(entries == ["0", "other", "1", "2"])
    }

    @Test func finishingEndsOnceAndDropsLaterValues() async {
        let (stream, continuation) = IsolatedStream.makeStream(of: Int.self)
        let calls = Calls()
        continuation.onTermination = { calls.add() }
        continuation.yield(1)
        continuation.finish()
        continuation.finish()
        continuation.yield(2)
        var seen: [Int] = []
        for await value in stream { seen.append(value) }
        #expect(seen == [1])
        #expect(calls.value == 1)
        // A handler set after the end runs at once.
        let late = Calls()
        continuation.onTermination = { late.add() }
        #expect(late.value == 1)
    }

    @Test func releasingTheSequenceTerminatesIt() {
        let calls = Calls()
        var continuation: IsolatedStream<Int>.Continuation?
        do {
            let (stream, made) = IsolatedStream.makeStream(of: Int.self)
            made.onTermination = { calls.add() }
            continuation = made
            made.yield(1)
            #expect(calls.value == 0)
            withExtendedLifetime(stream) {}
        }
        #expect(calls.value == 1)
        continuation?.yield(2) // dropped: nobody can read it
        continuation?.finish()
        #expect(calls.value == 1)
    }

    @Test func cancellingAWaitingConsumerEndsItsReadingAndTerminates() async {
        let (stream, continuation) = IsolatedStream.makeStream(of: Int.self)
        let calls = Calls()
        let (waiting, waitingContinuation) = AsyncStream.makeStream(of: Void.self)
        continuation.onTermination = {
            calls.add()
        }
        let reader = Task {
            var iterator = stream.makeAsyncIterator()
            let first = await iterator.next()
            waitingContinuation.yield()
            return (first, await iterator.next())
        }
        continuation.yield(7)
        var signals = waiting.makeAsyncIterator()
        _ = await signals.next()
        reader.cancel()
        let (first, second) = await reader.value
        #expect(first == 7)
        #expect(second == nil)
        #expect(calls.value == 1)
        continuation.yield(8) // dropped
    }

    /// Tells when it is freed.
    final class Tracked: Sendable {
        let freed: @Sendable () -> Void
        init(_ freed: @escaping @Sendable () -> Void) { self.freed = freed }
        deinit { freed() }
    }

    @Test func aValueReadIsNoLongerHeldByTheStream() async {
        let (stream, continuation) = IsolatedStream.makeStream(of: Tracked.self)
        let freed = Calls()
        continuation.yield(Tracked { freed.add() })
        continuation.yield(Tracked {})
        var iterator = stream.makeAsyncIterator()
        do {
            let first = await iterator.next()
            #expect(first != nil)
        }
        // Read and let go while the second is still buffered: freed now.
        #expect(freed.value == 1)
        withExtendedLifetime(continuation) {}
    }

    @Test func aCancelledConsumerReadsNothingMoreAndTerminates() async {
        let (stream, continuation) = IsolatedStream.makeStream(of: Int.self)
        let calls = Calls()
        continuation.onTermination = { calls.add() }
        continuation.yield(1)
        continuation.yield(2)
        let reader = Task {
            var iterator = stream.makeAsyncIterator()
            withUnsafeCurrentTask { $0?.cancel() }
            return await iterator.next()
        }
        #expect(await reader.value == nil)
        #expect(calls.value == 1)
    }
}
