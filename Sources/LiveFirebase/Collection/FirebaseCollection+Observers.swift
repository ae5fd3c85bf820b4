// FirebaseCollection+Observers.swift — child events, value and status callbacks.
import LiveModel

/// Ends an observation of a ``FirebaseCollection`` when cancelled.
@MainActor
public final class CollectionObservation {
    private var onCancel: (() -> Void)?

    init(_ onCancel: @escaping () -> Void) { self.onCancel = onCancel }

    /// Stops the callbacks. Idempotent.
    public func cancel() {
        onCancel?()
        onCancel = nil
    }
}

extension FirebaseCollection {
    /// Calls `handler` with every child event, in Firebase's order per
    /// update (removed, added, moved, changed), after the collection has
    /// applied the update (with an asynchronous data source, after it was
    /// handed to the feed).
    public func observeChildEvents(_ handler: @escaping (ChildEvent) -> Void) -> CollectionObservation {
        let id = nextID()
        childObservers[id] = handler
        return CollectionObservation { [weak self] in self?.childObservers[id] = nil }
    }

    /// Calls `handler` after the child events of each update that changed
    /// something, and after every load (Firebase's `value` event; read the
    /// value from ``collection``).
    public func observeValue(_ handler: @escaping () -> Void) -> CollectionObservation {
        let id = nextID()
        valueObservers[id] = handler
        return CollectionObservation { [weak self] in self?.valueObservers[id] = nil }
    }

    /// Calls `handler` with every change of ``status``: how the user is told
    /// that the connection was lost, came back, or ended.
    public func observeStatus(_ handler: @escaping (CollectionStatus) -> Void) -> CollectionObservation {
        let id = nextID()
        statusObservers[id] = handler
        return CollectionObservation { [weak self] in self?.statusObservers[id] = nil }
    }

    /// Calls `handler` with each ``LoadProgress`` of a first `put` while it
    /// arrives (a large one: every ``DatabaseStream/progressStep`` bytes),
    /// and once when it is whole and parsed, before the collection loads it.
    public func observeProgress(_ handler: @escaping (LoadProgress) -> Void) -> CollectionObservation {
        let id = nextID()
        progressObservers[id] = handler
        return CollectionObservation { [weak self] in self?.progressObservers[id] = nil }
    }

    private func nextID() -> Int {
        nextObserver += 1
        return nextObserver
    }

    func tell(_ events: [ChildEvent], loaded: Bool) {
        if !childObservers.isEmpty {
            for event in events { for handler in childObservers.values { handler(event) } }
        }
        if !events.isEmpty || loaded { for handler in valueObservers.values { handler() } }
    }

    func tellProgress(_ progress: LoadProgress) {
        for handler in progressObservers.values { handler(progress) }
    }

    func tellStatus() {
        for handler in statusObservers.values { handler(status) }
    }
}
