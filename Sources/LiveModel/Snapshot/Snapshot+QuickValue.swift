// Snapshot+QuickValue.swift — a primitive at a path inside a received child,
// read from its text without parsing the child.

extension Snapshot {
    /// The value at `path` inside this child, read from the received JSON
    /// text without parsing it, when that is one of the common shapes: null
    /// (nothing there, or the path passes through a primitive), a boolean,
    /// an integer of at most 15 digits, or a string without escapes, reached
    /// through objects whose member names have no escapes. Nil for anything
    /// else (an object, an array, a fraction, an escape, a priority-wrapped
    /// value, a snapshot that is not a received child): read
    /// ``child(at:)`` then. Wherever it answers, it equals
    /// `child(at: path).value`.
    /// - Complexity: O(size of the child's text), without building a value.
    package func quickValue(at path: DatabasePath) -> JSONValue? {
        guard case .child(let document, let index) = location else { return nil }
        // A path of one key (the usual section or order child) is its
        // key's bytes: no text is made for it.
        let found: SortValue?
        if path.keys.count == 1 {
            found = path.keys[0].withUTF8 { document.quickSortValue(at: index, path: $0) }
        } else {
            var text = path.relativeText
            found = text.withUTF8 { document.quickSortValue(at: index, path: $0) }
        }
        guard let sort = found else { return nil }
        switch sort {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let d): return .number(d)
        case .string(let s): return .string(s)
        case .object: return nil
        }
    }
}
