// FlightLine.swift — a recording's line written as bytes, member by member,
// without building a JSON value first: what the recorder does per change.
import LiveModel
import LiveSections

/// One JSON line of a recording, being written: an object whose first
/// member is `"k"`, the entry's kind.
struct FlightLine {
    var bytes: [UInt8]

    /// A line for an entry of `kind`.
    init(_ kind: StaticString) {
        bytes = []
        bytes.reserveCapacity(128)
        bytes.append(contentsOf: #"{"k":""#.utf8)
        kind.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Starts a line for an entry of `kind`, after the bytes there are.
    mutating func open(_ kind: StaticString) {
        bytes.append(contentsOf: #"{"k":""#.utf8)
        kind.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// JSON text being written, from nothing.
    init() { bytes = [] }

    /// The line, its object closed (no newline).
    consuming func finished() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// Starts member `name` (a name with nothing to escape).
    mutating func name(_ name: StaticString) {
        bytes.append(contentsOf: #",""#.utf8)
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: #"":"#.utf8)
    }

    mutating func append(_ byte: Unicode.Scalar) { bytes.append(UInt8(ascii: byte)) }

    /// A count, an index or an id, in decimal.
    mutating func int(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        guard magnitude >= 10 else { return bytes.append(UInt8(ascii: "0") + UInt8(magnitude)) }
        let start = bytes.count
        while magnitude > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        }
        bytes[start...].reverse()
    }

    mutating func string(_ text: String) { JSONValue.writeString(text, to: &bytes) }

    /// A path's text (`/a/b`), as a string.
    mutating func path(_ path: DatabasePath) {
        // Keys never hold a control character, but may hold `"` or `\`.
        let plain = path.keys.allSatisfy { key in
            key.withUTF8 { !$0.contains(UInt8(ascii: "\"")) && !$0.contains(UInt8(ascii: "\\")) && !$0.contains { $0 < 0x20 } }
        }
        guard plain else { return string(path.description) }
        append("\"")
        if path.isRoot { append("/") }
        for key in path.keys {
            append("/")
            key.withUTF8 { bytes.append(contentsOf: $0) }
        }
        append("\"")
    }

    mutating func key(_ key: Key) { JSONValue.writeKey(key, to: &bytes) }

    mutating func bool(_ flag: Bool) { bytes.append(contentsOf: (flag ? "true" : "false").utf8) }

    mutating func null() { bytes.append(contentsOf: "null".utf8) }

    /// JSON text, as it is.
    mutating func raw(_ text: some Sequence<UInt8>) { bytes.append(contentsOf: text) }

    mutating func value(_ value: JSONValue, sortedKeys: Bool = false) { value.write(to: &bytes, sortedKeys: sortedKeys) }

    /// A snapshot's value as received, priorities included (null when
    /// nothing is there), at `path` (nil when it cannot be said: then only
    /// its shape is kept), redacted unless `redaction` is nil: written from
    /// its text as it is read.
    /// - Complexity: O(size of its text).
    mutating func data(_ snapshot: Snapshot, at path: DatabasePath?, _ redaction: FlightRedaction?) {
        let mark = bytes.count
        let done = snapshot.withText { text -> Bool in
            guard let redaction else {
                // As received, but on one line: outside strings (which hold
                // none) a line break is white space.
                bytes.append(contentsOf: text.lazy.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 })
                return true
            }
            if let path { return redaction.redact(text: text, at: path, into: &bytes) }
            return redaction.shape(text: text, into: &bytes)
        }
        guard done != true else { return }
        bytes.removeSubrange(mark...)
        null()
    }

    /// `[a,b,…]` of `items` (or between `open` and `close`), each written by `write`.
    mutating func list<C: Collection>(_ items: C, open: Unicode.Scalar = "[", close: Unicode.Scalar = "]",
                                      _ write: (inout FlightLine, C.Element) -> Void) {
        append(open)
        var first = true
        for item in items {
            if !first { append(",") }
            first = false
            write(&self, item)
        }
        append(close)
    }

    mutating func counts(_ counts: [Int]) { list(counts) { $0.int($1) } }

    /// A stage: its non-empty lists, `ds` `is` `rs` `ms` `dr` `ir` `rr` `mr`.
    mutating func stage(_ s: BatchStage) {
        append("{")
        var first = true
        func start(_ name: StaticString, _ line: inout FlightLine) {
            if !first { line.append(",") }
            first = false
            line.append("\"")
            name.withUTF8Buffer { line.bytes.append(contentsOf: $0) }
            line.raw(#"":"#.utf8)
        }
        func sections(_ name: StaticString, _ items: [Int]) {
            guard !items.isEmpty else { return }
            start(name, &self)
            counts(items)
        }
        func rows(_ name: StaticString, _ items: [RowPath]) {
            guard !items.isEmpty else { return }
            start(name, &self)
            list(items) { line, p in line.pair(p.section, p.row) }
        }
        sections("ds", s.deletedSections)
        sections("is", s.insertedSections)
        sections("rs", s.reloadedSections)
        if !s.movedSections.isEmpty {
            start("ms", &self)
            list(s.movedSections) { line, m in line.pair(m.from, m.to) }
        }
        rows("dr", s.deletedRows)
        rows("ir", s.insertedRows)
        rows("rr", s.reloadedRows)
        if !s.movedRows.isEmpty {
            start("mr", &self)
            list(s.movedRows) { line, m in
                line.list([m.from.section, m.from.row, m.to.section, m.to.row]) { $0.int($1) }
            }
        }
        append("}")
    }

    /// `[a,b]`.
    mutating func pair(_ a: Int, _ b: Int) {
        append("[")
        int(a)
        append(",")
        int(b)
        append("]")
    }

    /// Child events, as `[kind, key, previous key or null]`.
    mutating func events(_ events: [FlightEvent]) {
        list(events) { line, e in
            switch e.kind {
            case .added: line.raw(#"["child_added","#.utf8)
            case .removed: line.raw(#"["child_removed","#.utf8)
            case .changed: line.raw(#"["child_changed","#.utf8)
            case .moved: line.raw(#"["child_moved","#.utf8)
            }
            line.key(e.key)
            line.append(",")
            if let previous = e.previousKey { line.key(previous) } else { line.null() }
            line.append("]")
        }
    }
}
