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
        let keys = path.keys
        guard !keys.isEmpty else {
            // The location's value: its members are the children.
            guard case .object(let children) = value else { return shape(value) }
            return .object(JSONObject(uniqueKeysWithValues: children.map { ($0.key, redact(child: $0.value, at: [])) }))
        }
        return redact(child: value, at: Array(keys.dropFirst()))
    }

    /// A patch's members (paths relative to `path`), each as kept.
    func redactPatch(_ data: JSONValue, at path: DatabasePath) -> JSONValue {
        guard case .object(let members) = data else { return shape(data) }
        return .object(JSONObject(uniqueKeysWithValues: members.map { name, value in
            guard let relative = try? DatabasePath(name), let full = try? path.appending(relative) else {
                return (name, shape(value))
            }
            return (name, redact(value, at: full))
        }))
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

    /// The value at `inner` inside a child, as kept.
    private func redact(child value: JSONValue, at inner: [Key]) -> JSONValue {
        if keepsChild && inner.isEmpty { return value.objectValue == nil ? value : shape(value) }
        // A kept member that is an object orders and sections as any object:
        // its contents are not needed.
        if kept.contains(inner) {
            return inner == ordered && inner != sectioned && value.objectValue != nil ? shape(value) : value
        }
        let below = kept.filter { $0.count > inner.count && Array($0.prefix(inner.count)) == inner }
        guard !below.isEmpty, case .object(let members) = value else { return shape(value) }
        return .object(JSONObject(uniqueKeysWithValues: members.map { name, member in
            (name, redact(child: member, at: inner + [Key(unchecked: name)]))
        }))
    }

    /// `value` with every primitive replaced by its tag.
    func shape(_ value: JSONValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .bool(let b): return tag("bool", b ? "t" : "f")
        case .number(let n): return tag("number", n.description)
        case .string(let s): return tag("string", s)
        case .array(let items): return .array(items.map(shape))
        case .object(let members):
            return .object(JSONObject(uniqueKeysWithValues: members.map { ($0.key, shape($0.value)) }))
        }
    }

    /// An ETag, as its tag (it is a digest of a value).
    private func tag(_ etag: String) -> String { tag("etag", etag).stringValue ?? "" }

    private func tag(_ type: String, _ text: String) -> JSONValue {
        var hasher = Hasher()
        hasher.combine(salt)
        hasher.combine(type)
        // Bytes, not the String: Firebase tells canonically equivalent texts apart.
        for byte in text.utf8 { hasher.combine(byte) }
        let digest = UInt64(bitPattern: Int64(hasher.finalize()))
        return .string("~\(type):" + String(digest, radix: 16))
    }
}
