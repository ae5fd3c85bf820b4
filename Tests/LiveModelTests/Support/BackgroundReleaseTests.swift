// BackgroundReleaseTests.swift — storage handed to a background release is
// freed, once, and the caller keeps nothing of it.

import LiveModel
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(5))) struct BackgroundReleaseTests {
    /// Tells when it is freed.
    final class Tracked: Sendable {
        let freed: @Sendable () -> Void
        init(_ freed: @escaping @Sendable () -> Void) { self.freed = freed }
        deinit { freed() }
    }

    @Test func aValueHandedOverIsFreedOnce() async {
        let count = Atomic<Int>(0)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            // Made in the call: the task holds the only reference.
            releaseInBackground([Tracked {
                if count.add(1, ordering: .relaxed).newValue == 1 { done.resume() }
            }])
        }
        #expect(count.load(ordering: .relaxed) == 1)
    }

    @Test func storageIsLeftEmptyAndWhatItHeldIsFreed() async {
        var storage: [Int: Tracked] = [:]
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            storage[1] = Tracked { done.resume() }
            releaseInBackground(&storage, leaving: [:])
            #expect(storage.isEmpty)
        }
    }
}
