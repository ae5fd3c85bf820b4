internal import CJansson
internal import CLiveCore

/// A parsed C document (`lc_doc`), owned and freed here.
///
/// Sendable because the document is immutable once parsed: every `lc_doc_*`
/// accessor only reads it (values are parsed from the kept text into new
/// jansson trees owned by the caller), so concurrent readers are safe.
final class SnapshotDocument: @unchecked Sendable {
    /// The `lc_doc *`; never NULL.
    let pointer: OpaquePointer
    /// The order sort values were computed for (also used for nested
    /// documents parsed from a child's text).
    let order: QueryOrder
    /// Whether top-level keys are relative paths (a patch payload's data).
    let keysArePaths: Bool

    init(taking pointer: OpaquePointer, order: QueryOrder, keysArePaths: Bool) {
        self.pointer = pointer
        self.order = order
        self.keysArePaths = keysArePaths
    }

    deinit {
        lc_doc_free(pointer)
    }

    /// Parses `bytes` as a snapshot (`lc_doc_parse`).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, order: QueryOrder,
                      keysArePaths: Bool = false) throws(ParseError) -> SnapshotDocument {
        var error = lc_error()
        var document: OpaquePointer?
        let status = order.withCoreOrder { coreOrder in
            var options = lc_parse_options(order: coreOrder, max_depth: 0, keys_are_paths: keysArePaths ? 1 : 0)
            return lc_doc_parse(bytes.cChars, bytes.count, &options, &document, &error)
        }
        guard status == LC_OK, let document else {
            if error.code == LC_OK { error.code = status }
            throw ParseError(error)
        }
        return SnapshotDocument(taking: document, order: order, keysArePaths: keysArePaths)
    }

    /// Checks `bytes[..<length]` as ``parse(_:order:keysArePaths:)`` would,
    /// without making a document (`lc_doc_check`): in place when at least
    /// ``checkPadding`` zero bytes follow the text in `bytes`, else on a copy.
    static func check(_ bytes: UnsafeBufferPointer<UInt8>, length: Int, order: QueryOrder,
                      maxDepth: Int = 0, keysArePaths: Bool = false) throws(ParseError) {
        precondition(length <= bytes.count, "the text is inside the buffer")
        var error = lc_error()
        let status = order.withCoreOrder { coreOrder in
            var options = lc_parse_options(order: coreOrder, max_depth: UInt32(clamping: max(0, maxDepth)),
                                           keys_are_paths: keysArePaths ? 1 : 0)
            return lc_doc_check(bytes.cChars, length, bytes.count, &options, &error)
        }
        guard status == LC_OK else {
            if error.code == LC_OK { error.code = status }
            throw ParseError(error)
        }
    }

    /// The zero bytes ``check(_:length:order:)`` needs after the text.
    static let checkPadding = Int(LC_DOC_PAD)

    // MARK: Whole document

    /// Whether the document holds no value (null, or no children).
    var isNull: Bool { lc_doc_kind_of(pointer) == LC_DOC_NULL }

    /// Whether the document is an object with at least one child.
    var hasChildren: Bool { lc_doc_kind_of(pointer) == LC_DOC_CHILDREN }

    /// The whole value. - Complexity: O(size of the document).
    var rootValue: JSONValue {
        var error = lc_error()
        guard let json = lc_doc_root_json(pointer, &error) else {
            return SnapshotDocument.readFailed(error)
        }
        defer { json_decref(json) }
        return JSONValue(jansson: json)
    }

    /// The document's own priority.
    var rootPriority: Priority? {
        var value = lc_value()
        guard lc_doc_root_priority(pointer, &value) == LC_OK else { return nil }
        return Priority(coreValue: value)
    }

    // MARK: Children

    /// Number of children.
    var count: Int { lc_doc_count(pointer) }

    /// The raw text of child `i`'s key (a relative path for a patch).
    func keyText(at i: Int) -> String {
        var length = 0
        let bytes = lc_doc_key(pointer, i, &length)
        return String(utf8: bytes, count: length)
    }

    /// The key of child `i`; for a patch, the last key of its path (`nil`
    /// only for a patch member at the root path itself).
    func key(at i: Int) -> Key? {
        var length = 0
        let bytes = lc_doc_key(pointer, i, &length)
        if !keysArePaths { return Key(uncheckedUTF8: bytes, count: length) }
        return DatabasePath(validatedText: String(utf8: bytes, count: length)).lastKey
    }

    /// The index of the child whose key is `key`, or `nil`.
    /// - Complexity: O(number of children): a scan.
    func index(of key: Key) -> Int? {
        key.withUTF8 { wanted -> Int? in
            for i in 0..<count {
                var length = 0
                guard let bytes = lc_doc_key(pointer, i, &length), length == wanted.count else { continue }
                if UnsafeRawBufferPointer(start: bytes, count: length).elementsEqual(UnsafeRawBufferPointer(wanted)) {
                    return i
                }
            }
            return nil
        }
    }

    /// Child `i`'s value, normalised (priorities removed, arrays as objects).
    /// - Complexity: O(size of the child).
    func value(at i: Int) -> JSONValue {
        var error = lc_error()
        guard let json = lc_doc_child_json(pointer, i, &error) else {
            return SnapshotDocument.readFailed(error)
        }
        defer { json_decref(json) }
        return JSONValue(jansson: json)
    }

    /// The sort value of the value at the relative path whose UTF-8 text is
    /// `path` ("a/b") inside child `i`, read from its text without parsing it, for the
    /// common shapes (see `lc_doc_child_path_value`); nil when the child
    /// must be parsed to tell.
    /// - Complexity: O(size of the child), with no allocation but a
    ///   string's.
    func quickSortValue(at i: Int, path: UnsafeBufferPointer<UInt8>) -> SortValue? {
        var value = lc_value()
        var decided: Int32 = 0
        guard lc_doc_child_path_value(pointer, i, path.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                                      path.count, &value, &decided) == LC_OK, decided != 0 else { return nil }
        return SortValue(coreValue: value)
    }

    /// Child `i`'s priority.
    func priority(at i: Int) -> Priority? {
        var value = lc_value()
        guard lc_doc_priority(pointer, i, &value) == LC_OK else { return nil }
        return Priority(coreValue: value)
    }

    /// Child `i`'s sort value under ``order``.
    func sortValue(at i: Int) -> SortValue {
        var value = lc_value()
        guard lc_doc_sort_value(pointer, i, &value) == LC_OK else { return .null }
        return SortValue(coreValue: value)
    }

    /// Runs `body` over child `i`'s JSON text exactly as received.
    func withText<R>(at i: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        var text: UnsafePointer<CChar>?
        var length = 0
        guard lc_doc_child_text(pointer, i, &text, &length) == LC_OK, let text else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        return try text.withMemoryRebound(to: UInt8.self, capacity: length) {
            try body(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// Runs `body` over the whole document's JSON text exactly as received.
    func withRootText<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        var text: UnsafePointer<CChar>?
        var length = 0
        guard lc_doc_root_text(pointer, &text, &length) == LC_OK, let text else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        return try text.withMemoryRebound(to: UInt8.self, capacity: length) {
            try body(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// Whether child `i` holds no value: `null` or an empty container (in a
    /// patch, where such members are kept, this means "delete").
    /// - Complexity: O(1).
    func isNullMember(at i: Int) -> Bool {
        lc_doc_child_is_null(pointer, i) != 0
    }

    /// Whether child `i`'s text is an object or an array (it may have
    /// children), judged from its first significant byte without parsing.
    func mayHaveChildren(at i: Int) -> Bool {
        withText(at: i) { text in
            for byte in text {
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0D: continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): return true
                default: return false
                }
            }
            return false
        }
    }

    /// Child `i` parsed as a document of its own, to reach its children.
    /// The text was validated with the whole document, so this fails only
    /// when memory runs out; the child then shows no children.
    /// - Complexity: O(size of the child).
    func subdocument(at i: Int) -> SnapshotDocument? {
        withText(at: i) { text in
            do {
                return try SnapshotDocument.parse(text, order: order)
            } catch {
                assertionFailure("LiveModel: re-reading a validated child failed: \(error)")
                return nil
            }
        }
    }

    /// Reading a document that was validated whole fails only when memory
    /// runs out: out of memory is fatal, as for any Swift allocation; any
    /// other failure (a core bug) reads as null rather than crashing on data.
    private static func readFailed(_ error: lc_error) -> JSONValue {
        if error.code == LC_ERR_NOMEM { fatalError("LiveModel: out of memory reading a snapshot") }
        assertionFailure("LiveModel: reading a validated snapshot failed: \(ParseError(error))")
        return .null
    }
}
