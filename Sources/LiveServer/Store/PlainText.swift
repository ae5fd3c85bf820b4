import LiveModel

/// Recognises *plain* JSON text: text that is exactly what the server
/// writes for the value it holds, so that it can be kept and sent as it is
/// (see ``PackedJSON``).
///
/// Plain text has no whitespace outside strings, no escape in a member's
/// name, in a string value only the escapes the server writes (`\"`, `\\`,
/// `\n`, `\r`, `\t`, `\b`, `\f`, and `\u00xx` in lowercase for the other
/// control characters; everything else as UTF-8), no `null`, no array, no
/// empty object, no member named `.…`, no member given twice, no object
/// whose keys would render it as an array, and only integers of at most 15
/// digits other than `-0`.
enum PlainText {
    /// Objects with more members are not checked for repeated names, and so
    /// are not plain.
    static let maxMembers = 64

    /// One past the end of the plain value that starts at `i`, or `nil` when
    /// the value there is not plain. The text must be valid JSON.
    /// - Complexity: O(length of the value).
    static func end(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        guard i < p.count else { return nil }
        switch p[i] {
        case UInt8(ascii: "\""):
            return valueStringEnd(p, i)
        case UInt8(ascii: "t"):
            return i + 4
        case UInt8(ascii: "f"):
            return i + 5
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return integerEnd(p, i)
        case UInt8(ascii: "{"):
            return withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: maxMembers) { names in
                objectEnd(p, i, names: names)
            }
        default:
            return nil
        }
    }

    /// One past the closing quote of the string whose opening quote is at
    /// `i`, or `nil` if it holds an escape.
    static func stringEnd(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        let j = quoteOrBackslash(p, i + 1, p.count)
        return j < p.count && p[j] == UInt8(ascii: "\"") ? j + 1 : nil
    }

    /// The first index from `i` on, before `end`, where `p` holds a quote
    /// or a backslash; `end` when there is none (`i` when `i` is not below
    /// `end`). The text of a string
    /// is read eight bytes at a time.
    /// - Complexity: O(distance to it).
    @inline(__always)
    static func quoteOrBackslash(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int {
        guard let base = p.baseAddress else { return end }
        let ones: UInt64 = 0x0101_0101_0101_0101
        var j = i
        while j + 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self))
            // A byte of `quotes` (or `backslashes`) is zero where `word` holds one.
            let quotes = word ^ (ones &* 0x22), backslashes = word ^ (ones &* 0x5C)
            // The high bit of the first zero byte is the lowest bit set (a
            // later one may be set too, by the borrow).
            let zeros = ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes) & (ones &* 0x80)
            if zeros != 0 { return j + zeros.trailingZeroBitCount / 8 }
            j += 8
        }
        while j < end, p[j] != UInt8(ascii: "\""), p[j] != UInt8(ascii: "\\") { j += 1 }
        return j
    }

    /// One past the closing quote of the string value whose opening quote
    /// is at `i`, or `nil` if it holds an escape the server does not write
    /// (see ``JSONValue/writeString(_:to:)``). The text must be valid JSON.
    static func valueStringEnd(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        var j = i + 1
        while true {
            j = quoteOrBackslash(p, j, p.count)
            guard j < p.count else { return nil }
            if p[j] == UInt8(ascii: "\"") { return j + 1 }
            // A backslash.
            guard j + 1 < p.count else { return nil }
            switch p[j + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"),
                 UInt8(ascii: "b"), UInt8(ascii: "f"):
                j += 2
            case UInt8(ascii: "u"):
                guard let code = shortControl(p, j + 2) else { return nil }
                // These have a two-character form, which is what the server writes.
                guard ![0x08, 0x09, 0x0A, 0x0C, 0x0D].contains(code) else { return nil }
                j += 6
            default:
                return nil
            }
        }
    }

    /// The control character `00xx` (lowercase hex) written at `p[i..<i+4]`,
    /// or `nil` for any other text.
    private static func shortControl(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt8? {
        guard i + 4 <= p.count, p[i] == UInt8(ascii: "0"), p[i + 1] == UInt8(ascii: "0"),
              p[i + 2] == UInt8(ascii: "0") || p[i + 2] == UInt8(ascii: "1"), let low = lowercaseHex(p[i + 3])
        else { return nil }
        return (p[i + 2] - UInt8(ascii: "0")) << 4 | low
    }

    private static func lowercaseHex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// The string whose text, quotes excluded, is `p[s..<e]`, written as
    /// ``valueStringEnd(_:_:)`` accepts it.
    /// - Complexity: O(e - s); a string without escapes is decoded in one piece.
    static func decodeString(_ p: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> String {
        let text = UnsafeBufferPointer(rebasing: p[s..<e])
        guard text.contains(UInt8(ascii: "\\")) else { return String(decoding: text, as: UTF8.self) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var j = s
        while j < e {
            guard p[j] == UInt8(ascii: "\\"), j + 1 < e else {
                bytes.append(p[j])
                j += 1
                continue
            }
            switch p[j + 1] {
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "u"):
                bytes.append(shortControl(p, j + 2) ?? 0)
                j += 4
            default: bytes.append(p[j + 1])  // a quote or a backslash
            }
            j += 2
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func integerEnd(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        var j = i
        if p[j] == UInt8(ascii: "-") {
            j += 1
            guard j < p.count, p[j] != UInt8(ascii: "0") else { return nil }  // -0, -0.5
        }
        let digits = j
        while j < p.count, isDigit(p[j]) { j += 1 }
        guard j > digits, j - digits <= 15 else { return nil }
        if j < p.count, p[j] == UInt8(ascii: ".") || p[j] == UInt8(ascii: "e") || p[j] == UInt8(ascii: "E") {
            return nil
        }
        return j
    }

    private static func objectEnd(_ p: UnsafeBufferPointer<UInt8>, _ i: Int,
                                  names: UnsafeMutableBufferPointer<(Int, Int)>) -> Int? {
        var j = i + 1
        var count = 0
        var allIndexes = true
        var largestIndex = -1
        while true {
            guard j < p.count, p[j] == UInt8(ascii: "\""), count < names.count,
                  let nameEnd = stringEnd(p, j), nameEnd - j > 2, p[j + 1] != UInt8(ascii: ".")
            else { return nil }
            let name = UnsafeBufferPointer(rebasing: p[(j + 1)..<(nameEnd - 1)])
            for k in 0..<count where names[k].1 - names[k].0 == name.count {
                if UnsafeBufferPointer(rebasing: p[names[k].0..<names[k].1]).elementsEqual(name) { return nil }
            }
            names[count] = (j + 1, nameEnd - 1)
            count += 1
            if allIndexes {
                if let index = arrayIndex(name) { largestIndex = max(largestIndex, index) } else { allIndexes = false }
            }
            guard nameEnd < p.count, p[nameEnd] == UInt8(ascii: ":"), let valueEnd = end(p, nameEnd + 1),
                  valueEnd < p.count
            else { return nil }
            j = valueEnd + 1
            switch p[valueEnd] {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"):
                // Keys that are all array indexes render as an array.
                if allIndexes && largestIndex < 2 * count { return nil }
                return j
            default: return nil
            }
        }
    }

    /// The index of a key written as an array index, as ``DataNode``
    /// renders arrays (`DataNode.arrayIndex(_:)`).
    private static func arrayIndex(_ name: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = name.first, isDigit(first), first != UInt8(ascii: "0") || name.count == 1 else { return nil }
        let key = Key(uncheckedUTF8: UnsafeRawPointer(name.baseAddress!).assumingMemoryBound(to: CChar.self),
                      count: name.count)
        return DataNode.arrayIndex(key)
    }
}
