// WriteGate.swift — a WriteSender whose writes wait until a test answers
// them, one by one.
import LiveFirebase

/// Holds each write a collection sends until ``answer(_:)``.
@MainActor
final class WriteGate {
    private var waiting: [(write: DatabaseWrite, done: CheckedContinuation<DatabaseError?, Never>)] = []
    /// Every write sent, in order, and whether each was an attempt again.
    private(set) var sent: [DatabaseWrite] = []
    private(set) var attempts: [WriteAttempt] = []
    /// Callers of ``next()`` waiting for a write to arrive.
    private var arrivals: [CheckedContinuation<Void, Never>] = []

    var sender: WriteSender {
        WriteSender { _, write, attempt throws(DatabaseError) in
            if let failure = await self.hold(write, attempt) { throw failure }
        }
    }

    private func hold(_ write: DatabaseWrite, _ attempt: WriteAttempt) async -> DatabaseError? {
        sent.append(write)
        attempts.append(attempt)
        return await withCheckedContinuation { done in
            waiting.append((write, done))
            let woken = arrivals
            arrivals.removeAll()
            for arrival in woken { arrival.resume() }
        }
    }

    /// Whether a write waits for an answer.
    var isHolding: Bool { !waiting.isEmpty }

    /// The write that waits, once the collection has sent it.
    func next() async -> DatabaseWrite {
        while waiting.isEmpty { await withCheckedContinuation { arrivals.append($0) } }
        return waiting[0].write
    }

    /// Answers the write that waits: taken (nil) or refused.
    func answer(_ failure: DatabaseError? = nil) {
        waiting.removeFirst().done.resume(returning: failure)
    }
}
