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
    func withText<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
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

    /// This child, with its member `member` replaced by `replacement` (or
    /// removed when `replacement` does not exist), as child `key` of a
    /// location parsed with `order`: the snapshot
    /// `Snapshot(key: key, value: value.replacing([member], with: replacement.value), priority: priority, order: order)`
    /// makes, written from the texts of this child's other members and of
    /// `replacement` without building any value, and keeping the priorities
    /// below the child (a value holds none).
    ///
    /// Nil when the text cannot be edited this way (this child is not an
    /// object with children, `member` is an export member such as
    /// `.priority`, or the result holds nothing): build it from values then.
    /// - Complexity: O(size of this child and of `replacement`).
    package func replacingMember(_ member: Key, with replacement: Snapshot, key: Key, order: QueryOrder) -> Snapshot? {
        guard !member.string.hasPrefix(".") else { return nil }
        let made: Snapshot?? = withText { text -> Snapshot? in
            guard text.first == UInt8(ascii: "{"),
                  let document = try? SnapshotDocument.parse(text, order: .priority), document.hasChildren else {
                return nil
            }
            let names = (0..<document.count).map { document.key(at: $0) }
            let kept = names.indices.filter { names[$0] != member && !document.isNullMember(at: $0) }
            // Every name is a key (a document of a received value), and
            // something stays: otherwise the values decide.
            guard !names.contains(nil), !kept.isEmpty || replacement.exists else { return nil }
            return Self.child(key, order: order) { out in
                out.append(UInt8(ascii: "{"))
                for (n, i) in kept.enumerated() {
                    if n > 0 { out.append(UInt8(ascii: ",")) }
                    JSONValue.writeKey(names[i]!, to: &out)
                    out.append(UInt8(ascii: ":"))
                    document.withText(at: i) { out.append(contentsOf: $0) }
                }
                _ = replacement.withText { value in
                    if !kept.isEmpty { out.append(UInt8(ascii: ",")) }
                    JSONValue.writeKey(member, to: &out)
                    out.append(UInt8(ascii: ":"))
                    out.append(contentsOf: value)
                }
                if let priority = document.rootPriority {
                    out.append(contentsOf: Array(#",".priority":"#.utf8))
                    priority.jsonValue.write(to: &out, sortedKeys: false)
                }
                out.append(UInt8(ascii: "}"))
            }
        }
        return made ?? nil
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
