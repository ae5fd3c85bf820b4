// FirebaseCollection+Observers.swift — child events, value and status callbacks.
import LiveCollection
import LiveModel

/// The token of an observation of a ``FirebaseCollection``: the one token
/// type of every layer, which also ends the observation when released.
@available(*, deprecated, renamed: "ObservationToken")
public typealias CollectionObservation = ObservationToken

extension FirebaseCollection {
    /// Calls `handler` with every child event, in Firebase's order per
    /// update (removed, added, moved, changed), after the collection has
    /// applied the update (with an asynchronous data source, after it was
    /// handed to the feed).
    public func observeChildEvents(_ handler: @escaping (ChildEvent) -> Void) -> ObservationToken {
        let id = childObservers.add(handler)
        return ObservationToken { [weak self] in self?.childObservers.remove(id) }
    }

    /// Calls `handler` after the child events of each update that changed
    /// something, and after every load (Firebase's `value` event; read the
    /// value from ``collection``).
    public func observeValue(_ handler: @escaping () -> Void) -> ObservationToken {
        let id = valueObservers.add(handler)
        return ObservationToken { [weak self] in self?.valueObservers.remove(id) }
    }

    /// Calls `handler` with every change of ``status``: how the user is told
    /// that the connection was lost, came back, or ended.
    public func observeStatus(_ handler: @escaping (CollectionStatus) -> Void) -> ObservationToken {
        let id = statusObservers.add(handler)
        return ObservationToken { [weak self] in self?.statusObservers.remove(id) }
    }

    /// Calls `handler` with each ``LoadProgress`` of a first `put` while it
    /// arrives (a large one: every ``DatabaseStream/progressStep`` bytes),
    /// and once when it is whole and parsed, before the collection loads it.
    public func observeProgress(_ handler: @escaping (LoadProgress) -> Void) -> ObservationToken {
        let id = progressObservers.add(handler)
        return ObservationToken { [weak self] in self?.progressObservers.remove(id) }
    }

    /// Tells child observers `events`, then value observers when something
    /// changed or the value is loaded (not with `values: false`).
    func tell(_ events: [ChildEvent], loaded: Bool, values: Bool = true) {
        if !childObservers.isEmpty {
            for event in events { for handler in childObservers { handler(event) } }
        }
        if values, !events.isEmpty || loaded { for handler in valueObservers { handler() } }
    }

    func tellProgress(_ progress: LoadProgress) {
        for handler in progressObservers { handler(progress) }
    }

    func tellStatus() {
        for handler in statusObservers { handler(status) }
    }
}
