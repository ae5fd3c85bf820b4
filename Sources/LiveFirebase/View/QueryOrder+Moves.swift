// QueryOrder+Moves.swift — when a changed child also raises child_moved.
import LiveModel

extension QueryOrder {
    /// Whether a child that changed from `old` to `new` (and stays shown)
    /// raises `child_moved` before its `child_changed`: when the part of the
    /// child this order indexes changed, as Firebase's indexes decide it
    /// (`indexedValueChanged`), whether or not the child's place changed.
    ///
    /// - ``value``: the value or the priority is not *equal* (an object that
    ///   becomes another object moves, though all objects sort together).
    /// - ``priority``: the priority is not equal.
    /// - ``child(_:)``: the values at the path *compare* differently (an
    ///   object that becomes another object there does not move).
    /// - ``key``: never (a key does not change).
    /// - Complexity: O(size of the values) for ``value``; O(1) otherwise.
    func movesChild(from old: Snapshot, to new: Snapshot) -> Bool {
        switch self {
        case .key: return false
        case .priority: return old.priority != new.priority
        case .value: return old.value != new.value || old.priority != new.priority
        case .child: return SortValue.compare(old.sortValue, new.sortValue) != 0
        }
    }
}
