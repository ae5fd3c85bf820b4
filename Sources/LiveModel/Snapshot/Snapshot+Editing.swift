// Snapshot+Editing.swift — a child snapshot made from the JSON text of
// others, without building their values.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Snapshot {
    /// Calls `body` with this snapshot's JSON text exactly as received
    /// (export members included); nil when nothing exists here.
    /// - Complexity: O(1) besides `body`.
    package func withText<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        switch location {
        case .root(let document): return document.isNull ? nil : try document.withRootText(body)
        case .child(let document, let index): return try document.withText(at: index, body)
        case .absent: return nil
        }
    }

    /// Appends this snapshot's JSON text exactly as received (export
    /// members included) to `out`.
    /// - Returns: false, appending nothing, when nothing exists here.
    /// - Complexity: O(size of the text).
    package func appendText(to out: inout [UInt8]) -> Bool {
        withText { out.append(contentsOf: $0) } != nil
    }

    /// This snapshot's value and priority as child `key` of a location
    /// parsed with `order`: the snapshot
    /// `Snapshot(key: key, value: value, priority: priority, order: order)`
    /// makes, made from this snapshot's text without building its value,
    /// and keeping the priorities below it (a value holds none).
    /// - Complexity: O(size of the text): it is copied and scanned once.
    package func asChild(_ key: Key, order: QueryOrder) -> Snapshot {
        guard exists else { return .absent(key: key) }
        if let made = withText({ text in Self.child(key, order: order) { $0.append(contentsOf: text) } }), let made {
            return made
        }
        return Snapshot(key: key, value: value, priority: priority, order: order)
    }

    /// This child, with the value at `path` below it replaced by
    /// `replacement` (or removed when `replacement` does not exist), as
    /// child `key` of a location parsed with `order`: the snapshot
    /// `Snapshot(key: key, value: value.replacing(path, with: replacement.value), priority: priority, order: order)`
    /// makes, written from the texts of the members the path does not
    /// reach and of `replacement` without building any value, and keeping
    /// the priorities below the child (a value holds none) — at every level
    /// the path passes, too.
    ///
    /// As the database does: a primitive on the path becomes an object
    /// when something is written below it (its priority stays), and is left
    /// as it is when the write deletes; objects left empty vanish.
    ///
    /// Nil when the text cannot be edited this way (a segment of `path` is
    /// an export member such as `.priority`, an array is on the path, or
    /// the result holds nothing): build it from values then.
    /// - Complexity: O(size of this child and of `replacement`); each level
    ///   the path passes is scanned once more, and the result once.
    package func replacing(at path: ArraySlice<Key>, with replacement: Snapshot, key: Key,
                           order: QueryOrder) -> Snapshot? {
        guard !path.isEmpty, !path.contains(where: { $0.string.hasPrefix(".") }) else { return nil }
        var out: [UInt8] = []
        let written: Bool?? = withText { Self.edit($0, below: path, to: replacement, into: &out) }
        // Something is left, written from texts alone.
        guard case true?? = written else { return nil }
        return Self.child(key, order: order) { $0.append(contentsOf: out) }
    }

    /// Appends to `out` the text of the value `text` (nil: nothing there)
    /// with the value at `path` replaced by `replacement`.
    /// - Returns: true when something was written, false when nothing is
    ///   left (nothing appended), nil when the texts cannot say (an array
    ///   on the path).
    private static func edit(_ text: UnsafeBufferPointer<UInt8>?, below path: ArraySlice<Key>,
                             to replacement: Snapshot, into out: inout [UInt8]) -> Bool? {
        guard let member = path.first else { return replacement.appendText(to: &out) }
        let first = text?.first { !Self.isSpace($0) }
        if first == UInt8(ascii: "[") { return nil }
        var document: SnapshotDocument?
        if let text, first == UInt8(ascii: "{") {
            guard let parsed = try? SnapshotDocument.parse(text, order: .priority) else { return nil }
            document = parsed
        }
        let hasChildren = document?.hasChildren == true
        // A primitive (or a wrapped one, `.value` and `.priority`) is kept
        // when the write deletes below it; replaced by an object otherwise.
        var below: [UInt8] = []
        var inner: Bool?
        if hasChildren, let document, let at = (0..<document.count).first(where: { document.key(at: $0) == member }),
           !document.isNullMember(at: at) {
            inner = document.withText(at: at) { edit($0, below: path.dropFirst(), to: replacement, into: &below) }
        } else {
            inner = edit(nil, below: path.dropFirst(), to: replacement, into: &below)
        }
        guard let inner else { return nil }
        if !hasChildren, !inner {
            guard let text, !(document?.isNull ?? isNull(text)) else { return false }
            out.append(contentsOf: text)
            return true
        }
        let start = out.count
        out.append(UInt8(ascii: "{"))
        var members = 0
        if hasChildren, let document {
            for i in 0..<document.count {
                guard let name = document.key(at: i) else { return nil }
                guard name != member, !document.isNullMember(at: i) else { continue }
                if members > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeKey(name, to: &out)
                out.append(UInt8(ascii: ":"))
                document.withText(at: i) { out.append(contentsOf: $0) }
                members += 1
            }
        }
        if inner {
            if members > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.writeKey(member, to: &out)
            out.append(UInt8(ascii: ":"))
            out.append(contentsOf: below)
            members += 1
        }
        guard members > 0 else {
            out.removeSubrange(start...)
            return false
        }
        // The node's priority stays (a node with no value has none).
        if let document, !document.isNull, let priority = document.rootPriority {
            out.append(contentsOf: Array(#",".priority":"#.utf8))
            priority.jsonValue.write(to: &out, sortedKeys: false)
        }
        out.append(UInt8(ascii: "}"))
        return true
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Whether a value's text is `null`.
    private static func isNull(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        Array(text.drop(while: isSpace).prefix(4)) == Array("null".utf8)
    }

    /// The child `key` of the location whose JSON is `{"<key>": <value>}`,
    /// `value` being what `writeValue` appends, parsed with `order`; nil when
    /// that holds no child (an empty value) or does not parse.
    private static func child(_ key: Key, order: QueryOrder, _ writeValue: (inout [UInt8]) -> Void) -> Snapshot? {
        var bytes: [UInt8] = []
        bytes.append(UInt8(ascii: "{"))
        JSONValue.writeKey(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        writeValue(&bytes)
        bytes.append(UInt8(ascii: "}"))
        guard let document = try? Snapshot.parse(json: bytes, order: order) else { return nil }
        return document.children.first
    }
}

extension Snapshot {
    /// The length of this snapshot's JSON text as received (what
    /// ``appendText(to:)`` appends); 0 when nothing exists here.
    /// - Complexity: O(1).
    package var textCount: Int { withText { $0.count } ?? 0 }
}

extension Snapshot {
    /// Whether this snapshot holds the same data as `other`, priorities
    /// below the top included when `priorities`: the same JSON text
    /// decides at once; otherwise their ``digest(priorities:)``s do.
    /// - Complexity: O(size of the texts).
    package func holdsSameData(as other: Snapshot, priorities: Bool) -> Bool {
        let sameText = withText { mine in
            other.withText { theirs in
                mine.count == theirs.count && (mine.count == 0 || memcmp(mine.baseAddress!, theirs.baseAddress!, mine.count) == 0)
            } ?? false
        } ?? !other.exists
        return sameText || digest(priorities: priorities) == other.digest(priorities: priorities)
    }
}
