// ListenerRegistry.swift — the open streams: by id, by location, and the
// query windows streams with the same query at the same location share.

import LiveModel

/// The streams a server has open.
///
/// - By id, for faults, tokens and closing.
/// - By location (a ``LocationTree``), so that a write visits only the
///   streams it concerns, in the order they were added.
/// - One ``ListenerWindow`` per (location, query) that filters (a limit or
///   bounds), shared by every stream with that query there: it is kept up
///   to date once per write however many streams share it, a new stream
///   with the same query gets its first `put` from it without reading the
///   location again, and a REST read of the same query answers from it.
///
/// Not thread-safe: guarded by the server's lock.
struct ListenerRegistry {
    private struct WindowKey: Hashable {
        let path: DatabasePath
        let query: DatabaseQuery
    }

    private struct SharedWindow {
        let window: ListenerWindow
        var streams: Int
    }

    /// Every open stream, by id.
    private(set) var byID: [Int: Listener] = [:]
    private let tree = LocationTree()
    private var windows: [WindowKey: SharedWindow] = [:]

    var isEmpty: Bool { byID.isEmpty }

    /// How many streams are open.
    var count: Int { byID.count }

    /// How many shared windows are kept, and how many streams share each.
    var windowShares: [Int] { windows.values.map(\.streams).sorted() }

    /// Every open stream, in the order they were added.
    /// - Complexity: O(s log s) for s streams.
    var inOrder: [Listener] { byID.values.sorted { $0.id < $1.id } }

    subscript(id: Int) -> Listener? { byID[id] }

    /// Registers `listener`, whose id is greater than any registered before.
    /// - Complexity: O(depth of its location).
    mutating func add(_ listener: Listener) {
        byID[listener.id] = listener
        tree.insert(listener.id, at: listener.path)
    }

    /// Forgets stream `id`, and its window once no other stream shares it.
    /// - Complexity: O(depth of its location + streams there).
    @discardableResult
    mutating func remove(_ id: Int) -> Listener? {
        guard let listener = byID.removeValue(forKey: id) else { return nil }
        tree.remove(id, at: listener.path)
        if let window = listener.window {
            let key = WindowKey(path: listener.path, query: window.query)
            if let shared = windows[key], shared.window === window {
                if shared.streams <= 1 { windows[key] = nil } else { windows[key]!.streams -= 1 }
            }
        }
        return listener
    }

    /// The window of `query` at `path` that streams share, if any stream
    /// has one.
    /// - Complexity: O(1) on average (a hash of the path and the query).
    func window(at path: DatabasePath, _ query: DatabaseQuery) -> ListenerWindow? {
        windows[WindowKey(path: path, query: query)]?.window
    }

    /// Gives `listener` the shared window of its query at its location, or
    /// `prepared` (made from the location as it is now) when there is none,
    /// which then becomes the shared one. Returns the window it got.
    @discardableResult
    mutating func attach(_ listener: Listener, preparing prepared: @autoclosure () -> ListenerWindow) -> ListenerWindow {
        guard let query = listener.query, query.filters else { preconditionFailure("only a filtering query has a window") }
        let key = WindowKey(path: listener.path, query: query)
        let window: ListenerWindow
        if let shared = windows[key] {
            window = shared.window
            windows[key]!.streams += 1
        } else {
            window = prepared()
            windows[key] = SharedWindow(window: window, streams: 1)
        }
        listener.window = window
        return window
    }

    /// The streams `mutation` concerns (at, above or below one of its
    /// writes), in the order they were added.
    /// - Complexity: O(w · d + c log c) for w writes of depth d and c
    ///   streams concerned, plus the locations below the writes.
    func concerned(by mutation: Mutation) -> [Listener] {
        var ids: [Int] = []
        for write in mutation.writes { tree.concerned(by: write.path, into: &ids) }
        if ids.isEmpty { return [] }
        ids.sort()
        var result: [Listener] = []
        result.reserveCapacity(ids.count)
        var last = -1
        for id in ids where id != last {
            last = id
            if let listener = byID[id] { result.append(listener) }
        }
        return result
    }
}
