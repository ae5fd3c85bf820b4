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
/// Only the server's data is shared: the local writes a view shows over it
/// are its owner's, which shows them over what it is given.
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
    /// children: its text is made from it anywhere (``KnownData/appendText(to:)``).
    /// - Complexity: O(v·d) for v views at paths of depth d.
    func known(at path: [Key]) -> KnownData? {
        var children: [Key: HeldValue] = [:]
        for entry in entries {
            guard let view = entry.view, view.knowsWholeValue else { continue }
            if path.starts(with: entry.path) {
                return .whole(view.heldValue, below: Array(path[entry.path.count...]))
            }
            // A view exactly one level below: that child is known whole.
            if entry.path.count == path.count + 1, entry.path.starts(with: path), let key = entry.path.last {
                children[key] = view.heldValue
            }
        }
        return children.isEmpty ? nil : .children(children)
    }
}

extension QueryView {
    /// Whether the view holds every child of its location: a whole value
    /// arrived and was not cut by the server.
    var knowsWholeValue: Bool { isComplete && !cacheIsFiltered }

    /// The server's value of the location as the view holds it, local
    /// writes left out. - Complexity: O(1): its tables are shared.
    var heldValue: HeldValue { HeldValue(leaf: leaf, shown: cache, server: serverChildren) }

    /// Shows what other views know of this location (``ViewRegistry``) as
    /// the server's data, before this view's own first whole value: the
    /// whole value, or the children known.
    /// - Returns: The child events, in Firebase's order.
    /// - Complexity: O(size) of what is known, which is written and parsed
    ///   again, plus applying it.
    func show(_ known: KnownData) -> [ChildEvent] {
        var text: [UInt8] = []
        known.appendText(to: &text)
        guard let value = try? Snapshot.parse(json: text, order: query.order) else { return [] }
        switch known {
        case .whole: return apply([([], value)], filtered: false)
        case .children: return apply(value.children.compactMap { child in child.key.map { ([$0], child) } }, filtered: false)
        }
    }
}
