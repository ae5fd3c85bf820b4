internal import CJansson
internal import CLiveCore

/// Why JSON text, a snapshot or a stream payload could not be read, and
/// where.
///
/// Parsing never applies anything partially: either the whole input is
/// accepted or this error says what is wrong. ``line``, ``column`` and
/// ``position`` point at the offending place in the input (for JSON syntax
/// errors they are jansson's own); a field that does not apply is 0.
public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. The raw values are the C core's stable status codes
    /// (`lc_status`): they never change, new codes are only appended.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// An argument could not be used.
        case argument = 1
        /// Memory could not be allocated.
        case outOfMemory = 2
        /// Malformed JSON.
        case jsonSyntax = 3
        /// The JSON ends before the value is complete.
        case jsonTruncated = 4
        /// Something follows the JSON value.
        case jsonTrailing = 5
        /// The bytes are not valid UTF-8.
        case invalidUTF8 = 6
        /// A string contains U+0000.
        case nulCharacter = 7
        /// A number does not fit: an integer beyond 64 bits or a real beyond
        /// a double.
        case numberRange = 8
        /// A key Firebase does not allow: empty, or containing `.` `#` `$`
        /// `/` `[` `]` or an ASCII control character.
        case keyInvalid = 9
        /// A key longer than 768 bytes of UTF-8.
        case keyTooLong = 10
        /// Data nested deeper than allowed (32 levels by default).
        case tooDeep = 11
        /// A path with an invalid segment.
        case pathInvalid = 12
        /// A path longer than 768 bytes or 32 segments.
        case pathTooLong = 13
        /// A stream payload that is not an object with a string `"path"` and
        /// a `"data"` member.
        case payloadShape = 14
        /// A key or index that is not present.
        case notFound = 15
        /// A key that is already present.
        case duplicateKey = 16
        /// A size limit of the core was reached.
        case capacity = 17
        /// A value that has no meaning where it stands, such as a boolean
        /// priority or `".value"` beside children.
        case valueInvalid = 18
        /// A status this version does not know (a newer core).
        case unknown = -1
    }

    /// What went wrong.
    public var code: Code
    /// 1-based line of the offending place, or 0.
    public var line: Int
    /// 1-based column (in characters) of the offending place, or 0.
    public var column: Int
    /// Offset in bytes of the offending place from the start of the input.
    public var position: Int
    /// A human-readable explanation, in English.
    public var message: String

    /// Creates an error.
    public init(code: Code, line: Int = 0, column: Int = 0, position: Int = 0, message: String) {
        self.code = code
        self.line = line
        self.column = column
        self.position = position
        self.message = message
    }

    /// The code, the line and column when known, the byte position and the
    /// message, on one line.
    public var description: String {
        let location = line > 0 ? " at line \(line), column \(column)" : ""
        return "\(code) error\(location) (byte \(position)): \(message)"
    }
}

extension ParseError.Code {
    init(status: lc_status) {
        self = ParseError.Code(rawValue: Int(status.rawValue)) ?? .unknown
    }
}

extension ParseError {
    /// The error an `lc_error` describes.
    init(_ error: lc_error) {
        var copy = error
        let text = withUnsafeBytes(of: &copy.text) { raw in
            ParseError.cString(raw)
        }
        self.init(code: Code(status: error.code), line: Int(error.line), column: Int(error.column),
                  position: Int(error.position), message: text)
    }

    /// The error a jansson `json_error_t` describes.
    init(jansson error: json_error_t) {
        var copy = error
        let code: Code
        switch json_error_code(&copy) {
        case json_error_out_of_memory: code = .outOfMemory
        case json_error_stack_overflow: code = .tooDeep
        case json_error_invalid_utf8: code = .invalidUTF8
        case json_error_premature_end_of_input: code = .jsonTruncated
        case json_error_end_of_input_expected: code = .jsonTrailing
        case json_error_null_character, json_error_null_byte_in_key: code = .nulCharacter
        case json_error_numeric_overflow: code = .numberRange
        case json_error_invalid_argument: code = .argument
        default: code = .jsonSyntax
        }
        let text = withUnsafeBytes(of: &copy.text) { raw in
            // The last byte of jansson's text holds the error code.
            ParseError.cString(UnsafeRawBufferPointer(rebasing: raw.dropLast()))
        }
        self.init(code: code, line: Int(error.line), column: Int(error.column),
                  position: Int(error.position), message: text)
    }

    /// The bytes of `raw` up to the first NUL, as UTF-8 (repairing any
    /// invalid sequence).
    private static func cString(_ raw: UnsafeRawBufferPointer) -> String {
        let end = raw.firstIndex(of: 0) ?? raw.count
        return String(decoding: raw[..<end], as: UTF8.self)
    }
}
