// ValueDigest.swift — a canonical digest of a snapshot's value, computed by
// the C core from the JSON text, for deciding whether a value changed
// without materialising either side.
internal import CLiveCore

/// A 128-bit digest of a value as Firebase sees it.
///
/// Two values that are equal in Firebase have equal digests however their
/// JSON is spelled: members in any order, numbers compared by value (`1`,
/// `1.0` and `1e0` are one number), strings by their unescaped text, arrays
/// as the objects they stand for, `null` members and empty containers
/// absent; priorities at every level count when asked for (the export
/// value). Different values have different digests except with a
/// probability of about 2⁻⁶⁴ per pair. Nothing exists behind ``absent``.
public struct ValueDigest: Hashable, Sendable, CustomStringConvertible {
    /// The digest's upper 64 bits.
    public let high: UInt64
    /// The digest's lower 64 bits.
    public let low: UInt64

    /// The digest of no value (`null`, or an empty container).
    public static let absent = ValueDigest(high: 0, low: 0)

    /// A digest of these two halves, such as one stored from
    /// ``high`` and ``low`` earlier.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    init(_ digest: lc_digest) {
        self.init(high: digest.high, low: digest.low)
    }

    /// 32 hexadecimal digits.
    public var description: String { Self.hex(high) + Self.hex(low) }

    private static func hex(_ word: UInt64) -> String {
        let digits = String(word, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

extension Snapshot {
    /// The digest of this snapshot's data (see ``ValueDigest``), read from
    /// the JSON text without building the value: with `priorities`, the
    /// export value (priorities at every level); without, ``value`` alone.
    /// Two snapshots hold the same data exactly when their digests are equal
    /// (up to the digest's collision probability).
    /// - Complexity: O(size of this snapshot's JSON text).
    public func digest(priorities: Bool = true) -> ValueDigest {
        var digest = lc_digest()
        let flags: UInt32 = priorities ? UInt32(LC_DIGEST_PRIORITIES) : 0
        let status: lc_status
        switch location {
        case .root(let document): status = lc_doc_root_digest(document.pointer, flags, &digest)
        case .child(let document, let index): status = lc_doc_child_digest(document.pointer, index, flags, &digest)
        case .absent: return .absent
        }
        // The text was validated when it was parsed: only memory can fail.
        precondition(status == LC_OK, "out of memory while reading a snapshot's digest")
        return ValueDigest(digest)
    }
}
