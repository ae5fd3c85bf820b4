// KnownData.swift — what the views of a database know of a location, taken
// from them at once and written out anywhere.
import LiveModel

/// What a ``ViewRegistry`` knows of a location.
enum KnownData: Sendable {
    /// Its whole value: that of a view at the location.
    case whole(HeldValue)
    /// Its whole value: a child (at some depth) of a view's value held
    /// whole; absent when it holds nothing.
    case value(Snapshot)
    /// Some of its children, each a view's value held whole, by key; the
    /// others are unknown.
    case children([Key: HeldValue])

    /// What is known as a stream's message: the whole value as a `put` at
    /// `/` (the view then holds the location whole), the children known as
    /// a `patch` at `/` of each of them (the view holds them whole, and the
    /// rest of the location stays unknown until the stream's own value).
    /// - Complexity: O(size of the value).
    func message() -> (text: [UInt8], kind: StreamPayload.Kind) {
        var text = Array(#"{"path":"/","data":"#.utf8)
        appendText(to: &text)
        text.append(UInt8(ascii: "}"))
        return (text, isWhole ? .put : .patch)
    }

    /// Whether the location's whole value is known (not only some children).
    var isWhole: Bool {
        if case .children = self { return false }
        return true
    }

    /// ``message()``, parsed for `order`.
    /// - Complexity: O(size of the value): written out and parsed once.
    func payload(order: QueryOrder) -> StreamPayload? {
        let message = message()
        return try? StreamPayload.parse(json: message.text, kind: message.kind, order: order)
    }

    /// Appends the location's value (or the object of the children known)
    /// as JSON text, export members included, to `text`: `null` when it
    /// holds nothing.
    /// - Complexity: O(size of the value).
    func appendText(to text: inout [UInt8]) {
        switch self {
        case .whole(let held):
            held.appendText(to: &text)
        case .value(let value):
            if !value.appendText(to: &text) { text.append(contentsOf: "null".utf8) }
        case .children(let children):
            var first = true
            text.append(UInt8(ascii: "{"))
            for (key, held) in children {
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

/// A location's own value beside its children, as the server sent it.
struct OwnValue: Sendable {
    /// Its primitive, when it has no children.
    private(set) var leaf: Snapshot?
    /// Its priority, when it has children (a primitive's is in ``leaf``).
    private(set) var priority: Priority?

    init() {}

    /// That of a whole value.
    init(_ value: Snapshot) {
        leaf = value.exists && !value.hasChildren ? value : nil
        priority = value.hasChildren ? value.priority : nil
    }

    /// Follows a write of `value` at `path` below the location: a
    /// `.priority` sets its priority; a value written below a primitive
    /// makes it an object, keeping its priority (a deletion leaves it as
    /// it is), as the database does.
    mutating func change(at path: [Key], to value: Snapshot) {
        if path.count == 1, path[0].string == ".priority" {
            priority = Priority(value.value)
            if let leaf {
                var exported = JSONObject()
                exported[".value"] = leaf.value
                if let priority { exported[".priority"] = priority.jsonValue }
                self.leaf = (try? Snapshot.parse(json: JSONValue.object(exported).jsonText())) ?? leaf
            }
        } else if value.exists, path.last?.string != ".priority", let leaf {
            // (A priority set below a primitive sets nothing.)
            priority = leaf.priority
            self.leaf = nil
        }
    }

    /// Follows the location's last child going: an empty location has no
    /// priority.
    mutating func emptied() { priority = nil }
}

/// A view's location as the server sent it, taken from the view in O(1):
/// its primitive, or its children (those it shows, and beneath its local
/// writes the server's) and its priority.
struct HeldValue: Sendable {
    let own: OwnValue
    let shown: [Key: Snapshot]
    let server: [Key: Snapshot]

    /// Whether the location holds anything.
    /// - Complexity: O(1), or O(c) for c children under local writes.
    var exists: Bool {
        own.leaf != nil || server.values.contains(where: \.exists) || shown.keys.contains { server[$0] == nil }
    }

    /// The server's value of child `key`.
    func server(_ key: Key) -> Snapshot {
        server[key] ?? shown[key] ?? .absent(key: key)
    }

    /// Appends the value as JSON text (`null` when it holds nothing).
    /// - Complexity: O(size of the value).
    func appendText(to text: inout [UInt8]) {
        if let leaf = own.leaf, leaf.appendText(to: &text) { return }
        let start = text.count
        text.append(UInt8(ascii: "{"))
        var first = true
        for (key, child) in shown where server.isEmpty || server[key] == nil { append(key, child, &first, &text) }
        for (key, child) in server { append(key, child, &first, &text) }
        if first {
            text.removeSubrange(start...)
            text.append(contentsOf: "null".utf8)
            return
        }
        if let priority = own.priority {
            text.append(contentsOf: #",".priority":"#.utf8)
            text.append(contentsOf: priority.jsonValue.jsonText().utf8)
        }
        text.append(UInt8(ascii: "}"))
    }

    private func append(_ key: Key, _ child: Snapshot, _ first: inout Bool, _ text: inout [UInt8]) {
        let start = text.count
        if !first { text.append(UInt8(ascii: ",")) }
        Self.appendName(key, to: &text)
        if child.appendText(to: &text) { first = false } else { text.removeSubrange(start...) }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `key` as a JSON string and a colon.
    /// - Complexity: O(length of the key).
    static func appendName(_ key: Key, to text: inout [UInt8]) {
        text.append(UInt8(ascii: "\""))
        for byte in key.string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                text.append(UInt8(ascii: "\\"))
                text.append(byte)
            case 0..<0x20:
                text.append(contentsOf: #"\u00"#.utf8)
                text.append(Self.hexDigits[Int(byte >> 4)])
                text.append(Self.hexDigits[Int(byte & 0xF)])
            default:
                text.append(byte)
            }
        }
        text.append(UInt8(ascii: "\""))
        text.append(UInt8(ascii: ":"))
    }
}
