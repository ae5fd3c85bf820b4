// QueryView+Resync.swift — a whole value over a view that holds children (a
// reconnect's resync, the server's value over cached children), compared
// away from the view's owner, which then applies only what changed.
import LiveModel

/// What a whole value changes in a view that holds children, worked out
/// from a copy of the children it held (``QueryView/planWhole(_:held:version:)``)
/// and applied by ``QueryView/applyPlanned(_:filtered:)``.
struct WholeValuePlan: Sendable {
    /// The view's ``QueryView/version`` the plan was made against.
    let version: Int
    /// The children held, with those the value brings unchanged replaced by
    /// its snapshots (so the old document can go), the others as they were.
    let kept: [Key: Snapshot]
    /// The children that changed, came or went, in the value's order (those
    /// that went last), and their new snapshots (absent for one that went).
    let touched: [Key]
    let next: [Key: Snapshot]
    /// The value's own primitive and priority.
    let own: OwnValue
}

extension QueryView {
    /// Whether a whole value may be compared away from the owner: the view
    /// holds children and no write of this client is shown or awaited
    /// (those need the view's own bookkeeping, done by ``apply(_:filtered:fillEvents:)``).
    var canPlanWhole: Bool {
        !cache.isEmpty && localWrites.isEmpty && expectedEchoes.isEmpty && heldForWrites.isEmpty && serverChildren.isEmpty
    }

    /// Compares `value` (a whole value of the location) with the children
    /// `held` (a view's ``cache``, taken at `version`): a child whose data,
    /// priorities at every level included, is the same (the same text, or else the same core digest)
    /// is not touched.
    /// - Complexity: O(n) digests and dictionary operations for n children;
    ///   meant to run away from the view's owner.
    nonisolated static func planWhole(_ value: Snapshot, held: [Key: Snapshot], version: Int) -> WholeValuePlan {
        var kept = held
        var next: [Key: Snapshot] = [:]
        var touched: [Key] = []
        var incoming = Set<Key>(minimumCapacity: value.childrenCount)
        for child in value.children {
            guard let key = child.key else { continue }
            incoming.insert(key)
            if next[key] == nil, let old = held[key], old.holdsSameData(as: child, priorities: true) {
                kept[key] = child
                continue
            }
            if next.updateValue(child, forKey: key) == nil { touched.append(key) }
        }
        for old in held.keys where !incoming.contains(old) {
            if next.updateValue(.absent(key: old), forKey: old) == nil { touched.append(old) }
        }
        return WholeValuePlan(version: version, kept: kept, touched: touched, next: next, own: OwnValue(value))
    }

    /// Applies a plan made by ``planWhole(_:held:version:)`` from this
    /// view's children, as ``apply(_:filtered:fillEvents:)`` would apply the
    /// value; nil (nothing changed) when the view changed since the plan
    /// was made, or now shows writes of this client: then the value is
    /// applied the usual way.
    /// - Complexity: O((t + k) log n) for t changed children and a limit of
    ///   k; the children held before are released on another thread.
    func applyPlanned(_ plan: WholeValuePlan, filtered: Bool?) -> [ChildEvent]? {
        guard plan.version == version, canPlanWhole else { return nil }
        let filtered = (filtered ?? serverFilters) && isFiltered
        markComplete(filtered: filtered)
        own = plan.own
        releaseInBackground(&cache, leaving: plan.kept)
        return commit(plan.touched, plan.next, dropHidden: filtered || cacheIsFiltered)
    }
}
