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
    /// - Complexity: O(n) per collection update while waiting, for n children.
    @discardableResult
    func waitUntilCurrent(command: String, seconds: Double) async throws(REPLError) -> Int {
        guard client != nil else { return firebase.collection.count }
        // The writes made first: the server's answer is to hold them.
        await finishWrites(seconds: seconds)
        var expected = try await serverAnswer()
        if expected.matches(firebase.collection) { return expected.keys.count }
        let waiter = SyncWaiter()
        let watch = firebase.observeValue { [unowned self] in
            if expected.matches(firebase.collection) { waiter.finish(true) }
        }
        defer { watch.cancel() }
        let timer = Task { @MainActor in
            try? await Task.sleep(for: .milliseconds(Int((seconds * 1000).rounded(.up))))
            waiter.finish(false)
        }
        defer { timer.cancel() }
        if await waiter.wait() { return expected.keys.count }
        expected = try await serverAnswer()
        if expected.matches(firebase.collection) { return expected.keys.count }
        throw .outOfSync(command: command, seconds: seconds,
                         detail: expected.difference(from: firebase.collection))
    }

    private func serverAnswer() async throws(REPLError) -> ServerAnswer {
        guard let client else { return ServerAnswer(keys: [], values: [:]) }
        let snapshot: Snapshot
        do { snapshot = try await client.get(query: firebase.effectiveQuery) } catch { throw .database(error) }
        // The rows are the children that meet the --where conditions.
        let filter = try options.filter()
        var answer = ServerAnswer(keys: [], values: [:])
        for child in snapshot.orderedChildren() {
            guard let key = child.key, filter?(child) ?? true else { continue }
            answer.keys.append(key)
            answer.values[key] = child.value
        }
        return answer
    }
}

/// The server's answer to a query: its children in order, and their values.
struct ServerAnswer {
    var keys: [Key]
    var values: [Key: JSONValue]

    /// Whether `collection` holds exactly these children, in this order.
    /// - Complexity: O(n).
    @MainActor
    func matches(_ collection: SortedCollection<REPLChild>) -> Bool {
        guard collection.count == keys.count else { return false }
        let models = collection.models
        return models.map(\.identifier) == keys && models.allSatisfy { $0.dictionary == values[$0.identifier] }
    }

    /// How `collection` differs, in a few words.
    @MainActor
    func difference(from collection: SortedCollection<REPLChild>) -> String {
        let models = collection.models
        let here = models.map(\.identifier)
        guard here == keys else {
            let missing = Set(keys).subtracting(here).count, extra = Set(here).subtracting(keys).count
            return "\(here.count) children here, \(keys.count) on the server (\(missing) missing, \(extra) extra"
                + (missing == 0 && extra == 0 ? ", in another order)" : ")")
        }
        let stale = models.filter { $0.dictionary != values[$0.identifier] }.map(\.identifier.string)
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
