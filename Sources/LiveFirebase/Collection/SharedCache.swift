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
/// collection alive: it reads the collections that are. Only collections
/// whose first value the server sent, that listen, and whose query keeps
/// every child (no bounds, no limit) are read; what a collection shows
/// from a cache, or from a shared cache, is not passed on until the server
/// confirms it.
///
/// Give one to the collections of one database and one signed-in user:
/// with credentials it needs a ``scope`` (the user's id), as a
/// ``CollectionCache`` does, and a new one is made at sign-out (collections
/// of another database are never shared with). The scope is a promise the
/// app makes: collections given one shared cache share what they hold
/// whatever their credentials.
///
/// ```swift
/// let shared = SharedCache(scope: userID)
/// let rooms = try FirebaseCollection(reference: root.child("rooms"), dataSource: roomSource, sharedCache: shared)
/// // Later, another screen: shows the lobby's members at once.
/// let lobby = try FirebaseCollection(reference: root.child("rooms/lobby"), dataSource: memberSource, sharedCache: shared)
/// ```
@MainActor
public final class SharedCache {
    private var registries: [DatabaseURL: ViewRegistry] = [:]
    /// Whose data it shares: the signed-in user's id, when the collections
    /// reach their database with credentials.
    public nonisolated let scope: String

    /// An empty shared cache, for the user `scope` (required for
    /// collections with credentials; empty by default).
    public init(scope: String = "") {
        self.scope = scope
    }

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

    /// What ``known(at:)`` returned, handed over, as a stream's message
    /// for `order` (``KnownData/message()``): written out, let go, then
    /// parsed, on a thread of its own (``ThreadedWork``), so that a large
    /// location keeps neither the main actor nor the concurrency pool.
    /// - Complexity: O(size of what is known).
    static func payload(_ known: Handover<KnownData>, order: QueryOrder) async -> StreamPayload? {
        await ThreadedWork {
            guard let message = known.take()?.message() else { return nil }
            return try? StreamPayload.parse(json: message.text, kind: message.kind, order: order)
        }.value()
    }
}
