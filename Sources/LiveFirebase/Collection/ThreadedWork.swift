// ThreadedWork.swift — a long computation on a thread of its own, beside
// the task that awaits it.
import Foundation

/// Runs a long computation on a thread of its own, outside Swift's
/// concurrency pool, for a task to await once it has done its own share.
///
/// Two long computations side by side on the pool would hold every thread
/// of it on a machine of two cores, and delay every other task meanwhile
/// (the main actor's timers and wake-ups included). On a thread of its own
/// the computation shares the cores with the pool instead.
///
/// The value is made on the thread and handed, once, to the awaiting task:
/// nothing else touches it, which is what makes the unchecked `Sendable`
/// sound.
final class ThreadedWork<Value>: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`: the value made and not yet taken.
    private var made: Value?
    /// Guarded by `lock`: the task waiting for the value.
    private var waiting: CheckedContinuation<Value, Never>?

    /// Starts `work` on a new thread.
    init(_ work: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            let value = work()
            lock.lock()
            if let waiting {
                self.waiting = nil
                lock.unlock()
                waiting.resume(returning: value)
            } else {
                made = value
                lock.unlock()
            }
        }
        thread.start()
    }

    /// The value, once the work is done. Call once.
    func value() async -> Value {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let value = made {
                made = nil
                lock.unlock()
                continuation.resume(returning: value)
            } else {
                waiting = continuation
                lock.unlock()
            }
        }
    }
}
