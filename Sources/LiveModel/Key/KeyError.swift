internal import CLiveCore

/// Why a string is not a valid Firebase key or path.
///
/// Carries the offending text, the rule it breaks and the byte offset of the
/// offending character, so a caller can point at it.
public struct KeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule a key or path breaks.
    public enum Reason: Sendable, Hashable {
        /// A key must not be empty.
        case empty
        /// Keys cannot contain `.` `#` `$` `/` `[` `]` or an ASCII control
        /// character (U+0000–U+001F, U+007F); paths allow `/`.
        case forbiddenCharacter(Unicode.Scalar)
        /// More than 768 bytes of UTF-8 (`limit` is 768).
        case tooLong(byteCount: Int, limit: Int)
        /// A path of more than 32 segments (`limit` is 32).
        case tooDeep(depth: Int, limit: Int)
        /// The bytes are not valid UTF-8 (only possible for raw bytes).
        case invalidUTF8
    }

    /// The offending key or path, as given.
    public var key: String
    /// Whether `key` was checked as a path (segments separated by `/`).
    public var isPath: Bool
    /// The rule it breaks.
    public var reason: Reason
    /// Offset in bytes of UTF-8 of the offending character in ``key`` (for
    /// ``Reason/tooLong(byteCount:limit:)``, the first byte beyond the limit;
    /// for ``Reason/empty`` and ``Reason/tooDeep(depth:limit:)``, 0).
    public var position: Int

    /// Creates an error.
    public init(key: String, isPath: Bool, reason: Reason, position: Int) {
        self.key = key
        self.isPath = isPath
        self.reason = reason
        self.position = position
    }

    /// An English sentence naming the key or path (its first 40
    /// characters), the rule it breaks and, for a forbidden character, the
    /// character and its byte offset.
    public var description: String {
        let what = isPath ? "path" : "key"
        let shown = key.count > 40 ? String(key.prefix(40)) + "…" : key
        switch reason {
        case .empty:
            return "invalid \(what) \"\(shown)\": a key cannot be empty"
        case .forbiddenCharacter(let scalar):
            let name = scalar.value < 0x20 || scalar.value == 0x7F
                ? "control character U+\(String(scalar.value, radix: 16, uppercase: true))"
                : "'\(scalar)'"
            return "invalid \(what) \"\(shown)\": \(name) at byte \(position) is not allowed"
        case .tooLong(let count, let limit):
            return "invalid \(what) \"\(shown)\": \(count) bytes, more than \(limit)"
        case .tooDeep(let depth, let limit):
            return "invalid path \"\(shown)\": \(depth) segments, more than \(limit)"
        case .invalidUTF8:
            return "invalid \(what): not UTF-8 at byte \(position)"
        }
    }
}

extension KeyError {
    /// The error the C core reports for `text` (a key, or a path when
    /// `isPath`).
    init(text: String, isPath: Bool, status: lc_status, error: lc_error) {
        let position = Int(error.position)
        let utf8 = Array(text.utf8)
        let reason: Reason
        switch status {
        case LC_ERR_KEY_TOO_LONG, LC_ERR_PATH_TOO_LONG:
            if utf8.count > Int(LC_MAX_KEY_BYTES) {
                reason = .tooLong(byteCount: utf8.count, limit: Int(LC_MAX_KEY_BYTES))
            } else {
                let depth = utf8.withUnsafeBufferPointer { lc_path_depth($0.cChars, $0.count) }
                reason = .tooDeep(depth: depth, limit: Int(LC_MAX_PATH_DEPTH))
            }
        default:
            if utf8.isEmpty {
                reason = .empty
            } else if position < utf8.count, utf8[position] < 0x80 {
                reason = .forbiddenCharacter(Unicode.Scalar(utf8[position]))
            } else {
                reason = .invalidUTF8
            }
        }
        self.init(key: text, isPath: isPath, reason: reason, position: position)
    }
}
