// ViewRegistry.swift — the query views open on one database, by location:
// what a new view can show before its own stream's first value.
import LiveModel

/// The query views open on one database, each at its location, and what
/// they know together, as the sync tree of Firebase's SDKs does: a view
/// opened at a location shows at once what the others already hold whole
/// of it, and its own stream's first value then corrects it.
///
/// What is known of a location (``known(at:)``, ``KnownData``):
/// - its whole value, when a view at or above it holds its location's
///   whole value (a whole value received, not cut by the server);
/// - otherwise each child whose own location a view holds whole: the rest
///   of the location is unknown.
///
/// Only the server's data is shared, and only that of views whose owner
/// confirmed it (``QueryView/isConfirmed``) and whose query keeps every
/// child: the local writes a view shows over it are its owner's, which
/// shows them over what it is given.
///
/// Views are held weakly: one that goes is forgotten.
///
/// Not thread-safe: confined to its owner's isolation domain, as its views
/// are.
final class ViewRegistry {
    private struct Entry {
        let path: [Key]
        weak var view: QueryView?
    }

    private var entries: [Entry] = []

    init() {}

    /// Adds `view`, open at `path`.
    /// - Complexity: O(v) for the v views held.
    func add(_ view: QueryView, at path: [Key]) {
        entries.removeAll { $0.view == nil || $0.view === view }
        entries.append(Entry(path: path, view: view))
    }

    /// Forgets `view`.
    /// - Complexity: O(v).
    func remove(_ view: QueryView) {
        entries.removeAll { $0.view == nil || $0.view === view }
    }

    /// What the views know of the location at `path`; nil when nothing.
    /// It is taken as the views hold it now, without reading their
    /// children (it shares their tables, or a child's snapshot): it is
    /// written out and parsed anywhere (``KnownData/payload(order:)``).
    /// - Complexity: O(v·d) for v views at paths of depth d, plus reading a
    ///   child d levels below a view.
    func known(at path: [Key]) -> KnownData? {
        var children: [Key: HeldValue] = [:]
        for entry in entries {
            guard let view = entry.view, view.knowsWholeValue else { continue }
            if path.starts(with: entry.path) {
                let below = path[entry.path.count...]
                guard let first = below.first else { return .whole(view.heldValue) }
                // Only the child taken: the view's tables are not held.
                var value = view.serverValue(first)
                for key in below.dropFirst() { value = value.child(key) }
                return .value(value)
            }
            // A view exactly one level below: that child is known whole.
            if entry.path.count == path.count + 1, entry.path.starts(with: path), let key = entry.path.last {
                let held = view.heldValue
                if held.exists { children[key] = held }
            }
        }
        return children.isEmpty ? nil : .children(children)
    }
}

extension QueryView {
    /// Whether the view holds every child of its location as the server
    /// last sent it: its owner confirmed a whole value (``isConfirmed``),
    /// its query keeps every child (no bounds, no limit), and the server
    /// did not cut what it sent.
    var knowsWholeValue: Bool { isConfirmed && isComplete && !cacheIsFiltered && !isFiltered }

    /// The server's value of the location as the view holds it, local
    /// writes left out. - Complexity: O(1): its tables are shared.
    var heldValue: HeldValue { HeldValue(own: own, shown: cache, server: serverChildren) }
}
