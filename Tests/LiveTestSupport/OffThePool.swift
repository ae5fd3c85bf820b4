// OffThePool.swift — blocking work (sockets, child processes) on a thread
// of its own, so it never holds one of the few threads of the cooperative
// pool that every suite's tasks share.

import Foundation

/// Runs `work` on a new thread and returns (or throws) what it does.
///
/// A blocking read inside a task keeps a thread of the cooperative pool
/// (as many threads as cores) for as long as it waits: with two cores, two
/// such reads stop every other test's tasks. Blocking calls go through here.
package func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// Runs `work`, which does not throw, on a new thread.
package func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
