// RESTJSONMembers.swift — the members of a JSON object as byte ranges of
// the text, so that a subset can be copied without re-encoding anything.
import LiveModel

/// Finds the top-level members of JSON text that has already been
/// validated (by ``Snapshot/parse(json:key:order:)-(String,_,_)``).
///
/// Copying a member's text as it was received keeps everything in it as
/// the server sent it: nested priorities, numbers, and keys that differ
/// only by Unicode canonical equivalence.
enum RESTJSONMembers {
    /// One member: its name (an index for an array element) and the range
    /// of its value's text.
    struct Member {
        let name: String
        let value: Range<Int>
    }

    /// The members of an object, or the elements of an array named `"0"`,
    /// `"1"`, …; `nil` when the text is neither or cannot be read.
    /// - Complexity: O(length of the text).
    static func scan(_ bytes: [UInt8]) -> [Member]? {
        var scanner = Scanner(bytes: bytes)
        scanner.skipSpace()
        guard let open = scanner.peek, open == UInt8(ascii: "{") || open == UInt8(ascii: "[") else { return nil }
        let isArray = open == UInt8(ascii: "[")
        let close = isArray ? UInt8(ascii: "]") : UInt8(ascii: "}")
        scanner.index += 1
        var members: [Member] = []
        scanner.skipSpace()
        if scanner.peek == close { return members }
        while true {
            let name: String
            if isArray {
                name = String(members.count)
            } else {
                let start = scanner.index
                guard scanner.peek == UInt8(ascii: "\""), scanner.skipString(),
                      case .string(let decoded)? = try? JSONValue(parsingUTF8: bytes[start..<scanner.index])
                else { return nil }
                name = decoded
                scanner.skipSpace()
                guard scanner.peek == UInt8(ascii: ":") else { return nil }
                scanner.index += 1
                scanner.skipSpace()
            }
            let start = scanner.index
            guard scanner.skipValue() else { return nil }
            members.append(Member(name: name, value: start..<scanner.index))
            scanner.skipSpace()
            switch scanner.peek {
            case UInt8(ascii: ",")?:
                scanner.index += 1
                scanner.skipSpace()
            case close?:
                return members
            default:
                return nil
            }
        }
    }

    /// A cursor over the text.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        /// Skips a string starting at its opening quote.
        mutating func skipString() -> Bool {
            index += 1
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""): index += 1; return true
                default: index += 1
                }
            }
            return false
        }

        /// Skips one value: a string, a container (with everything inside)
        /// or a primitive.
        mutating func skipValue() -> Bool {
            guard let first = peek else { return false }
            switch first {
            case UInt8(ascii: "\""):
                return skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while let byte = peek {
                    switch byte {
                    case UInt8(ascii: "\""):
                        guard skipString() else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 { index += 1; return true }
                    default:
                        break
                    }
                    index += 1
                }
                return false
            default:
                let start = index
                while let byte = peek, !Self.endsPrimitive(byte) { index += 1 }
                return index > start
            }
        }

        private static func endsPrimitive(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return true
            default: return false
            }
        }
    }
}
