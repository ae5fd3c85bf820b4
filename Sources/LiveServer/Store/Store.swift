import LiveModel

/// The whole database tree, and the writes the REST protocol makes to it.
///
/// A value type: the caller serialises access (one actor or one event loop
/// owns the store). Every write checks everything first and then applies
/// in full, or throws and changes nothing. Each returns the ``Write``s it
/// applied, for the journal and the stream events.
package struct Store: Sendable {
    /// The data at the root.
    package private(set) var root: DataNode

    /// A store holding `root`.
    package init(root: DataNode = .empty) {
        self.root = root
    }

    /// The node at `path`, or ``DataNode/empty`` when absent.
    /// - Complexity: O(depth of the path).
    package func get(_ path: DatabasePath) -> DataNode {
        root.child(at: path)
    }

    /// `PUT`: replaces the data at `path` with `json`.
    ///
    /// The body is normalised as ``DataNode/init(json:)`` describes, and its
    /// server values are resolved against the current data: `{".sv":
    /// "timestamp"}` is `now`, `{".sv": {"increment": n}}` adds `n` to the
    /// number stored at that location (or is `n`). `null` deletes.
    /// - Parameters:
    ///   - now: The server's time, in milliseconds since 1970.
    /// - Returns: One write: `path` and the node now there.
    /// - Throws: ``StoreError`` (400) for bad data, a bad key, data nested
    ///   more than ``DatabasePath/maxDepth`` levels below the root, or an unknown
    ///   server value; nothing is changed then.
    /// - Complexity: O(size of the body + depth of the path).
    package mutating func set(_ path: DatabasePath, json: JSONValue, now: Int64) throws(StoreError) -> [Write] {
        let node = try DataNode(json: json, writtenAt: path, current: root.child(at: path), now: now)
        return set(path, node: node)
    }

    /// Replaces the data at `path` with a node built beforehand.
    /// - Returns: One write: `path` and `node`.
    /// - Complexity: O(depth of the path).
    @discardableResult
    package mutating func set(_ path: DatabasePath, node: DataNode) -> [Write] {
        root.set(node, at: path)
        return [Write(path: path, node: node)]
    }

    /// `POST`: writes `json` at a new child of `path`, named by the next
    /// push id.
    /// - Returns: The new child's key and the one write made.
    /// - Throws: ``StoreError`` (400) as ``set(_:json:now:)`` does, or when
    ///   `path` is already as deep as a path may be.
    /// - Complexity: O(size of the body + depth of the path).
    package mutating func push(_ path: DatabasePath, json: JSONValue, now: Int64, ids: inout PushIDGenerator)
        throws(StoreError) -> (Key, [Write])
    {
        try push(path, value: .json(json), now: now, ids: &ids)
    }

    /// `POST` of a value read from a body (nodes already built, or JSON).
    mutating func push(_ path: DatabasePath, value: WrittenValue, now: Int64, ids: inout PushIDGenerator)
        throws(StoreError) -> (Key, [Write])
    {
        let key = ids.next(now: now)
        let target: DatabasePath
        do { target = try path.child(key) } catch { throw .invalidPath(error) }
        switch value {
        case .node(let node):
            guard target.keys.count <= DatabasePath.maxDepth || node.isEmpty else {
                throw .badRequest("Invalid data; the data would be nested more than \(DatabasePath.maxDepth) levels deep.")
            }
            return (key, set(target, node: node))
        case .json(let json):
            return (key, try set(target, json: json, now: now))
        }
    }

    /// `DELETE`: removes the data at `path` (and any ancestor left empty).
    /// - Returns: One write: `path` and ``DataNode/empty``.
    /// - Complexity: O(depth of the path).
    @discardableResult
    package mutating func delete(_ path: DatabasePath) -> [Write] {
        set(path, node: .empty)
    }

    /// Applies writes made earlier, in order (recovery from a journal).
    /// - Complexity: O(sum of the paths' depths).
    package mutating func apply(_ writes: [Write]) {
        for write in writes {
            root.set(write.node, at: write.path)
        }
    }

    /// An opaque tag of the value at `path`, for `X-Firebase-ETag` and
    /// conditional requests: it changes whenever the value there (or a
    /// priority inside it) changes. It is the 32 hexadecimal digits of the
    /// value's ``ValueDigest`` with priorities, which a client computes from
    /// the same data (`Snapshot.digest()`). An absent value is `"null_etag"`.
    /// - Complexity: O(size of the value at `path`).
    package func etag(_ path: DatabasePath) -> String {
        Store.etag(of: get(path))
    }

    /// The tag of `node`'s value (see ``etag(_:)``).
    /// - Complexity: O(size of the value).
    package static func etag(of node: DataNode) -> String {
        if node.isEmpty { return Store.nullETag }
        return node.digest.description
    }

    /// The tag of an absent value.
    package static let nullETag = "null_etag"

    /// Checks a conditional request's `if-match` tag against the value at
    /// `path`.
    /// - Throws: ``StoreError/etagMismatch`` (412) when they differ.
    /// - Complexity: O(size of the value at `path`).
    package func requireETag(_ etag: String, at path: DatabasePath) throws(StoreError) {
        guard self.etag(path) == etag else { throw .etagMismatch }
    }
}

/// One overwrite applied to the database: the node now at an absolute
/// path, with server values already resolved. A ``DataNode/empty`` node is
/// a deletion.
///
/// Writes are what the server journals, replays on recovery
/// (``Store/apply(_:)``) and turns into stream events. A write may leave
/// the data as it was (deleting something absent, writing the same value).
package struct Write: Sendable, Equatable {
    /// Where the node was written, from the root.
    package let path: DatabasePath
    /// What is there now; ``DataNode/empty`` when the location was removed.
    package let node: DataNode

    /// Creates a write.
    package init(path: DatabasePath, node: DataNode) {
        self.path = path
        self.node = node
    }

    /// Whether this write removes its location.
    package var isDeletion: Bool { node.isEmpty }
}
