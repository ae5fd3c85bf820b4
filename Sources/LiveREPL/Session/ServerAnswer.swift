// ServerAnswer.swift — the server's answer to the collection's query, and
// how the collection compares with it: what `sync` waits for.

import LiveCollection
import LiveModel

/// The server's answer to a query: its children in order.
struct ServerAnswer: Sendable {
    /// Each with its key.
    let children: [Snapshot]
    /// The children's keys and values as one value; made only for a wait
    /// that follows a collection changing all the time (``ChurnSync``).
    let fingerprint: ChildrenFingerprint?

    /// How many rows are compared away from the main actor at a time: the
    /// main actor takes them in a few milliseconds.
    static let chunk = 16_384

    init(children: [Snapshot], fingerprinted: Bool = false) {
        self.children = children
        guard fingerprinted else {
            fingerprint = nil
            return
        }
        var print = ChildrenFingerprint()
        for child in children {
            if let key = child.key {
                print.add(.init(key: key, digest: child.digest(priorities: false), sortValue: child.sortValue))
            }
        }
        fingerprint = print
    }

    /// The children of `snapshot` that `filter` accepts, in the query's
    /// order (with their fingerprint when `fingerprinted`), made away from
    /// the main actor.
    /// - Complexity: O(n log n) for n children, plus a digest of each when
    ///   `fingerprinted`.
    @concurrent
    static func make(_ snapshot: Snapshot, filter: (@Sendable (Snapshot) -> Bool)?,
                     fingerprinted: Bool) async -> ServerAnswer {
        var children = snapshot.orderedChildren()
        if let filter { children.removeAll { !filter($0) } }
        children.removeAll { $0.key == nil }
        return ServerAnswer(children: children, fingerprinted: fingerprinted)
    }

    /// Whether `collection` holds exactly these children, in this order,
    /// with these values: its rows are taken on the main actor a chunk at
    /// a time and compared away from it, each chunk while the main actor
    /// takes the next.
    /// - Returns: nil when the collection changed meanwhile (the comparison
    ///   says nothing then).
    /// - Complexity: O(n) for n rows, O(``chunk``) at a time on the main actor.
    @MainActor
    func matches(_ collection: SortedCollection<REPLChild>) async -> Bool? {
        guard collection.count == children.count else { return false }
        var changed = false
        let token = collection.observeUpdates { _ in changed = true }
        defer { token.cancel() }
        var start = 0
        var comparing: Task<Bool, Never>?
        while start < children.count {
            guard !changed else { return nil }
            let end = min(children.count, start + Self.chunk)
            let page = collection.models(in: start..<end), slice = children[start..<end]
            if let previous = comparing, !(await previous.value) { return changed ? nil : false }
            comparing = Task.detached { Self.holds(page, slice) }
            start = end
        }
        if let last = comparing, !(await last.value) { return changed ? nil : false }
        return changed ? nil : true
    }

    /// Whether `collection` holds exactly these children now, compared in
    /// one step on the main actor.
    /// - Complexity: O(n) on the main actor.
    @MainActor
    func matchesNow(_ collection: SortedCollection<REPLChild>) -> Bool {
        guard collection.count == children.count else { return false }
        return Self.holds(collection.models, children[...])
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
    private static func holds(_ models: [REPLChild], _ children: ArraySlice<Snapshot>) -> Bool {
        models.count == children.count
            && zip(models, children).allSatisfy { $0.identifier == $1.key && $0.holdsValue(of: $1) }
    }
}

/// A one-shot signal: the first `finish` decides what `wait` returns.
@MainActor
final class SyncWaiter {
    private var result: Bool?
    private var continuation: CheckedContinuation<Bool, Never>?

    /// Whether `finish` was called.
    var isFinished: Bool { result != nil }

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
