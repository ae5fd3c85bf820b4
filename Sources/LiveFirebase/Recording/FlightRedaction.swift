// FlightRedaction.swift — what a recording keeps of a value: keys, and
// the members ordering and sectioning read; everything else as its shape.
import LiveModel

/// Replaces every value a recording does not need by its shape: keys and
/// member names stay, as do the members the query orders by and the
/// sections are read from; any other primitive becomes a tag such as
/// `"~string:1f0c…"`, equal for equal values within one recording (so a
/// replay still sees which children changed) and meaningless outside it.
struct FlightRedaction: Sendable {
    /// The paths inside a child that are kept whole.
    private let kept: [[Key]]
    /// The path ordered by: an object there orders as any object does, so
    /// only its shape is kept (a section value is kept whole).
    private let ordered: [Key]?
    private let sectioned: [Key]?
    /// Whether the child's value itself is kept (ordered by value).
    private let keepsChild: Bool
    /// Mixed into every tag: tags of one recording cannot be matched with
    /// another's or looked up in a table of common values.
    private let salt: UInt64

    init(query: DatabaseQuery, sectionBy: DatabasePath?, salt: UInt64 = .random(in: .min ... .max)) {
        var kept: [[Key]] = []
        switch query.order {
        case .priority: kept.append([Key(unchecked: ".priority")])
        case .child(let path): kept.append(path.keys)
        case .key, .value: break
        }
        ordered = kept.first
        if let sectionBy { kept.append(sectionBy.keys) }
        sectioned = sectionBy?.keys
        self.kept = kept
        keepsChild = query.order == .value
        self.salt = salt
    }

    /// `value`, written at `path` (relative to the location), as kept.
    /// - Complexity: O(size of the value).
    func redact(_ value: JSONValue, at path: DatabasePath) -> JSONValue {
        let text = value.jsonBytes()
        var out: [UInt8] = []
        let done = text.withUnsafeBufferPointer { redact(text: $0, at: path, into: &out) }
        return done ? (try? JSONValue(parsing: String(decoding: out, as: UTF8.self))) ?? .null : .null
    }

    /// A write, its values as kept.
    func redact(_ write: DatabaseWrite) -> DatabaseWrite {
        switch write {
        case .set(let path, let value, let etag): return .set(path, redact(value, at: path), ifMatch: etag.map(tag))
        case .remove(let path, let etag): return .remove(path, ifMatch: etag.map(tag))
        case .update(let path, let values):
            var out: [DatabasePath: JSONValue] = [:]
            for (relative, value) in values {
                out[relative] = (try? path.appending(relative)).map { redact(value, at: $0) } ?? shape(value)
            }
            return .update(path, out)
        }
    }

    /// `text` (JSON), written at `path` (relative to the location), as
    /// kept, appended to `out`; false, with nothing appended, when the text
    /// is not JSON.
    /// - Complexity: O(length of the text).
    func redact(text: UnsafeBufferPointer<UInt8>, at path: DatabasePath, into out: inout [UInt8]) -> Bool {
        var scanner = FlightTextScanner(text)
        let mark = out.count
        let done: Bool
        if path.isRoot {
            // The location's value: its members are the children.
            done = scanner.peek() == UInt8(ascii: "{")
                ? members(&scanner, &out) { _, scanner, out in child(&scanner, at: [], &out) }
                : shape(&scanner, &out)
        } else {
            done = child(&scanner, at: Array(path.keys.dropFirst()), &out)
        }
        guard done, scanner.peek() == nil else {
            out.removeSubrange(mark...)
            return false
        }
        return true
    }

    /// The value at `inner` inside a child, as kept.
    private func child(_ scanner: inout FlightTextScanner, at inner: [Key], _ out: inout [UInt8]) -> Bool {
        let isObject = scanner.peek() == UInt8(ascii: "{")
        // Ordered by value, a primitive child is kept; an object orders as
        // any object does, so only what the sections read is kept of it.
        if keepsChild && inner.isEmpty && !isObject { return copy(&scanner, &out) }
        // A kept member that is an object orders and sections as any object:
        // its contents are not needed.
        if kept.contains(inner) {
            return inner == ordered && inner != sectioned && isObject ? shape(&scanner, &out) : copy(&scanner, &out)
        }
        guard isObject, kept.contains(where: { $0.count > inner.count && Array($0.prefix(inner.count)) == inner }) else {
            return shape(&scanner, &out)
        }
        return members(&scanner, &out) { name, scanner, out in
            child(&scanner, at: inner + [Key(unchecked: String(decoding: name, as: UTF8.self))], &out)
        }
    }

    /// An object: each member's name copied, its value written by `value`
    /// (given the name's bytes).
    private func members(_ scanner: inout FlightTextScanner, _ out: inout [UInt8],
                         _ value: (_ name: [UInt8], inout FlightTextScanner, inout [UInt8]) -> Bool) -> Bool {
        delimited(&scanner, &out, "{", "}") { scanner, out in
            // The name's literal only: no white space after it (a line holds no newline).
            guard scanner.peek() == UInt8(ascii: "\""), let start = Optional(scanner.position), let name = scanner.string(),
                  let end = Optional(scanner.position), scanner.take(":") else { return false }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: scanner.text[start..<end]))
            out.append(UInt8(ascii: ":"))
            return value(name, &scanner, &out)
        }
    }

    /// An array: each element written by `element`.
    private func elements(_ scanner: inout FlightTextScanner, _ out: inout [UInt8],
                          _ element: (inout FlightTextScanner, inout [UInt8]) -> Bool) -> Bool {
        delimited(&scanner, &out, "[", "]", element)
    }

    /// Items between `open` and `close`, separated by commas, each written by `item`.
    private func delimited(_ scanner: inout FlightTextScanner, _ out: inout [UInt8], _ open: Unicode.Scalar,
                           _ close: Unicode.Scalar, _ item: (inout FlightTextScanner, inout [UInt8]) -> Bool) -> Bool {
        guard scanner.take(open) else { return false }
        out.append(UInt8(ascii: open))
        if scanner.take(close) {
            out.append(UInt8(ascii: close))
            return true
        }
        while true {
            guard item(&scanner, &out) else { return false }
            if scanner.take(",") {
                out.append(UInt8(ascii: ","))
            } else {
                guard scanner.take(close) else { return false }
                out.append(UInt8(ascii: close))
                return true
            }
        }
    }

    /// The next value as it is (checked to be JSON as it is copied).
    private func copy(_ scanner: inout FlightTextScanner, _ out: inout [UInt8]) -> Bool {
        switch scanner.peek() {
        case UInt8(ascii: "{"):
            return members(&scanner, &out) { _, scanner, out in copy(&scanner, &out) }
        case UInt8(ascii: "["):
            return elements(&scanner, &out) { scanner, out in copy(&scanner, &out) }
        case UInt8(ascii: "\""):
            let start = scanner.position
            guard scanner.string() != nil else { return false }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: scanner.text[start..<scanner.position]))
            return true
        case nil:
            return false
        default:
            guard let range = scanner.word() else { return false }
            let word = UnsafeBufferPointer(rebasing: scanner.text[range])
            // A number a double cannot hold is refused, as the parsers of recordings do.
            guard word.elementsEqual("null".utf8) || word.elementsEqual("true".utf8) || word.elementsEqual("false".utf8)
                    || FlightTextScanner.isNumber(word) && Double(String(decoding: word, as: UTF8.self))?.isFinite == true
            else { return false }
            out.append(contentsOf: word)
            return true
        }
    }

    /// The next value with every primitive replaced by its tag.
    private func shape(_ scanner: inout FlightTextScanner, _ out: inout [UInt8]) -> Bool {
        switch scanner.peek() {
        case UInt8(ascii: "{"):
            return members(&scanner, &out) { _, scanner, out in shape(&scanner, &out) }
        case UInt8(ascii: "["):
            return elements(&scanner, &out) { scanner, out in shape(&scanner, &out) }
        case UInt8(ascii: "\""):
            guard let bytes = scanner.string() else { return false }
            appendTag("string", bytes, to: &out)
            return true
        case nil:
            return false
        default:
            guard let range = scanner.word() else { return false }
            let bytes = UnsafeBufferPointer(rebasing: scanner.text[range])
            let word = String(decoding: bytes, as: UTF8.self)
            switch word {
            case "null": out.append(contentsOf: "null".utf8)
            case "true", "false": appendTag("bool", word == "true" ? "t".utf8 : "f".utf8, to: &out)
            default:
                guard FlightTextScanner.isNumber(bytes), let number = Double(word), number.isFinite else { return false }
                // -0 is 0, as the database compares them.
                appendTag("number", (number == 0 ? 0 : number).description.utf8, to: &out)
            }
            return true
        }
    }

    /// `text` (JSON) with every primitive replaced by its tag, appended to
    /// `out`; false, with nothing appended, when the text is not JSON.
    func shape(text: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) -> Bool {
        var scanner = FlightTextScanner(text)
        let mark = out.count
        guard shape(&scanner, &out), scanner.peek() == nil else {
            out.removeSubrange(mark...)
            return false
        }
        return true
    }

    /// `value` with every primitive replaced by its tag.
    func shape(_ value: JSONValue) -> JSONValue {
        let text = value.jsonBytes()
        var out: [UInt8] = []
        let done = text.withUnsafeBufferPointer { text in
            var scanner = FlightTextScanner(text)
            return shape(&scanner, &out)
        }
        return done ? (try? JSONValue(parsing: String(decoding: out, as: UTF8.self))) ?? .null : .null
    }

    /// An ETag, as its tag (it is a digest of a value).
    private func tag(_ etag: String) -> String {
        var out: [UInt8] = []
        appendTag("etag", etag.utf8, to: &out)
        return String(decoding: out.dropFirst().dropLast(), as: UTF8.self)
    }

    /// `"~type:hex"`, the tag of a primitive whose text (for a string, its
    /// bytes; for a number, its shortest form) is `bytes`.
    private func appendTag(_ type: String, _ bytes: some Sequence<UInt8>, to out: inout [UInt8]) {
        var hasher = Hasher()
        hasher.combine(salt)
        hasher.combine(type)
        // Bytes, not the String: Firebase tells canonically equivalent texts apart.
        for byte in bytes { hasher.combine(byte) }
        let digest = UInt64(bitPattern: Int64(hasher.finalize()))
        out.append(contentsOf: "\"~\(type):".utf8)
        out.append(contentsOf: String(digest, radix: 16).utf8)
        out.append(UInt8(ascii: "\""))
    }
}
