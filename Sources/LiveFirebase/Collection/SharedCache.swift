// SharedCache.swift — what the collections of one database hold, shown at
// once by a new collection of a location they know.
import LiveModel

/// What the ``FirebaseCollection``s made with it hold, shared among them,
/// as the sync tree of Firebase's SDKs shares it: a collection started with
/// a shared cache first shows what the others already hold of its location,
/// with status ``CollectionStatus/cached``, while its stream connects; its
/// stream's first value then replaces that as the smallest change.
///
/// What a new collection shows at once:
/// - every child, when a collection at or above its location holds that
///   location's whole value (its first value arrived, and the server did
///   not cut it to a query's window);
/// - otherwise each child that a collection at that child's own location
///   holds whole (a screen of one item, then the list the item is in):
///   the rest of the list arrives with its stream's value.
///
/// Only what the server sent is shared: a collection's own unconfirmed
/// writes are its own. The shared cache holds nothing itself and keeps no
/// collection alive: it reads the collections that are. Give one to the
/// collections of one database and one signed-in user (collections of
/// other databases are never shared with); make a new one after sign-out.
///
/// ```swift
/// let shared = SharedCache()
/// let rooms = try FirebaseCollection(reference: root.child("rooms"), dataSource: roomSource, sharedCache: shared)
/// // Later, another screen: shows the lobby's members at once.
/// let lobby = try FirebaseCollection(reference: root.child("rooms/lobby"), dataSource: memberSource, sharedCache: shared)
/// ```
@MainActor
public final class SharedCache {
    private var registries: [DatabaseURL: ViewRegistry] = [:]

    /// An empty shared cache.
    public init() {}

    /// The views of collections of `database`.
    func registry(for database: DatabaseURL) -> ViewRegistry {
        if let registry = registries[database] { return registry }
        let made = ViewRegistry()
        registries[database] = made
        return made
    }

    /// What the collections of `reference`'s database hold of its location
    /// (write it out away from the main actor with ``payload(_:order:)``);
    /// nil when nothing is known.
    /// - Complexity: O(v·d) for v collections at paths of depth d.
    func known(at reference: DatabaseReference) -> KnownData? {
        registries[reference.database]?.known(at: reference.path.keys)
    }

    /// What ``known(at:)`` returned, as a stream's whole value for `order`.
    /// - Complexity: O(size of what is known): it is written from the
    ///   collections' texts and parsed once.
    @concurrent
    nonisolated static func payload(_ known: KnownData, order: QueryOrder) async -> StreamPayload? {
        var text = Array(#"{"path":"/","data":"#.utf8)
        known.appendText(to: &text)
        text.append(UInt8(ascii: "}"))
        return try? StreamPayload.parse(json: text, kind: .put, order: order)
    }
}
