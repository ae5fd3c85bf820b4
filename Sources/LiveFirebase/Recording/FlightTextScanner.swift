// FlightTextScanner.swift — steps through JSON text value by value, for a
// recording to copy or redact it without building a value.

/// A position in JSON text: skips values, reads strings and numbers. It
/// never reads past the text; on text that is not JSON it returns nil.
struct FlightTextScanner {
    let text: UnsafeBufferPointer<UInt8>
    var position = 0

    init(_ text: UnsafeBufferPointer<UInt8>) { self.text = text }

    /// The byte at the position, after any white space (nil at the end).
    mutating func peek() -> UInt8? {
        while position < text.count, text[position] == 0x20 || text[position] == 0x0A || text[position] == 0x0D
                || text[position] == 0x09 {
            position += 1
        }
        return position < text.count ? text[position] : nil
    }

    /// Steps over `byte` when it comes next.
    mutating func take(_ byte: Unicode.Scalar) -> Bool {
        guard peek() == UInt8(ascii: byte) else { return false }
        position += 1
        return true
    }

    /// The text of the primitive that comes next (a number or a literal,
    /// not checked), stepped over; nil for a string, an object or an array.
    mutating func word() -> Range<Int>? {
        guard let first = peek(), first != UInt8(ascii: "\""), first != UInt8(ascii: "{"), first != UInt8(ascii: "[")
        else { return nil }
        let start = position
        while position < text.count, !Self.ends(text[position]) { position += 1 }
        return position > start ? start..<position : nil
    }

    /// The bytes a string literal stands for (escapes undone), stepped over.
    mutating func string() -> [UInt8]? {
        guard peek() == UInt8(ascii: "\"") else { return nil }
        let start = position + 1
        guard stringEnd() else { return nil }
        let body = UnsafeBufferPointer(rebasing: text[start..<position - 1])
        guard !body.contains(where: { $0 < 0x20 }) else { return nil }
        guard body.contains(UInt8(ascii: "\\")) else { return Array(body) }
        var out: [UInt8] = []
        var i = body.startIndex
        while i < body.endIndex {
            let byte = body[i]
            i += 1
            guard byte == UInt8(ascii: "\\"), i < body.endIndex else {
                out.append(byte)
                continue
            }
            let escape = body[i]
            i += 1
            switch escape {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
            case UInt8(ascii: "u"):
                // Refused as the parsers of recordings refuse them: a NUL,
                // and a surrogate that is not half of a pair.
                guard var scalar = hex(body, &i), scalar != 0, !(0xDC00..<0xE000).contains(scalar) else { return nil }
                if (0xD800..<0xDC00).contains(scalar) {
                    // A surrogate pair is one scalar.
                    guard i + 1 < body.endIndex, body[i] == UInt8(ascii: "\\"), body[i + 1] == UInt8(ascii: "u") else { return nil }
                    var j = i + 2
                    guard let low = hex(body, &j), (0xDC00..<0xE000).contains(low) else { return nil }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i = j
                }
                out.append(contentsOf: String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8)
            default: return nil
            }
        }
        return out
    }

    /// Whether `word` is a JSON number: `-? int frac? exp?`.
    static func isNumber(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = word.startIndex
        func digits() -> Int {
            let start = i
            while i < word.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(word[i]) { i += 1 }
            return i - start
        }
        if i < word.endIndex, word[i] == UInt8(ascii: "-") { i += 1 }
        let first = i
        let whole = digits()
        guard whole > 0, whole == 1 || word[first] != UInt8(ascii: "0") else { return false }
        if i < word.endIndex, word[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { return false }
        }
        if i < word.endIndex, word[i] == UInt8(ascii: "e") || word[i] == UInt8(ascii: "E") {
            i += 1
            if i < word.endIndex, word[i] == UInt8(ascii: "+") || word[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == word.endIndex
    }

    /// Four hex digits at `i`, stepped over.
    private func hex(_ body: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> UInt32? {
        guard i + 4 <= body.endIndex else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexDigit(body[i]) else { return nil }
            value = value << 4 | digit
            i += 1
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// Steps from a string's opening quote past its closing one.
    private mutating func stringEnd() -> Bool {
        position += 1
        while position < text.count {
            switch text[position] {
            case UInt8(ascii: "\""):
                position += 1
                return true
            case UInt8(ascii: "\\"): position += 2
            default: position += 1
            }
        }
        return false
    }

    private static func ends(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == 0x20
            || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
