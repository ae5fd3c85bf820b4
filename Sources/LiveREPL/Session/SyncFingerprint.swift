// SyncFingerprint.swift — the children a collection holds, as one value
// that follows its changes: what lets `sync` see the moment the collection
// equals a server answer while changes keep coming.

import LiveCollection
import LiveFirebase
import LiveModel

/// A digest of a set of children — each key with its value and its sort
/// value — that changes one child at a time: their number and the sum of a
/// 128-bit hash of each (key, value digest, sort value). Two sets with the
/// same fingerprint hold the same children with the same values and sort
/// values (so, in one order, the same order), but for a chance of about
/// 2⁻¹²⁸. Values are digested without priorities; a priority order's sort
/// value is the priority.
struct ChildrenFingerprint: Hashable, Sendable {
    /// The hash of one child.
    struct Child: Hashable, Sendable {
        let high: UInt64, low: UInt64

        init(key: Key, digest: ValueDigest, sortValue: SortValue) {
            func half(_ salt: UInt8) -> UInt64 {
                var hasher = Hasher()
                hasher.combine(salt)
                hasher.combine(key)
                hasher.combine(digest)
                hasher.combine(sortValue)
                return UInt64(bitPattern: Int64(hasher.finalize()))
            }
            high = half(0)
            low = half(1)
        }
    }

    private(set) var count = 0
    private var high: UInt64 = 0, low: UInt64 = 0

    mutating func add(_ child: Child) {
        count += 1
        high &+= child.high
        low &+= child.low
    }

    mutating func remove(_ child: Child) {
        count -= 1
        high &-= child.high
        low &-= child.low
    }
}

/// Follows a collection's children as a ``ChildrenFingerprint`` from the
/// moment it is made: the children held then are hashed away from the main
/// actor; each change after it costs the hashes of the children it touched.
@MainActor
final class SyncTracker: SortedCollectionObserver {
    typealias Model = REPLChild

    /// The fingerprint now; nil until the children held at the start are hashed.
    private(set) var fingerprint: ChildrenFingerprint?
    /// Each child's hash at the start, until they are all in the fingerprint.
    private var start: [Key: ChildrenFingerprint.Child]?
    /// The hash of each child changed since the start (nil: absent now).
    private var changed: [Key: ChildrenFingerprint.Child?] = [:]
    private unowned let collection: SortedCollection<REPLChild>
    private var token: ObservationToken?
    /// Called after each change once the fingerprint is known, and when it
    /// first is.
    var onChange: (() -> Void)?

    /// Starts following `collection`: its models and sort values are taken
    /// now (O(n) on the main actor, a copy) and hashed away from it.
    init(_ collection: SortedCollection<REPLChild>) {
        self.collection = collection
        var models: [(REPLChild, SortValue)] = []
        models.reserveCapacity(collection.count)
        collection.forEachPosted { model, post in models.append((model, post.sortValue ?? .null)) }
        // A batch that moved and changed nothing (a new order that keeps
        // every row in place) is not told: its keys' sort values changed.
        token = collection.addObserver(self, preparingFills: nil, unchanged: { [weak self] keys in
            guard let self else { return }
            for key in keys { touch(key) }
            if fingerprint != nil { onChange?() }
        })
        Task { @MainActor [weak self, models] in
            let hashes = await Self.hashes(models)
            self?.started(hashes)
        }
    }

    func cancel() { token?.cancel() }

    @concurrent
    private static func hashes(_ models: [(REPLChild, SortValue)]) async -> [Key: ChildrenFingerprint.Child] {
        var out: [Key: ChildrenFingerprint.Child] = [:]
        out.reserveCapacity(models.count)
        for (model, sortValue) in models {
            out[model.identifier] = .init(key: model.identifier, digest: model.digest, sortValue: sortValue)
        }
        return out
    }

    /// The children of the start, and those changed since, in one fingerprint.
    private func started(_ hashes: [Key: ChildrenFingerprint.Child]) {
        var print = ChildrenFingerprint()
        for (key, hash) in hashes where changed[key] == nil { print.add(hash) }
        for case let hash? in changed.values { print.add(hash) }
        start = hashes
        fingerprint = print
        onChange?()
    }

    /// Takes the change of `key`: its hash before (at the start, or at its
    /// last change) leaves the fingerprint, its hash now enters it.
    private func touch(_ key: Key) {
        let now = collection.model(for: key).map {
            ChildrenFingerprint.Child(key: key, digest: $0.digest, sortValue: collection.sortValue(for: key) ?? .null)
        }
        if fingerprint != nil {
            let before = changed[key] ?? start?[key]
            if let before { fingerprint!.remove(before) }
            if let now { fingerprint!.add(now) }
        }
        changed[key] = .some(now)
    }

    func collection(_ collection: SortedCollection<REPLChild>, didChange change: SequentialChange<REPLChild>) {
        switch change {
        case .inserted(let model, _), .removed(let model, _), .updated(let model, _), .moved(let model, _, _):
            touch(model.identifier)
        }
        if fingerprint != nil { onChange?() }
    }

    func collection(_ collection: SortedCollection<REPLChild>, didApply update: CollectionUpdate<REPLChild>) {
        // A fill of the empty collection names no touched keys: its models.
        if update.touched.isEmpty {
            for model in update.insertedModels { touch(model.identifier) }
        } else {
            for touched in update.touched { touch(touched.key) }
        }
        if fingerprint != nil { onChange?() }
    }
}
