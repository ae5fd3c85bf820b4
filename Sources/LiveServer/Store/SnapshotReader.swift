import LiveModel

extension DataNode {
    /// The data of a data file's snapshot (export-format JSON, or plain JSON
    /// as initial data), normalised as ``init(json:)`` normalises a body.
    ///
    /// The text is validated once by the C core and then kept: every plain
    /// value (see ``PlainText``) of at most `packLimit` bytes, and every
    /// plain primitive, stays a span of the file's bytes (``PackedJSON``)
    /// until it is written over, so a large file costs about its own size
    /// plus a dictionary entry per child of each larger object, or, for an
    /// object of more than ``SnapshotReader/countedAfter`` members, about
    /// 24 bytes a member in a ``MemberTable`` of the text. Anything else
    /// (priorities, arrays, `null`s, escapes, fractions, whitespace inside a
    /// small value) is read as a body is.
    /// - Throws: ``StoreError`` for data the database refuses, or
    ///   ``ParseError`` for text that is not JSON.
    /// - Complexity: O(size of the text).
    ///
    /// - Parameter length: The length of the text, when `bytes` holds more
    ///   after it: ``Snapshot/checkPadding`` zero bytes let the core check
    ///   the text without a copy of it.
    package static func reading(snapshot bytes: [UInt8], length: Int? = nil,
                                packLimit: Int = SnapshotReader.packLimit) throws -> DataNode {
        let length = length ?? bytes.count
        let checked = length < Int(UInt32.max) && bytes.withUnsafeBufferPointer { p in
            (try? Snapshot.check(json: p, length: length, order: .key)) != nil
        }
        guard checked else {
            // Refused by the core (or too large to pack): the same reading,
            // and so the same errors, as a body.
            return try bytes.withUnsafeBufferPointer { p in
                try DataNode(json: JSONValue(parsingUTF8: UnsafeBufferPointer(rebasing: p[..<length])))
            }
        }
        return try SnapshotReader(bytes: bytes, length: length, packLimit: packLimit).root()
    }
}

/// Reads snapshot text that the C core has validated into nodes, packing
/// what is plain (see ``DataNode/reading(snapshot:packLimit:)``).
struct SnapshotReader {
    /// The largest object kept as text by default; larger ones get a
    /// dictionary of their children, so that reading one child never walks
    /// much text.
    static let packLimit = 4096

    let bytes: [UInt8]
    /// The length of the text at the start of `bytes`.
    let length: Int
    /// The largest object kept as text.
    var packLimit = SnapshotReader.packLimit

    /// The node of the whole text.
    func root() throws -> DataNode {
        try bytes.withUnsafeBufferPointer { p in
            var start = 0, end = length
            while start < end, Self.isSpace(p[start]) { start += 1 }
            while end > start, Self.isSpace(p[end - 1]) { end -= 1 }
            return try node(p, start, end, depth: 0)
        }
    }

    /// One past the end of the value at `start` when it is kept as text: a
    /// plain value (see ``PlainText``), an object only up to `packLimit`
    /// bytes; else nil.
    private func plainEnd(_ p: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int? {
        guard let end = PlainText.end(p, start) else { return nil }
        return p[start] != UInt8(ascii: "{") || end - start <= packLimit ? end : nil
    }

    /// The node of the value `p[start..<end]`, `depth` keys below the root.
    private func node(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, depth: Int) throws -> DataNode {
        guard start < end else { return try slowNode(p, start, end, depth: depth) }
        if end - start == 4, p[start] == UInt8(ascii: "n") { return .empty }  // null (the text is valid)
        let isObject = p[start] == UInt8(ascii: "{")
        // (A larger object is not walked to find it is not packed.)
        if !isObject || end - start <= packLimit, plainEnd(p, start) == end {
            return DataNode(packed: PackedJSON(bytes, start: start, end: end))
        }
        if isObject, let (node, objectEnd) = try members(p, start, end, depth: depth), objectEnd == end { return node }
        if p[start] == UInt8(ascii: "["), let node = try elements(p, start, end, depth: depth) { return node }
        return try slowNode(p, start, end, depth: depth)
    }

    /// The node of the object that starts at `start`, too large to pack,
    /// member by member, and one past its end (found by reading it: its
    /// text is not walked beforehand), within `limit`; `nil` when a member
    /// is named `.…` (a priority or a wrapped value), or the text holds
    /// anything unexpected: the object is then read as a body is.
    ///
    /// An object of more than ``countedAfter`` members is kept in a
    /// ``MemberTable`` of the text, unless a member's name holds an escape.
    /// Its text is read once either way: the members are kept for the
    /// table as they are read, until it is clear whether it will be one.
    private func members(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ limit: Int,
                         depth: Int) throws -> (node: DataNode, end: Int)? {
        var children: [Key: DataNode] = [:]
        // The members as a table takes them, while every name is plain.
        var table: MemberTable.Builder? = MemberTable.Builder(buffer: bytes)
        // Whether the members go to the table alone (past `countedAfter`).
        var inTable = false
        var i = skipSpace(p, start + 1, limit)
        if i < limit, p[i] == UInt8(ascii: "}") { return (.empty, i + 1) }
        while i < limit, p[i] == UInt8(ascii: "\"") {
            guard let nameEnd = Self.escapedStringEnd(p, i, limit), nameEnd - i > 2, p[i + 1] != UInt8(ascii: ".")
            else { return nil }
            let nameStart = i
            i = skipSpace(p, nameEnd, limit)
            guard i < limit, p[i] == UInt8(ascii: ":") else { return nil }
            let valueStart = skipSpace(p, i + 1, limit)
            let valueEnd: Int
            var child: DataNode?
            if let plainEnd = plainEnd(p, valueStart) {
                // Kept as it is found: its text is walked once.
                valueEnd = plainEnd
            } else if valueStart < limit, p[valueStart] == UInt8(ascii: "{") {
                if let (object, objectEnd) = try members(p, valueStart, limit, depth: depth + 1) {
                    valueEnd = objectEnd
                    child = object
                } else {
                    // Read as a body is, at once: reading it member by member
                    // again would fail again (and, nested, twice per level).
                    guard let found = Self.valueEnd(p, valueStart, limit) else { return nil }
                    valueEnd = found
                    child = try slowNode(p, valueStart, found, depth: depth + 1)
                }
            } else {
                guard let found = Self.valueEnd(p, valueStart, limit) else { return nil }
                valueEnd = found
                child = try node(p, valueStart, valueEnd, depth: depth + 1)
            }
            if table != nil, PlainText.stringEnd(p, nameStart) != nameEnd || table!.isFull {
                // A name with an escape is not where its key's bytes are.
                if inTable { children = table!.finish().dictionary }
                table = nil
                inTable = false
            }
            if let child {
                table?.add(keyStart: nameStart + 1, keyEnd: nameEnd - 1, node: child)
            } else {
                table?.add(keyStart: nameStart + 1, keyEnd: nameEnd - 1, valueStart: valueStart, valueEnd: valueEnd)
            }
            if !inTable {
                guard let key = try Self.key(p, nameStart, nameEnd) else { return nil }
                let child = child ?? DataNode(packed: PackedJSON(bytes, start: valueStart, end: valueEnd))
                // The last occurrence of a key wins, even an empty one.
                if child.isEmpty { children.removeValue(forKey: key) } else { children[key] = child }
            }
            i = skipSpace(p, valueEnd, limit)
            guard i < limit else { return nil }
            if p[i] == UInt8(ascii: "}") {
                if inTable, var table { return (DataNode(table: table.finish()), i + 1) }
                return (DataNode(nonEmptyChildren: children), i + 1)
            }
            guard p[i] == UInt8(ascii: ",") else { return nil }
            i = skipSpace(p, i + 1, limit)
            if !inTable, children.count == Self.countedAfter {
                if table != nil {
                    inTable = true
                    children = [:]
                } else {
                    // Many members: the rest are counted, so that the
                    // dictionary is made at its size rather than grown
                    // (which holds the old and the new table at once).
                    children.reserveCapacity(children.count + memberCount(p, i, limit))
                }
            }
        }
        return nil
    }

    /// The node of an array, element by element: an object keyed by the
    /// elements' indices, empty elements left out, as a body's array is
    /// read (so that `[{}, {}, …]` costs nothing per element); `nil` when
    /// the text holds anything unexpected.
    private func elements(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, depth: Int) throws -> DataNode? {
        var children: [Key: DataNode] = [:]
        var i = skipSpace(p, start + 1, end)
        if i < end, p[i] == UInt8(ascii: "]") { return i + 1 == end ? .empty : nil }
        var index = 0
        while i < end {
            guard let valueEnd = Self.valueEnd(p, i, end) else { return nil }
            let child = try node(p, i, valueEnd, depth: depth + 1)
            if !child.isEmpty { children[Key(unchecked: String(index))] = child }
            index += 1
            i = skipSpace(p, valueEnd, end)
            guard i < end else { return nil }
            if p[i] == UInt8(ascii: "]") {
                guard i + 1 == end else { return nil }
                return children.isEmpty ? .empty : DataNode(nonEmptyChildren: children)
            }
            guard p[i] == UInt8(ascii: ",") else { return nil }
            i = skipSpace(p, i + 1, end)
        }
        return nil
    }

    /// The members of an object read before the rest are counted.
    static let countedAfter = 4096

    /// How many members follow in an object from `i`, the start of a
    /// member's name (fewer if the text holds anything unexpected: the
    /// count is only a capacity).
    private func memberCount(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int {
        var count = 0
        var i = i
        while i < end, p[i] == UInt8(ascii: "\""), let nameEnd = Self.escapedStringEnd(p, i, end) {
            i = skipSpace(p, nameEnd, end)
            guard i < end, p[i] == UInt8(ascii: ":") else { break }
            guard let valueEnd = Self.valueEnd(p, skipSpace(p, i + 1, end), end) else { break }
            count += 1
            i = skipSpace(p, valueEnd, end)
            guard i < end, p[i] == UInt8(ascii: ",") else { break }
            i = skipSpace(p, i + 1, end)
        }
        return count
    }

    /// The key named by the string `p[start..<end]` (quotes included), or
    /// `nil` for a name that is not a key (`.priority`, `.value`).
    private static func key(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws -> Key? {
        if PlainText.stringEnd(p, start) == end {
            return Key(uncheckedUTF8: UnsafeRawPointer(p.baseAddress! + start + 1).assumingMemoryBound(to: CChar.self),
                       count: end - start - 2)
        }
        // An escaped name: rare, so read as JSON.
        guard case .string(let name) = try JSONValue(parsingUTF8: UnsafeBufferPointer(rebasing: p[start..<end])),
              !name.hasPrefix(".")
        else { return nil }
        return try Key(name)
    }

    /// `p[start..<end]` read as a request body is.
    private func slowNode(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, depth: Int) throws -> DataNode {
        let json = try JSONValue(parsingUTF8: UnsafeBufferPointer(rebasing: p[start..<end]))
        return try DataNodeReader(baseDepth: 0, serverValues: nil).read(json, current: .empty, depth: depth)
    }

    private func skipSpace(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int {
        var i = i
        while i < end, Self.isSpace(p[i]) { i += 1 }
        return i
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The end of the valid JSON value at `i` (strings may hold escapes),
    /// or `nil` if it does not end before `end`. (A packed value's members
    /// are walked with it too.)
    static func valueEnd(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int? {
        guard i < end else { return nil }
        switch p[i] {
        case UInt8(ascii: "\""):
            return escapedStringEnd(p, i, end)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var j = i
            while j < end {
                switch p[j] {
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return j + 1 }
                case UInt8(ascii: "\""):
                    guard let stringEnd = escapedStringEnd(p, j, end) else { return nil }
                    j = stringEnd - 1
                default: break
                }
                j += 1
            }
            return nil
        default:
            // A number or a literal: up to the next delimiter.
            var j = i
            while j < end, !isSpace(p[j]), p[j] != UInt8(ascii: ","), p[j] != UInt8(ascii: "}"),
                  p[j] != UInt8(ascii: "]"), p[j] != 0 {
                j += 1
            }
            return j
        }
    }

    /// One past the closing quote of the string at `i`, escapes allowed.
    private static func escapedStringEnd(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int? {
        var j = i + 1
        while true {
            j = PlainText.quoteOrBackslash(p, j, end)
            guard j < end else { return nil }
            if p[j] == UInt8(ascii: "\"") { return j + 1 }
            j += 2  // an escape
        }
    }
}
