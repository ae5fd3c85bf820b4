// KnownData.swift — what the views of a database know of a location, taken
// from them at once and written out anywhere.
import LiveModel

/// What a ``ViewRegistry`` knows of a location.
enum KnownData: Sendable {
    /// Its whole value: that at `below` in a view's value held whole.
    case whole(HeldValue, below: [Key])
    /// Some of its children, each a view's value held whole, by key; the
    /// others are unknown.
    case children([Key: HeldValue])

    /// Appends the location's value (or the object of the children known)
    /// as JSON text, export members included, to `text`: `null` when it
    /// holds nothing.
    /// - Complexity: O(size of the value).
    func appendText(to text: inout [UInt8]) {
        switch self {
        case .whole(let held, let below):
            guard let first = below.first else { return held.appendText(to: &text) }
            var value = held.server(first)
            for key in below.dropFirst() { value = value.child(key) }
            if !value.appendText(to: &text) { text.append(contentsOf: "null".utf8) }
        case .children(let children):
            var first = true
            text.append(UInt8(ascii: "{"))
            for (key, held) in children.sorted(by: { $0.key.string < $1.key.string }) {
                let start = text.count
                if !first { text.append(UInt8(ascii: ",")) }
                HeldValue.appendName(key, to: &text)
                let length = text.count
                held.appendText(to: &text)
                if text[length...].elementsEqual("null".utf8) { text.removeSubrange(start...) } else { first = false }
            }
            text.append(UInt8(ascii: "}"))
        }
    }
}

/// A view's location as the server sent it, taken from the view in O(1):
/// its primitive, or its children (those it shows, and beneath its local
/// writes the server's).
struct HeldValue: Sendable {
    let leaf: Snapshot?
    let shown: [Key: Snapshot]
    let server: [Key: Snapshot]

    /// The server's value of child `key`.
    func server(_ key: Key) -> Snapshot {
        server[key] ?? shown[key] ?? .absent(key: key)
    }

    /// Appends the value as JSON text (`null` when it holds nothing).
    /// - Complexity: O(size of the value).
    func appendText(to text: inout [UInt8]) {
        if let leaf, leaf.appendText(to: &text) { return }
        let start = text.count
        text.append(UInt8(ascii: "{"))
        var first = true
        for key in shown.keys where server[key] == nil { append(key, shown[key]!, &first, &text) }
        for (key, child) in server { append(key, child, &first, &text) }
        if first {
            text.removeSubrange(start...)
            text.append(contentsOf: "null".utf8)
        } else {
            text.append(UInt8(ascii: "}"))
        }
    }

    private func append(_ key: Key, _ child: Snapshot, _ first: inout Bool, _ text: inout [UInt8]) {
        let start = text.count
        if !first { text.append(UInt8(ascii: ",")) }
        Self.appendName(key, to: &text)
        if child.appendText(to: &text) { first = false } else { text.removeSubrange(start...) }
    }

    /// Appends `key` as a JSON string and a colon.
    static func appendName(_ key: Key, to text: inout [UInt8]) {
        text.append(contentsOf: JSONValue.string(key.string).jsonText().utf8)
        text.append(UInt8(ascii: ":"))
    }
}
