// LoadMode.swift — how a Firebase collection loads its children.

/// How a ``FirebaseCollection`` loads its children.
public enum LoadMode: Sendable, Hashable {
    /// Child by child: the initial children arrive as single additions (in
    /// the sequential contract), then every change as it happens. The first
    /// value is indexed and its models made away from the main actor; the
    /// additions then come in order, a few milliseconds of them at a time,
    /// so the main actor keeps running other work between them (a write
    /// made meanwhile shows at once). The value's child events
    /// (``FirebaseCollection/observeChildEvents(_:)``) are told when it is
    /// taken, before its rows are added; value observers once they are.
    case live
    /// Everything at once: the initial children arrive as one batch, then
    /// every change as it happens.
    case all
    /// A page of `size` children at a time, in query order: the first page
    /// as one batch, the next one when ``FirebaseCollection/loadNextPage()``
    /// is called. Listening runs from the first page, so new, changed, moved
    /// and removed children inside the loaded range show up live.
    case paged(size: Int)
    /// A page of `size` children at a time, from the end of the query's
    /// order backwards: the last `size` children first (the newest, in a
    /// chat ordered by time), then ``FirebaseCollection/loadNextPage()``
    /// brings the `size` before them, as one batch of rows prepended above
    /// the rows shown (it returns how many). The newest end and every
    /// loaded page stay live. The first page is the query's last `size`
    /// children (`limitToLast`): a child added at the end pushes its oldest
    /// out. Once an older page is loaded, the window starts at the oldest
    /// child loaded: children added at the end add rows and push none out
    /// (unless the query's own `limitToLast` is reached); a child leaves
    /// when it is removed or its sort value moves it before that child.
    /// Where an older child ties with the oldest loaded one (the same sort
    /// value), the window stays the last children (`limitToLast`). The
    /// query cannot have a `limitToFirst`.
    case pagedFromEnd(size: Int)

    /// The page size, in either paging mode; nil otherwise.
    /// - Complexity: O(1).
    public var pageSize: Int? {
        switch self {
        case .paged(let size), .pagedFromEnd(let size): return size
        case .live, .all: return nil
        }
    }
}

/// Where a ``FirebaseCollection`` stands.
public enum CollectionStatus: Sendable, Equatable, CustomStringConvertible {
    /// Not listening (never started, or stopped); the data is kept.
    case stopped
    /// Connecting, or connected and waiting for the location's value.
    case connecting
    /// Showing what a ``CollectionCache`` kept from an earlier run, or what
    /// other collections of a ``SharedCache`` hold, which the server has
    /// not confirmed yet: connecting (or reconnecting) for
    /// the location's value, which then replaces it as the smallest change.
    case cached
    /// Loaded and listening.
    case live
    /// The connection was lost; it comes back by itself and resyncs.
    case reconnecting(DatabaseError)
    /// Offline (``FirebaseCollection/goOffline()``): not connected, by
    /// choice. Writes show and wait; ``FirebaseCollection/goOnline()``
    /// connects again, resyncs and sends them, in order.
    case offline
    /// Listening ended for good (permission denied, credential revoked and
    /// not renewable, a refused query, …); the data is kept.
    case failed(DatabaseError)

    /// The status in words, with its error when it has one.
    public var description: String {
        switch self {
        case .stopped: return "stopped"
        case .connecting: return "connecting"
        case .cached: return "cached (not yet confirmed by the server)"
        case .live: return "live"
        case .reconnecting(let error): return "reconnecting (\(error))"
        case .offline: return "offline (writes wait to be sent)"
        case .failed(let error): return "failed: \(error)"
        }
    }
}
