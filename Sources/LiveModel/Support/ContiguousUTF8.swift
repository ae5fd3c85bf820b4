/// Runs `body` over the bytes of `bytes` in contiguous memory, copying them
/// only when the collection does not already store them contiguously
/// (`[UInt8]`, `String.UTF8View` of a native string and Foundation's `Data`
/// do).
@inline(__always)
func withContiguousBytes<Bytes: Collection<UInt8>, R, E: Error>(
    _ bytes: Bytes, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R
) throws(E) -> R {
    // withContiguousStorageIfAvailable takes a rethrowing closure; carry a
    // typed error out through a Result.
    if let result = bytes.withContiguousStorageIfAvailable({ buffer -> Result<R, E> in
        do throws(E) { return .success(try body(buffer)) } catch { return .failure(error) }
    }) {
        return try result.get()
    }
    let copy = Array(bytes)
    return try copy.withUnsafeBufferPointer { buffer throws(E) -> R in try body(buffer) }
}

extension String {
    /// Runs `body` over the string's UTF-8 bytes without copying them when
    /// the string is native.
    @inline(__always)
    func withUTF8Bytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try withContiguousBytes(utf8, body)
    }

    /// A string from `count` bytes of UTF-8 at `pointer` (invalid sequences
    /// are repaired, which the C core never produces).
    @inline(__always)
    init(utf8 pointer: UnsafePointer<CChar>?, count: Int) {
        guard let pointer, count > 0 else {
            self = ""
            return
        }
        self = pointer.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The base address as a C `char` pointer for the C core, which takes
    /// (pointer, length) pairs; a dangling but non-nil pointer is never
    /// dereferenced when the length is 0.
    @inline(__always)
    var cChars: UnsafePointer<CChar>? {
        guard let base = baseAddress else { return nil }
        return UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
    }
}
