// SortedCollection+Validation.swift — invariant checks, for tests.
import LiveModel

extension SortedCollection {
    /// The first broken invariant, or nil: positions and keys agree both ways,
    /// models are in strictly increasing order, iteration sees `count` models,
    /// and every model sits under its own identifier. - Complexity: O(n log n).
    package func invariantViolation() -> String? { check(backend) }

    private func check<B: OrderingBackend<Model>>(_ b: B) -> String? {
        var previous: (B.SortKey, Key)?
        var seen = 0
        for position in 0..<b.count {
            let key = b.key(at: position)
            guard b.position(of: key) == position else { return "key \(key) at \(position) reports another position" }
            guard b.model(at: position).identifier == key else { return "model at \(position) is not \(key)'s" }
            guard let sortKey = b.sortKey(for: key) else { return "no sort key for \(key)" }
            if let (ps, pk) = previous, !b.less(ps, pk, sortKey, key) { return "order broken at \(position)" }
            previous = (sortKey, key)
        }
        b.forEach(from: 0) { _ in seen += 1; return true }
        return seen == b.count ? nil : "iteration saw \(seen) of \(b.count)"
    }

    /// Runs the invariant check after a mutation when tests asked for it.
    @usableFromInline
    func validate() {
        #if DEBUG
        guard validatesEveryMutation, recording == nil, let problem = invariantViolation() else { return }
        preconditionFailure("SortedCollection invariant broken: \(problem)")
        #endif
    }
}
