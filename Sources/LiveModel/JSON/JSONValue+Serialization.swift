extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text, members sorted by name.
    public var description: String { jsonText(sortedKeys: true) }
}

extension JSONValue {
    /// The value as compact JSON text (RFC 8259), ready to send to the
    /// database.
    ///
    /// - Strings escape `"`, `\` and every control character below U+0020;
    ///   everything else is written as UTF-8.
    /// - Integral numbers of magnitude below 2^53 are written without a
    ///   fraction (`3`, not `3.0`); others in the shortest form that reads
    ///   back as the same double. NaN and infinities, which JSON cannot
    ///   express, are written as `null` (as JavaScript's `JSON.stringify` does).
    /// - Parameter sortedKeys: Write object members in order of their names'
    ///   Unicode scalars, so equal values give equal text. Otherwise the order
    ///   is the object's, which varies between runs. Every member is written
    ///   under its exact name, so canonically equivalent names stay apart.
    /// - Complexity: O(size of the value), plus O(m log m) per object of m
    ///   members when sorting.
    public func jsonText(sortedKeys: Bool = false) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(to: &out, sortedKeys: sortedKeys)
        return String(decoding: out, as: UTF8.self)
    }

    /// The value as UTF-8 JSON bytes; see ``jsonText(sortedKeys:)``.
    public func jsonBytes(sortedKeys: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        write(to: &out, sortedKeys: sortedKeys)
        return out
    }

    /// Appends the value's JSON text to `out`; see ``jsonText(sortedKeys:)``.
    package func write(to out: inout [UInt8], sortedKeys: Bool) {
        switch self {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let b):
            out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let d):
            JSONValue.writeNumber(d, to: &out)
        case .string(let s):
            JSONValue.writeString(s, to: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (i, element) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out, sortedKeys: sortedKeys)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            var first = true
            func member(_ name: String, _ value: JSONValue) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                JSONValue.writeString(name, to: &out)
                out.append(UInt8(ascii: ":"))
                value.write(to: &out, sortedKeys: sortedKeys)
            }
            if sortedKeys {
                // Distinct names never tie: the same scalars are the same code units.
                for (name, value) in o.sorted(by: { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }) {
                    member(name, value)
                }
            } else {
                for (name, value) in o { member(name, value) }
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeNumber(_ d: Double, to out: inout [UInt8]) {
        guard d.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        if JSONValue.isIntegral(d), abs(d) < 9_007_199_254_740_992 {
            out.append(contentsOf: String(Int64(d)).utf8)
        } else {
            // Swift's description is the shortest round-trip form: "0.1",
            // "1e+20", "5e-324" — all valid JSON.
            out.append(contentsOf: d.description.utf8)
        }
    }

    /// Whether a finite double has no fraction, from its bits (no libm call,
    /// so clients need not link libm).
    static func isIntegral(_ d: Double) -> Bool {
        d == 0 || (d.exponent >= 0 && Int(d.exponent) >= d.significandWidth)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `s` as a JSON string literal.
    /// - Complexity: O(length of `s`); a string with nothing to escape is
    ///   copied in one piece.
    package static func writeString(_ s: String, to out: inout [UInt8]) {
        s.withUTF8Bytes { writeString(utf8: $0, to: &out) }
    }

    /// Appends the key `key` as a JSON string literal, from its bytes.
    /// - Complexity: O(length of the key).
    package static func writeKey(_ key: LiveModel.Key, to out: inout [UInt8]) {
        key.withUTF8 { writeString(utf8: $0, to: &out) }
    }

    /// Appends the UTF-8 text `bytes` as a JSON string literal.
    /// - Complexity: O(length of the text); text with nothing to escape is
    ///   copied in one piece.
    private static func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                        hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
