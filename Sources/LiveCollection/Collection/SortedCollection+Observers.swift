// SortedCollection+Observers.swift — registering observers and telling them.
import LiveModel

extension SortedCollection {
    /// What one registration wants to hear.
    struct Observer {
        var sequential: ((SequentialChange<Model>) -> Void)?
        /// Grouped changes (performBatch), batch contract.
        var grouped: ((CollectionUpdate<Model>) -> Void)?
        /// Every change, batch contract.
        var every: ((CollectionUpdate<Model>) -> Void)?
        var startLoad: (() -> Void)?
        var endLoad: (() -> Void)?
        var failure: ((Key, any Error) -> Void)?
        /// Work done with a fill where it is prepared.
        var fillWork: FillWork<Model>?
        /// A change of this key, single or inside a batch, is about to be
        /// made (package observers).
        var willChange: ((Key) -> Void)?
        /// A batch changed these keys and, in the end, nothing about them
        /// (package observers): no update is told.
        var unchanged: (([Key]) -> Void)?
    }

    /// A handler of single changes, in either contract.
    @usableFromInline
    enum SingleHandler {
        case sequential((SequentialChange<Model>) -> Void)
        case every((CollectionUpdate<Model>) -> Void)
    }

    /// Every observer in registration order, and the handlers of what is
    /// told on every change, in that order too.
    @usableFromInline
    struct Handlers {
        var ordered: [Observer] = []
        /// Handlers of single changes.
        @usableFromInline private(set) var single: [SingleHandler] = []
        /// Whether a handler of single changes follows the batch contract.
        @usableFromInline private(set) var singleUpdates = false
        @usableFromInline private(set) var willChange: [(Key) -> Void] = []

        init(_ observers: [Observer]) {
            ordered = observers
            for o in observers {
                if let f = o.sequential { single.append(.sequential(f)) }
                if let f = o.every {
                    single.append(.every(f))
                    singleUpdates = true
                }
                if let f = o.willChange { willChange.append(f) }
            }
        }
    }

    /// Registers an observer, held weakly: it hears single changes in the
    /// sequential contract and grouped ones in the batch contract. Observers
    /// (and handlers of ``observeUpdates(_:)``) are told in the order they
    /// were added.
    @discardableResult
    public func addObserver<O: SortedCollectionObserver>(_ observer: O) -> ObservationToken where O.Model == Model {
        register(Self.observer(observer, of: self, fillWork: nil))
    }

    /// The registration of `observer`, held weakly, on `collection`.
    static func observer<O: SortedCollectionObserver>(_ observer: O, of collection: SortedCollection,
                                                      fillWork: FillWork<Model>?) -> Observer where O.Model == Model {
        Observer(
            sequential: { [weak observer, unowned collection] in observer?.collection(collection, didChange: $0) },
            grouped: { [weak observer, unowned collection] in observer?.collection(collection, didApply: $0) },
            startLoad: { [weak observer, unowned collection] in observer?.collectionDidStartLoad(collection) },
            endLoad: { [weak observer, unowned collection] in observer?.collectionDidEndLoad(collection) },
            failure: { [weak observer, unowned collection] in
                observer?.collection(collection, didFailToPrepare: $0, error: $1)
            },
            fillWork: fillWork)
    }

    /// Calls `handler` with every change, single or grouped, in the batch
    /// contract, until the token is cancelled or released.
    public func observeUpdates(_ handler: @escaping (CollectionUpdate<Model>) -> Void) -> ObservationToken {
        register(Observer(every: handler))
    }

    /// Every change, single or grouped, in the batch contract, as an
    /// asynchronous sequence. Updates are buffered without limit until read;
    /// the sequence ends when the consuming task is cancelled.
    public func updates() -> AsyncStream<CollectionUpdate<Model>> where Model: Sendable {
        let (stream, continuation) = AsyncStream<CollectionUpdate<Model>>.makeStream()
        let id = observers.add(Observer(every: { continuation.yield($0) }))
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in _ = self?.observers.remove(id) }
        }
        return stream
    }

    func register(_ observer: Observer) -> ObservationToken {
        let id = observers.add(observer)
        return ObservationToken { [weak self] in self?.observers.remove(id) }
    }

    /// Tells the observers that asked (``addObserver(_:preparingFills:beforeChange:unchanged:)``)
    /// that a change of `key` is about to be made: a single change, or a
    /// batch's first change of the key.
    @inlinable
    func notifyWillChange(_ key: Key) {
        // A fill's prepared results describe the fill, not what follows it.
        takingFill = nil
        for handler in handlers.willChange { handler(key) }
    }

    /// Tells observers of a single change (recorded instead inside a batch).
    @inlinable
    func notify(_ change: SequentialChange<Model>) {
        guard recording == nil else { return }
        // In the batch contract too, made once for every handler of it.
        let update = handlers.singleUpdates ? singleUpdate(change) : nil
        for handler in handlers.single {
            switch handler {
            case .sequential(let f): f(change)
            case .every(let f): f(update!)
            }
        }
    }

    @usableFromInline
    func notifyGrouped(_ update: CollectionUpdate<Model>) {
        for observer in handlers.ordered {
            observer.grouped?(update)
            observer.every?(update)
        }
    }

    @usableFromInline
    package func notifyLoad(started: Bool) {
        for observer in handlers.ordered { (started ? observer.startLoad : observer.endLoad)?() }
    }

    @usableFromInline
    func notifyFailure(_ key: Key, _ error: any Error) {
        for observer in handlers.ordered { observer.failure?(key, error) }
    }

    /// A single change in the batch contract.
    @usableFromInline
    func singleUpdate(_ change: SequentialChange<Model>) -> CollectionUpdate<Model> {
        let n = count
        switch change {
        case .inserted(let m, let at):
            return CollectionUpdate(batch: CollectionBatch(inserted: [at], oldCount: n - 1, newCount: n),
                                    insertedModels: [m], movedModels: [], updatedModels: [])
        case .removed(_, let at):
            return CollectionUpdate(batch: CollectionBatch(deleted: [at], oldCount: n + 1, newCount: n),
                                    insertedModels: [], movedModels: [], updatedModels: [])
        case .updated(let m, let at):
            return CollectionUpdate(batch: CollectionBatch(updated: [at], oldCount: n, newCount: n),
                                    insertedModels: [], movedModels: [], updatedModels: [m])
        case .moved(let m, let from, let to):
            return CollectionUpdate(
                batch: CollectionBatch(moved: [BatchMove(from: from, to: to, updated: true)], oldCount: n, newCount: n),
                insertedModels: [], movedModels: [m], updatedModels: [])
        }
    }
}
