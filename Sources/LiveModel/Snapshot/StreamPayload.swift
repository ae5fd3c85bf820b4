internal import CJansson
internal import CLiveCore

/// The payload of a streaming `put` or `patch` event:
/// `{"path": "/a/b", "data": …}`.
///
/// A `put` replaces what is at ``path`` with ``data`` (absent data deletes
/// it). A `patch` merges: each member of the data is a path relative to
/// ``path`` whose value is replaced (a `null` member deletes it).
/// ``updates`` states both uniformly as a list of replacements.
public struct StreamPayload: Sendable {
    /// Which event the payload belongs to.
    public enum Kind: Sendable, Hashable {
        /// Replace the value at the path.
        case put
        /// Replace the value at each relative path of the data's members.
        case patch
    }

    /// A replacement: the value at a path relative to the payload's
    /// ``StreamPayload/path`` becomes ``value`` (deleted when it does not
    /// exist).
    public struct Update: Sendable {
        /// Where, relative to the payload's path (``DatabasePath/root`` for a put).
        public let path: DatabasePath
        /// The new value; ``Snapshot/exists`` is `false` for a deletion.
        public let value: Snapshot
    }

    /// Which event this is.
    public let kind: Kind
    /// The location the event is about.
    public let path: DatabasePath
    /// For a put, the new value at ``path`` (its key is the path's last
    /// key); for a patch, the object of changes, whose children are keyed by
    /// the last key of their relative path — read ``updates`` for the paths.
    public let data: Snapshot

    /// The event as replacements: for a put, one at ``DatabasePath/root`` with
    /// ``data``; for a patch, one per member of the data (members that are
    /// `null` or empty are deletions).
    public let updates: [Update]

    /// Parses the JSON text of an event's `data:` line.
    ///
    /// - Parameters:
    ///   - json: The payload text.
    ///   - kind: The event (`put` or `patch`): for a patch, the data's
    ///     members are validated as relative paths.
    ///   - order: The order whose sort value is computed for each child.
    /// - Throws: ``ParseError`` (``ParseError/Code/payloadShape`` when the
    ///   text is not an object with a string `"path"` and a `"data"` member).
    /// - Complexity: O(length of the input).
    public static func parse(json: String, kind: Kind, order: QueryOrder = .priority) throws(ParseError) -> StreamPayload {
        try parse(json: json.utf8, kind: kind, order: order)
    }

    /// Parses UTF-8 payload bytes; see ``parse(json:kind:order:)-(String,_,_)``.
    public static func parse<Bytes: Collection<UInt8>>(
        json bytes: Bytes, kind: Kind, order: QueryOrder = .priority
    ) throws(ParseError) -> StreamPayload {
        let keysArePaths = kind == .patch
        var payload = lc_payload()
        let status = withContiguousBytes(bytes) { buffer in
            order.withCoreOrder { coreOrder -> (lc_status, lc_error) in
                var error = lc_error()
                var options = lc_parse_options(order: coreOrder, max_depth: 0, keys_are_paths: keysArePaths ? 1 : 0)
                let status = lc_payload_parse(buffer.cChars, buffer.count, &options, &payload, &error)
                return (status, error)
            }
        }
        guard status.0 == LC_OK, let pointer = payload.data else {
            var error = status.1
            if error.code == LC_OK { error.code = status.0 == LC_OK ? LC_ERR_PAYLOAD_SHAPE : status.0 }
            lc_payload_release(&payload)
            throw ParseError(error)
        }
        let path = DatabasePath(validatedText: String(utf8: payload.path, count: payload.path_len))
        // Take the document; free only the path.
        payload.data = nil
        lc_payload_release(&payload)
        let document = SnapshotDocument(taking: pointer, order: order, keysArePaths: keysArePaths)
        let data = Snapshot(location: .root(document), key: path.lastKey)
        let updates: [Update]
        switch kind {
        case .put:
            updates = [Update(path: .root, value: data)]
        case .patch:
            updates = patchUpdates(document)
        }
        return StreamPayload(kind: kind, path: path, data: data, updates: updates)
    }

    /// A patch's members as updates: the document keeps every member of a
    /// patch, a `null` or empty one standing for a deletion.
    /// - Complexity: O(number of members).
    private static func patchUpdates(_ document: SnapshotDocument) -> [Update] {
        guard document.hasChildren else { return [] }
        return (0..<document.count).map { i in
            let relative = DatabasePath(validatedText: document.keyText(at: i))
            guard !document.isNullMember(at: i) else {
                return Update(path: relative, value: .absent(key: relative.lastKey))
            }
            return Update(path: relative, value: Snapshot(location: .child(document, i), key: relative.lastKey))
        }
    }
}
