import LiveModel

/// Recognises *plain* JSON text: text that is exactly what the server
/// writes for the value it holds, so that it can be kept and sent as it is
/// (see ``PackedJSON``).
///
/// Plain text has no whitespace outside strings, no escape in any string,
/// no `null`, no array, no empty object, no member named `.…`, no member
/// given twice, no object whose keys would render it as an array, and only
/// integers of at most 15 digits other than `-0`.
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
            return stringEnd(p, i)
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
        var j = i + 1
        while j < p.count {
            switch p[j] {
            case UInt8(ascii: "\""): return j + 1
            case UInt8(ascii: "\\"): return nil
            default: j += 1
            }
        }
        return nil
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
