// Session+Sync.swift — waiting until the collection equals the server's own
// answer to the query: after a write, and for the `sync` command.

import LiveCollection
import LiveFirebase
import LiveModel

extension Session {
    /// Waits until the collection equals the server's answer to the
    /// collection's query, fetched over REST and filtered by the `--where`
    /// conditions: the same keys in the same order, with the same values. Offline, there is nothing to wait for.
    ///
    /// The wait follows the collection's updates (no polling). When the
    /// deadline passes, the server is asked once more, in case it moved on
    /// meanwhile (another client wrote).
    /// - Parameters:
    ///   - command: The command's name, for the error.
    ///   - seconds: How long to wait.
    /// - Returns: The number of children in the collection.
    /// - Throws: ``REPLError/outOfSync(command:seconds:detail:)`` when the
    ///   collection still differs after `seconds`; ``REPLError/database(_:)``
    ///   when the server cannot be read.
    /// - Complexity: O(n) per collection update while waiting, for n children: the rows are
    ///   taken on the main actor a chunk at a time, and compared away from it.
    @discardableResult
    func waitUntilCurrent(command: String, seconds: Double) async throws(REPLError) -> Int {
        guard client != nil else { return firebase.collection.count }
        // The writes made first: the server's answer is to hold them.
        await finishWrites(seconds: seconds)
        var expected = try await serverAnswer()
        let waiter = SyncWaiter()
        // Compared now and after each update, one comparison at a time: an
        // update while one runs asks for one more when it ends.
        var comparing = false, again = false
        func compare() {
            guard !comparing else { return again = true }
            comparing = true
            Task { @MainActor in
                repeat {
                    again = false
                    if await expected.matches(firebase.collection) { waiter.finish(true) }
                } while again
                comparing = false
            }
        }
        let watch = firebase.observeValue { compare() }
        compare()
        defer { watch.cancel() }
        let timer = Task { @MainActor in
            try? await Task.sleep(for: .milliseconds(Int((seconds * 1000).rounded(.up))))
            waiter.finish(false)
        }
        defer { timer.cancel() }
        if await waiter.wait() { return expected.children.count }
        // Once more, in one step: while changes keep coming, a comparison a
        // chunk at a time may never end.
        expected = try await serverAnswer()
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

    /// How many rows are compared away from the main actor at a time: the
    /// main actor takes them in a few milliseconds.
    static let chunk = 16_384

    /// The children of `snapshot` that `filter` accepts, in the query's
    /// order, made away from the main actor.
    /// - Complexity: O(n log n) for n children.
    @concurrent
    static func make(_ snapshot: Snapshot, filter: (@Sendable (Snapshot) -> Bool)?) async -> ServerAnswer {
        var children = snapshot.orderedChildren()
        if let filter { children.removeAll { !filter($0) } }
        children.removeAll { $0.key == nil }
        return ServerAnswer(children: children)
    }

    /// Whether `collection` holds exactly these children, in this order,
    /// with these values: its rows are taken on the main actor a chunk at
    /// a time and compared away from it; a change of the collection
    /// meanwhile makes it false (the next comparison follows the change).
    /// - Complexity: O(n) for n rows, O(``chunk``) at a time on the main actor.
    @MainActor
    func matches(_ collection: SortedCollection<REPLChild>) async -> Bool {
        guard collection.count == children.count else { return false }
        var changed = false
        let token = collection.observeUpdates { _ in changed = true }
        defer { token.cancel() }
        var start = 0
        while start < children.count {
            guard !changed, collection.count == children.count else { return false }
            let end = min(children.count, start + Self.chunk)
            let page = collection.models(in: start..<end)
            guard await Self.same(page, children[start..<end]) else { return false }
            start = end
        }
        return !changed
    }

    /// Whether `collection` holds exactly these children now, compared in
    /// one step on the main actor.
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

    /// Whether `models` are `children`, key by key and value by value.
    @concurrent
    private static func same(_ models: [REPLChild], _ children: ArraySlice<Snapshot>) async -> Bool {
        guard models.count == children.count else { return false }
        return zip(models, children).allSatisfy { $0.identifier == $1.key && $0.holdsValue(of: $1) }
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
