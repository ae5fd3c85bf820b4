// OffThePool.swift — test work that blocks (sockets, child processes) or
// computes for long, run on threads of its own instead of the few threads
// of the cooperative pool that every suite's tasks share.

import Foundation

/// Runs `work` in a task whose jobs each get a new thread, and returns (or
/// throws) what it does.
///
/// A test that blocks, or computes for seconds, inside a task keeps one of
/// the cooperative pool's threads (as many as cores) all that time: with
/// two cores, two such tests stop every other suite's tasks. Here the work
/// runs on a thread of its own, which the system schedules beside the
/// others, and the test's task waits without holding a thread. The task
/// inherits the test's task-locals, so expectations inside `work` are
/// reported against the test.
package func offThePool<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
    try await Task(executorPreference: ThreadPerJobExecutor.shared) { try await work() }.value
}

/// Runs `work`, which does not throw, as the throwing form does.
package func offThePool<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T {
    await Task(executorPreference: ThreadPerJobExecutor.shared) { await work() }.value
}

/// Runs each job on a new thread. A task's jobs never overlap, so each
/// task preferring it runs on one thread at a time.
final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread { job.runSynchronously(on: executor) }.start()
    }
}
