// ChurnSync.swift — `sync` while the collection keeps changing: the
// collection's children followed as a fingerprint, matched against the
// server's answers read one after another.

import LiveCollection
import LiveModel

/// Waits for a collection that another client changes all the time to hold
/// one of the server's answers. A REST read takes longer than the stream's
/// events: by the time an answer is in, the collection has usually moved
/// past it. So each answer is matched against every state the collection
/// held while the answer was read, and against each state after it; a newer
/// answer is read whenever the collection moves (one read at a time).
///
/// States are compared by ``ChildrenFingerprint``, O(1) per state: the same
/// children with the same values and sort values. A match with the state
/// the collection holds now is also compared whole, key by key and in
/// order, when it has at most ``ServerAnswer/chunk`` rows; a match with an
/// earlier state, or with a larger collection, is decided by the
/// fingerprint alone.
@MainActor
final class ChurnSync {
    private let collection: SortedCollection<REPLChild>
    private let tracker: SyncTracker
    private let read: () async throws(REPLError) -> ServerAnswer
    private let waiter: SyncWaiter
    /// The last answers read, newest last.
    private var answers: [ServerAnswer] = []
    /// The collection's fingerprints since the read under way began.
    private var seen = Set<ChildrenFingerprint>()
    /// The read under way, if any.
    private var reading: Task<Void, Never>?
    /// Why a read failed, if one did (the wait then ends).
    private(set) var failure: REPLError?

    /// Starts following `collection` (a copy of its rows now, hashed away
    /// from the main actor); `read` reads a fingerprinted answer; `waiter`
    /// is told true once the collection held one.
    init(_ collection: SortedCollection<REPLChild>, waiter: SyncWaiter,
         read: @escaping () async throws(REPLError) -> ServerAnswer) {
        self.collection = collection
        self.waiter = waiter
        self.read = read
        tracker = SyncTracker(collection)
        tracker.onChange = { [unowned self] in changed() }
    }

    /// Stops following the collection, and the read under way.
    func cancel() {
        tracker.cancel()
        reading?.cancel()
        reading = nil
    }

    private func changed() {
        if reading != nil, let print = tracker.fingerprint { seen.insert(print) }
        check()
        // The collection moved on: a newer answer may be the one it meets.
        readNext()
    }

    /// The collection now, against each answer read.
    private func check() {
        guard let print = tracker.fingerprint else { return }
        for answer in answers.reversed() where answer.fingerprint == print {
            if collection.count > ServerAnswer.chunk || answer.matchesNow(collection) { return waiter.finish(true) }
        }
    }

    private func readNext() {
        guard reading == nil, !waiter.isFinished, let start = tracker.fingerprint else { return }
        seen = [start]
        reading = Task { @MainActor in
            let answer: ServerAnswer
            do throws(REPLError) { answer = try await read() } catch {
                if Task.isCancelled { return }
                failure = error
                return waiter.finish(false)
            }
            guard !Task.isCancelled else { return }
            reading = nil
            // The stream was ahead of the read: the collection held this
            // answer's children while it was read, and has moved on since.
            if let print = answer.fingerprint, seen.contains(print), tracker.fingerprint != print {
                return waiter.finish(true)
            }
            answers.append(answer)
            if answers.count > 4 { answers.removeFirst() }
            check()
            // It moved while this answer was read: the next one may be its.
            if tracker.fingerprint != start { readNext() }
        }
    }
}
