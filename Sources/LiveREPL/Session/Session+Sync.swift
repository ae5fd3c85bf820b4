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
    /// - Complexity: O(n) per collection update while waiting, for n children: the models are
    ///   taken on the main actor, their digests compared away from it.
    @discardableResult
    func waitUntilCurrent(command: String, seconds: Double) async throws(REPLError) -> Int {
        guard client != nil else { return firebase.collection.count }
        // The writes made first: the server's answer is to hold them.
        await finishWrites(seconds: seconds)
        var expected = try await serverAnswer()
        if await expected.matches(firebase.collection) { return expected.keys.count }
        let waiter = SyncWaiter()
        // Compared after each update, one comparison at a time: an update
        // while one runs asks for one more when it ends.
        var comparing = false, again = false
        let watch = firebase.observeValue { [unowned self] in
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
        defer { watch.cancel() }
        let timer = Task { @MainActor in
            try? await Task.sleep(for: .milliseconds(Int((seconds * 1000).rounded(.up))))
            waiter.finish(false)
        }
        defer { timer.cancel() }
        if await waiter.wait() { return expected.keys.count }
        expected = try await serverAnswer()
        if await expected.matches(firebase.collection) { return expected.keys.count }
        throw .outOfSync(command: command, seconds: seconds,
                         detail: await expected.difference(from: firebase.collection))
    }

    private func serverAnswer() async throws(REPLError) -> ServerAnswer {
        guard let client else { return ServerAnswer(keys: [], digests: []) }
        let snapshot: Snapshot
        do { snapshot = try await client.get(query: firebase.effectiveQuery) } catch { throw .database(error) }
        // The rows are the children that meet the --where conditions.
        return await ServerAnswer.make(snapshot, filter: try options.filter())
    }
}

/// The server's answer to a query: its children in order, and the digests
/// of their values (priorities left out, as a row's value).
struct ServerAnswer: Sendable {
    var keys: [Key]
    var digests: [ValueDigest]

    /// The children of `snapshot` that `filter` accepts, in the query's
    /// order, made away from the main actor.
    /// - Complexity: O(n log n) for n children, and their digests.
    @concurrent
    static func make(_ snapshot: Snapshot, filter: (@Sendable (Snapshot) -> Bool)?) async -> ServerAnswer {
        var answer = ServerAnswer(keys: [], digests: [])
        for child in snapshot.orderedChildren() {
            guard let key = child.key, filter?(child) ?? true else { continue }
            answer.keys.append(key)
            answer.digests.append(child.digest(priorities: false))
        }
        return answer
    }

    /// Whether `collection` holds exactly these children, in this order,
    /// with these values: its models are taken on the main actor and
    /// compared away from it.
    /// - Complexity: O(n) to take the models, then O(size of their values)
    ///   away from the main actor.
    @MainActor
    func matches(_ collection: SortedCollection<REPLChild>) async -> Bool {
        guard collection.count == keys.count else { return false }
        return await Self.firstDifference(keys, digests, collection.models) == nil
    }

    /// How `collection` differs, in a few words.
    @MainActor
    func difference(from collection: SortedCollection<REPLChild>) async -> String {
        let models = collection.models
        let here = models.map(\.identifier)
        guard here == keys else {
            let missing = Set(keys).subtracting(here).count, extra = Set(here).subtracting(keys).count
            return "\(here.count) children here, \(keys.count) on the server (\(missing) missing, \(extra) extra"
                + (missing == 0 && extra == 0 ? ", in another order)" : ")")
        }
        let stale = zip(models, digests).filter { $0.digest != $1 }.map(\.0.identifier.string)
        return "\(stale.count) children with other values here: \(stale.prefix(5).joined(separator: ", "))"
    }

    /// The first position where `models` differ from `keys` and `digests`;
    /// nil when they are the same children with the same values.
    @concurrent
    private static func firstDifference(_ keys: [Key], _ digests: [ValueDigest], _ models: [REPLChild]) async -> Int? {
        guard models.count == keys.count else { return min(models.count, keys.count) }
        for i in models.indices where models[i].identifier != keys[i] || models[i].digest != digests[i] { return i }
        return nil
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
