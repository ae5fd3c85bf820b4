// WatchedState.swift — state shared with a test that can wait for a
// condition on it, woken by each change (no polling, no timeouts).

import Foundation

/// A value behind a lock, and tasks waiting for a condition on it.
///
/// ``update(_:)`` resumes every waiter whose condition then holds;
/// ``finish()`` (the value will not change again) resumes the rest with
/// `false`, and so does cancelling a waiting task (a test's time limit).
final class WatchedState<State>: @unchecked Sendable {
    // @unchecked: every stored property is guarded by `lock`.
    private struct Waiter {
        let condition: (State) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private let lock = NSLock()
    private var state: State
    private var waiters: [UInt64: Waiter] = [:]
    /// Waits begun but not registered yet; one cancelled before it
    /// registers is taken out.
    private var starting: Set<UInt64> = []
    private var lastID: UInt64 = 0
    private var finished = false

    init(_ state: State) { self.state = state }

    /// The value now.
    var value: State { lock.withLock { state } }

    /// Reads the value under the lock.
    func read<T>(_ body: (State) throws -> T) rethrows -> T {
        try lock.withLock { try body(state) }
    }

    /// Changes the value and resumes the waiters whose condition now holds.
    @discardableResult
    func update<T>(_ change: (inout State) -> T) -> T {
        let (result, ready): (T, [Waiter]) = lock.withLock {
            let result = change(&state)
            let ready = waiters.filter { $0.value.condition(state) }
            for id in ready.keys { waiters[id] = nil }
            return (result, Array(ready.values))
        }
        for waiter in ready { waiter.continuation.resume(returning: true) }
        return result
    }

    /// The value will not change again: the waiters resume with `false`,
    /// and later waits answer at once.
    func finish() {
        let all: [Waiter] = lock.withLock {
            finished = true
            defer { waiters = [:] }
            return Array(waiters.values)
        }
        for waiter in all { waiter.continuation.resume(returning: false) }
    }

    /// Waits until `condition` holds: true as soon as it does; false when
    /// the value can no longer change or the task is cancelled.
    func wait(until condition: @escaping (State) -> Bool) async -> Bool {
        let id: UInt64 = lock.withLock {
            lastID += 1
            starting.insert(lastID)
            return lastID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let answer: Bool? = lock.withLock {
                    guard starting.remove(id) != nil else { return false }
                    if condition(state) { return true }
                    if finished { return false }
                    waiters[id] = Waiter(condition: condition, continuation: continuation)
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter: Waiter? = lock.withLock {
                starting.remove(id)
                return waiters.removeValue(forKey: id)
            }
            waiter?.continuation.resume(returning: false)
        }
    }
}
