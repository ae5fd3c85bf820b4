// ValueDigest+Parts.swift — a value's digest built from its parts, for data
// held as a tree rather than as text (the server's nodes): the same digest
// the core reads from the value's text.
internal import CLiveCore

extension ValueDigest {
    /// The digest of a primitive: a boolean, a number (`-0` as `0`) or a
    /// string; ``absent`` for anything else.
    /// - Complexity: O(length of a string).
    package static func primitive(_ value: JSONValue) -> ValueDigest {
        switch value {
        case .bool(let b): return ValueDigest(lc_digest_bool(b ? 1 : 0))
        case .number(let d): return ValueDigest(lc_digest_number(d))
        case .string(let s):
            return s.withUTF8Bytes { ValueDigest(lc_digest_string($0.cChars, $0.count)) }
        case .null, .array, .object: return .absent
        }
    }

    /// This value's digest with `priority` (the value alone when either is
    /// absent), as a node's export value counts it.
    package func prioritized(by priority: Priority?) -> ValueDigest {
        guard let priority else { return self }
        let p = ValueDigest.primitive(priority.jsonValue)
        return ValueDigest(lc_digest_with_priority(lc_digest(high: high, low: low), lc_digest(high: p.high, low: p.low)))
    }

    /// An object's members, added in any order: its digest is
    /// ``object``.
    package struct Members: Sendable {
        private var sumHigh: UInt64 = 0, sumLow: UInt64 = 0, count: UInt64 = 0

        /// No member yet.
        package init() {}

        /// Adds the member `key` whose value has the digest `value`; an
        /// absent value is no member.
        /// - Complexity: O(length of the key).
        package mutating func add(_ key: Key, _ value: ValueDigest) {
            key.withUTF8 { name in add(utf8: name, value) }
        }

        /// Adds the member named by the UTF-8 bytes `name` (a key's) whose
        /// value has the digest `value`, as ``add(_:_:)`` does.
        /// - Complexity: O(length of the name).
        package mutating func add(utf8 name: UnsafeBufferPointer<UInt8>, _ value: ValueDigest) {
            var members = lc_digest_members(sum_high: sumHigh, sum_low: sumLow, count: count)
            lc_digest_members_add(&members, name.cChars, name.count, lc_digest(high: value.high, low: value.low))
            (sumHigh, sumLow, count) = (members.sum_high, members.sum_low, members.count)
        }

        /// Takes back the member `key` with the digest `value` that
        /// ``add(_:_:)`` added: with an addition of its new value, a change
        /// of one member, without adding the others again.
        /// - Complexity: O(length of the key).
        package mutating func remove(_ key: Key, _ value: ValueDigest) {
            var members = lc_digest_members(sum_high: sumHigh, sum_low: sumLow, count: count)
            key.withUTF8 { lc_digest_members_remove(&members, $0.cChars, $0.count, lc_digest(high: value.high, low: value.low)) }
            (sumHigh, sumLow, count) = (members.sum_high, members.sum_low, members.count)
        }

        /// The object's digest; ``ValueDigest/absent`` without members.
        package var object: ValueDigest {
            var members = lc_digest_members(sum_high: sumHigh, sum_low: sumLow, count: count)
            return ValueDigest(lc_digest_object(&members))
        }
    }
}

/// Digests many JSON texts, one after another, in one work space (the
/// core's `lc_digester`): after the first text, a digest allocates nothing.
/// Used from one thread at a time.
package final class ValueDigester {
    private let digester: OpaquePointer

    /// A digester; nil when memory runs out.
    package init?() {
        guard let digester = lc_digester_new() else { return nil }
        self.digester = digester
    }

    deinit { lc_digester_free(digester) }

    /// The digest of the value `text` spells (with `priorities`, the export
    /// value's); nil when the text is not one JSON value, or when memory
    /// runs out.
    /// - Complexity: O(length of the text).
    package func digest(of text: UnsafeBufferPointer<UInt8>, priorities: Bool = true) -> ValueDigest? {
        var digest = lc_digest()
        let flags: UInt32 = priorities ? UInt32(LC_DIGEST_PRIORITIES) : 0
        guard lc_digester_digest(digester, text.cChars, text.count, flags, &digest) == LC_OK else { return nil }
        return ValueDigest(digest)
    }
}
