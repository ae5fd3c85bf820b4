// FlightBase.swift — the state a recording's kept entries start from, as
// the recorder keeps it: each child as the collection held it, written out
// only when the recording is.
import LiveModel

/// The header and state the kept entries of a recording start from.
///
/// Children are kept as the collection's own snapshots (shared, not
/// copied): folding a dropped put or patch into the state sets the
/// children it wrote to, and redacting and writing them waits for an
/// export.
struct FlightBase: Sendable {
    let header: FlightHeader
    /// How its values are written (nil: as they are).
    let redaction: FlightRedaction?
    /// The server's value of each child, as the collection held it.
    var children: [Key: Snapshot]
    var isComplete: Bool
    var isWhole: Bool
    /// The local writes not yet answered (redacted as recorded), oldest first.
    var pending: [FlightWrite]
    var counts: [Int]

    /// Folds a dropped put or patch in.
    mutating func fold(_ data: FlightFold) {
        switch data.after {
        case nil: break
        case .all(let children)?: self.children = children
        case .one(let key, let child)?: children[key] = child.exists ? child : nil
        case .some(let children)?:
            for (key, child) in children { self.children[key] = child.exists ? child : nil }
        }
        isWhole = data.isWhole
        if data.completes { isComplete = true }
    }

    /// About the bytes of its line: its children's texts as the collection
    /// holds them (redaction may make them longer or shorter).
    /// - Complexity: O(n).
    var estimatedSize: Int {
        children.reduce(256 + 64 * pending.count + 6 * counts.count) { $0 + $1.key.utf8Count + $1.value.textCount + 4 }
    }

    /// `keys` in the order of their UTF-8 bytes (that of their Unicode
    /// scalars), compared by their first eight bytes, then whole on a tie.
    /// - Complexity: O(n log n).
    static func sorted(_ keys: some Collection<Key>) -> [Key] {
        var tagged = keys.map { key in
            key.withUTF8 { bytes in
                var prefix: UInt64 = 0
                for i in 0..<8 { prefix = prefix << 8 | UInt64(i < bytes.count ? bytes[i] : 0) }
                return (prefix, key)
            }
        }
        tagged.sort { a, b in
            if a.0 != b.0 { return a.0 < b.0 }
            return a.1.withUTF8 { x in b.1.withUTF8 { y in x.lexicographicallyPrecedes(y) } }
        }
        return tagged.map(\.1)
    }

    /// The state as its line: the children in the order of their keys'
    /// Unicode scalars, each redacted.
    /// - Complexity: O(n log n) for the order, plus the size of the children's texts.
    func line() -> [UInt8] {
        var line = FlightLine("state")
        line.name("complete")
        line.bool(isComplete)
        line.name("counts")
        line.counts(counts)
        line.name("pending")
        line.list(pending) { line, write in line.value(FlightEntry.write(write).json, sortedKeys: true) }
        line.name("value")
        let keys = Self.sorted(children.keys)
        if keys.isEmpty {
            line.null()
        } else {
            line.list(keys, open: "{", close: "}") { line, key in
                line.key(key)
                line.append(":")
                line.data(children[key]!, at: DatabasePath(uncheckedKeys: [key]), redaction)
            }
        }
        line.name("whole")
        line.bool(isWhole)
        return line.finished()
    }
}
