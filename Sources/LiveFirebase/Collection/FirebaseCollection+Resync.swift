// FirebaseCollection+Resync.swift — a whole value over children already
// shown (a reconnect's resync, the server's value over cached children):
// compared away from the main actor, applied in O(t log n) for t changes.
import LiveCollection
import LiveModel

extension FirebaseCollection {
    /// Compares a whole value (`payload`, a `put` at the root) with the
    /// children the view holds on a background executor, then applies on
    /// the main actor only what changed (see ``QueryView/planWhole(_:held:version:)``).
    ///
    /// ``BackgroundOutcome/declined`` when the view cannot be planned (it
    /// shows or awaits writes of this client) or changed meanwhile: the
    /// caller applies the value the usual way; ``BackgroundOutcome/dropped``
    /// when the collection stopped or opened another stream meanwhile.
    func applyWholeInBackground(_ payload: StreamPayload, filtered: Bool?) async -> BackgroundOutcome {
        guard payload.kind == .put, payload.path.isRoot, view.canPlanWhole else { return .declined }
        let before = view, listening = generation
        let plan = await Self.plan(payload.data, held: view.cache, version: view.version)
        guard generation == listening else { return .dropped }
        guard view === before, replacing == nil, let events = view.applyPlanned(plan, filtered: filtered) else {
            return .declined
        }
        return .applied(events, observers: .zero)
    }

    @concurrent
    nonisolated private static func plan(_ value: Snapshot, held: [Key: Snapshot], version: Int) async
        -> WholeValuePlan {
        QueryView.planWhole(value, held: held, version: version)
    }
}
