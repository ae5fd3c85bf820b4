// KeyBytes.swift — the UTF-8 of a short key, held inline.

/// The UTF-8 of a key of at most ``capacity`` bytes, held in the value
/// itself: copying a key does not touch the heap, and a million keys are not
/// a million allocations.
///
/// The bytes after ``count`` are zero, so two values are equal exactly when
/// their keys are (a key holds no NUL byte, but equality does not depend on
/// it).
struct KeyBytes: Sendable, Hashable {
    /// Most bytes held inline: a 20-character push id fits.
    static let capacity = 20

    private var words: (UInt64, UInt64, UInt32)
    /// Number of bytes.
    let count: UInt8

    /// The first `bytes.count` (at most ``capacity``) bytes of `bytes`.
    init(_ bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count <= Self.capacity, "KeyBytes: more than \(Self.capacity) bytes")
        words = (0, 0, 0)
        count = UInt8(bytes.count)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: bytes) }
    }

    /// Runs `body` over the bytes.
    @inline(__always)
    func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        var words = words
        let count = Int(count)
        return try withUnsafeBytes(of: &words) { raw in
            try body(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count))
        }
    }

    static func == (a: KeyBytes, b: KeyBytes) -> Bool {
        a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.count == b.count
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(count)
    }
}
