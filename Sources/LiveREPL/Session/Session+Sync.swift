// Session+Sync.swift — waiting until the collection equals the server's own
// answer to the query: after a write, and for the `sync` command.

import LiveCollection
import LiveFirebase
import LiveModel

extension Session {
    /// Waits until the collection equals the server's answer to the
    /// collection's query, fetched over REST and filtered by the `--where`
    /// conditions: the same keys in the same order, with the same values.
    /// Offline, there is nothing to wait for.
    ///
    /// The wait follows the collection's updates (no polling). While the
    /// collection keeps changing (another client writes all the time), the
    /// server is asked again, one read at a time, and the collection may
    /// equal any answer read since the wait began: each update is checked
    /// against them in O(1) (``ChildrenFingerprint``), and the one that
    /// matches is compared whole, key by key and in order, at that moment.
    /// When the deadline passes, the server is asked once more.
    /// - Parameters:
    ///   - command: The command's name, for the error.
    ///   - seconds: How long to wait.
    /// - Returns: The number of children in the collection.
    /// - Throws: ``REPLError/outOfSync(command:seconds:detail:)`` when the
    ///   collection still differs after `seconds`; ``REPLError/database(_:)``
    ///   when the server cannot be read.
    /// - Complexity: O(n) on the main actor to start (a copy of the rows,
    ///   hashed away from it) and once more when the fingerprints match;
    ///   O(t) per update of t children while waiting.
    @discardableResult
    func waitUntilCurrent(command: String, seconds: Double) async throws(REPLError) -> Int {
        guard client != nil else { return firebase.collection.count }
        // The writes made first: the server's answer is to hold them.
        await finishWrites(seconds: seconds)
        let collection = firebase.collection
        let tracker = SyncTracker(collection)
        defer { tracker.cancel() }
        let waiter = SyncWaiter()
        // The answers read since the wait began, newest last; the
        // collection's fingerprints since the read under way began.
        var answers: [ServerAnswer] = []
        var seen = Set<ChildrenFingerprint>()
        var reading = false
        var failure: REPLError?
        // The collection now, against each answer: compared whole when the
        // fingerprints match.
        func check() {
            guard let print = tracker.fingerprint else { return }
            for answer in answers.reversed() where answer.fingerprint == print {
                if answer.matchesNow(collection) { return waiter.finish(true) }
            }
        }
        func read() {
            guard !reading, let print = tracker.fingerprint else { return }
            reading = true
            seen = [print]
            Task { @MainActor in
                let answer: ServerAnswer
                do throws(REPLError) { answer = try await serverAnswer() } catch {
                    failure = error
                    return waiter.finish(false)
                }
                reading = false
                // The stream may be ahead of a read: the collection held
                // this answer's children while it was read, and has moved
                // on since.
                if seen.contains(answer.fingerprint), tracker.fingerprint != answer.fingerprint {
                    return waiter.finish(true)
                }
                answers.append(answer)
                if answers.count > 4 { answers.removeFirst() }
                check()
            }
        }
        tracker.onChange = {
            if reading, let print = tracker.fingerprint { seen.insert(print) }
            check()
            // The collection moved on: a newer answer may be the one it meets.
            read()
        }
        read()
        let timer = Task { @MainActor in
            try? await Task.sleep(for: .milliseconds(Int((seconds * 1000).rounded(.up))))
            waiter.finish(false)
        }
        defer { timer.cancel() }
        if await waiter.wait() { return collection.count }
        if let failure { throw failure }
        // Once more, in one step.
        let expected = try await serverAnswer()
        if expected.matchesNow(firebase.collection) { return expected.children.count }
        throw .outOfSync(command: command, seconds: seconds,
                         detail: await expected.difference(from: firebase.collection))
    }

    private func serverAnswer() async throws(REPLError) -> ServerAnswer {
        guard let client else { return ServerAnswer(children: []) }
        let snapshot: Snapshot
        do { snapshot = try await client.get(query: firebase.effectiveQuery) } catch { throw .database(error) }
        // The rows are the children that meet the --where conditions.
        return await ServerAnswer.make(snapshot, filter: try options.filter())
    }
}

/// The server's answer to a query: its children in order.
struct ServerAnswer: Sendable {
    /// Each with its key.
    var children: [Snapshot]
    /// The children's keys and values, as one value.
    var fingerprint = ChildrenFingerprint()

    init(children: [Snapshot]) {
        self.children = children
        for child in children {
            if let key = child.key { fingerprint.add(.init(key: key, digest: child.digest(priorities: false))) }
        }
    }

    /// The children of `snapshot` that `filter` accepts, in the query's
    /// order, with their fingerprint, made away from the main actor.
    /// - Complexity: O(n log n) for n children.
    @concurrent
    static func make(_ snapshot: Snapshot, filter: (@Sendable (Snapshot) -> Bool)?) async -> ServerAnswer {
        var children = snapshot.orderedChildren()
        if let filter { children.removeAll { !filter($0) } }
        children.removeAll { $0.key == nil }
        return ServerAnswer(children: children)
    }

    /// Whether `collection` holds exactly these children now, in this
    /// order, with these values, compared in one step on the main actor.
    /// - Complexity: O(n) on the main actor.
    @MainActor
    func matchesNow(_ collection: SortedCollection<REPLChild>) -> Bool {
        guard collection.count == children.count else { return false }
        return zip(collection.models, children).allSatisfy { $0.identifier == $1.key && $0.holdsValue(of: $1) }
    }

    /// How `collection` differs, in a few words.
    @MainActor
    func difference(from collection: SortedCollection<REPLChild>) async -> String {
        let models = collection.models
        let here = models.map(\.identifier)
        let keys = children.map { $0.key! }
        guard here == keys else {
            let missing = Set(keys).subtracting(here).count, extra = Set(here).subtracting(keys).count
            return "\(here.count) children here, \(keys.count) on the server (\(missing) missing, \(extra) extra"
                + (missing == 0 && extra == 0 ? ", in another order)" : ")")
        }
        let stale = zip(models, children).filter { !$0.holdsValue(of: $1) }.map(\.0.identifier.string)
        return "\(stale.count) children with other values here: \(stale.prefix(5).joined(separator: ", "))"
    }
}

/// A one-shot signal: the first `finish` decides what `wait` returns.
@MainActor
final class SyncWaiter {
    private var result: Bool?
    private var continuation: CheckedContinuation<Bool, Never>?

    func finish(_ value: Bool) {
        guard result == nil else { return }
        result = value
        continuation?.resume(returning: value)
        continuation = nil
    }

    func wait() async -> Bool {
        if let result { return result }
        return await withCheckedContinuation { continuation = $0 }
    }
}
