// TestClock.swift — a clock that moves only when a test advances it, so
// timers are driven by the test instead of by real time.

import Foundation

/// A `Clock` whose time stands still until ``advance(by:)``: a sleep ends
/// when the clock is advanced to (or past) its deadline, and a cancelled
/// sleep ends at once with `CancellationError`.
final class TestClock: Clock, @unchecked Sendable {
    // @unchecked: every stored property is guarded by `lock`.
    typealias Duration = Swift.Duration

    struct Instant: InstantProtocol {
        /// The time since the clock was made.
        let offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [UInt64: Sleeper] = [:]
    /// Sleeps begun but not registered yet; one cancelled before it
    /// registers is taken out.
    private var starting: Set<UInt64> = []
    private var lastID: UInt64 = 0

    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id: UInt64 = lock.withLock {
            lastID += 1
            starting.insert(lastID)
            return lastID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case wait, due, cancelled }
                let outcome: Outcome = lock.withLock {
                    if starting.remove(id) == nil { return .cancelled }
                    if deadline <= current { return .due }
                    sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return .wait
                }
                switch outcome {
                case .wait: break
                case .due: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let sleeper: Sleeper? = lock.withLock {
                starting.remove(id)  // not registered yet: it ends as it registers
                return sleepers.removeValue(forKey: id)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the time forward by `duration` and ends the sleeps now due,
    /// earliest deadline first.
    func advance(by duration: Duration) {
        let due: [Sleeper] = lock.withLock {
            current = current.advanced(by: duration)
            let due = sleepers.filter { $0.value.deadline <= current }
            for id in due.keys { sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// How many sleeps are waiting for the clock.
    var sleeping: Int { lock.withLock { sleepers.count } }
}
