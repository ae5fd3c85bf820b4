extension Snapshot {
    /// Parses a REST response body (or any JSON value) as a snapshot.
    ///
    /// The whole input is validated at once — JSON syntax as jansson accepts
    /// it, Firebase keys, at most 32 levels of nesting — and nothing is
    /// returned unless all of it is valid. Values are parsed later, when read.
    ///
    /// - Parameters:
    ///   - json: The JSON text.
    ///   - key: The key of the location the data was read from (`nil` for
    ///     the database root).
    ///   - order: The order whose sort value is computed for each child
    ///     (used by live collections; it does not reorder ``children``).
    /// - Throws: ``ParseError`` with the code, line, column and byte
    ///   position of the first problem.
    /// - Complexity: O(length of the input): one pass; the text is copied
    ///   once.
    public static func parse(json: String, key: Key? = nil, order: QueryOrder = .priority) throws(ParseError) -> Snapshot {
        try parse(json: json.utf8, key: key, order: order)
    }

    /// Checks the UTF-8 JSON text `bytes[..<length]` as
    /// ``parse(json:key:order:)-(String,_,_)`` would, with the same errors,
    /// without making a snapshot. When ``checkPadding`` zero bytes (or more)
    /// follow the text in `bytes`, the text is not copied. `maxDepth`
    /// bounds the nesting (0: 32 levels) and `keysArePaths` reads the
    /// top-level names as relative paths (a patch).
    /// - Complexity: O(length), one pass.
    package static func check(json bytes: UnsafeBufferPointer<UInt8>, length: Int,
                              order: QueryOrder = .priority, maxDepth: Int = 0,
                              keysArePaths: Bool = false) throws(ParseError) {
        try SnapshotDocument.check(bytes, length: length, order: order, maxDepth: maxDepth, keysArePaths: keysArePaths)
    }

    /// The zero bytes after a text that let ``check(json:length:order:)``
    /// read it in place.
    package static var checkPadding: Int { SnapshotDocument.checkPadding }

    /// Parses UTF-8 JSON bytes (`[UInt8]`, `Data`, …) as a snapshot; see
    /// ``parse(json:key:order:)-(String,_,_)``.
    public static func parse<Bytes: Collection<UInt8>>(
        json bytes: Bytes, key: Key? = nil, order: QueryOrder = .priority
    ) throws(ParseError) -> Snapshot {
        let document = try withContiguousBytes(bytes) { buffer throws(ParseError) in
            try SnapshotDocument.parse(buffer, order: order)
        }
        return Snapshot(location: .root(document), key: key)
    }
}
