internal import CLiveCore

/// A location in the database: a sequence of ``Key``s, written `"/a/b"`.
///
/// A path has at most 32 segments and its text (``description``) at most
/// 768 bytes of UTF-8. The empty path is ``root``. Paths are also used
/// relative to a location, as in `orderByChild("a/b")`.
public struct DatabasePath: Sendable, Hashable {
    /// The segments, outermost first.
    public let keys: [Key]

    /// The root: no segments, written `"/"`.
    public static let root = DatabasePath(uncheckedKeys: [])

    /// Most segments a path may have.
    public static let maxDepth = Int(LC_MAX_PATH_DEPTH)
    /// Longest text a path may have, in bytes of UTF-8.
    public static let maxByteCount = Int(LC_MAX_KEY_BYTES)

    /// Parses a path such as `"/a/b"`, `"a/b/"` or `"/"`: segments separated
    /// by `/`, empty segments ignored, each a valid key.
    ///
    /// - Throws: ``KeyError`` (with ``KeyError/isPath`` set) naming the
    ///   offending byte of `string`, or the path's excess length or depth.
    /// - Complexity: O(length of the text).
    public init(_ string: String) throws(KeyError) {
        let (status, error) = string.withUTF8Bytes { bytes in
            var error = lc_error()
            let status = lc_path_validate(bytes.cChars, bytes.count, &error)
            return (status, error)
        }
        guard status == LC_OK else {
            throw KeyError(text: string, isPath: true, status: status, error: error)
        }
        self.init(validatedText: string)
    }

    /// A path of these keys.
    /// - Throws: ``KeyError`` if there are more than 32 keys or the text
    ///   would exceed 768 bytes.
    public init(_ keys: [Key]) throws(KeyError) {
        try DatabasePath.checkLimits(keys)
        self.keys = keys
    }

    /// A path the C core has already validated ("/a/b", "a/b", "/").
    package init(validatedText string: String) {
        // Split the bytes, not the Characters: "/" followed by a combining
        // mark is one Character but still a separator.
        self.keys = string.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
            .map { Key(unchecked: String(decoding: $0, as: UTF8.self)) }
    }

    /// A path whose limits are already known to hold.
    package init(uncheckedKeys keys: [Key]) {
        self.keys = keys
    }

    /// Whether this is the root.
    public var isRoot: Bool { keys.isEmpty }

    /// Number of segments.
    public var depth: Int { keys.count }

    /// The last key, or `nil` for the root.
    public var lastKey: Key? { keys.last }

    /// The path without its last key, or `nil` for the root.
    public var parent: DatabasePath? {
        keys.isEmpty ? nil : DatabasePath(uncheckedKeys: Array(keys.dropLast()))
    }

    /// This path followed by `key`.
    /// - Throws: ``KeyError`` if the result would be deeper than 32 segments
    ///   or longer than 768 bytes.
    /// - Complexity: O(depth).
    public func child(_ key: Key) throws(KeyError) -> DatabasePath {
        try DatabasePath(keys + [key])
    }

    /// This path followed by the segments of `path`.
    /// - Throws: ``KeyError`` as ``child(_:)`` does.
    public func appending(_ path: DatabasePath) throws(KeyError) -> DatabasePath {
        path.isRoot ? self : try DatabasePath(keys + path.keys)
    }

    /// Whether `prefix`'s segments begin this path (every path starts with
    /// the root and with itself).
    public func starts(with prefix: DatabasePath) -> Bool {
        keys.starts(with: prefix.keys)
    }

    /// The part of this path below `ancestor` (`"/a/b/c"` relative to
    /// `"/a"` is `"/b/c"`), or `nil` if `ancestor` does not begin it.
    public func relative(to ancestor: DatabasePath) -> DatabasePath? {
        starts(with: ancestor) ? DatabasePath(uncheckedKeys: Array(keys.dropFirst(ancestor.depth))) : nil
    }

    /// The segments joined by `/` without a leading slash (`"a/b"`, `""` for
    /// the root): the form the C core takes for a relative child path.
    package var relativeText: String {
        keys.lazy.map(\.string).joined(separator: "/")
    }

    private static func checkLimits(_ keys: [Key]) throws(KeyError) {
        if keys.count > maxDepth {
            let text = "/" + keys.lazy.map(\.string).joined(separator: "/")
            throw KeyError(key: text, isPath: true, reason: .tooDeep(depth: keys.count, limit: maxDepth), position: 0)
        }
        let byteCount = keys.reduce(0) { $0 + 1 + $1.utf8Count }
        if byteCount > maxByteCount {
            let text = "/" + keys.lazy.map(\.string).joined(separator: "/")
            throw KeyError(key: text, isPath: true, reason: .tooLong(byteCount: byteCount, limit: maxByteCount),
                           position: maxByteCount)
        }
    }
}

extension DatabasePath: ExpressibleByStringLiteral {
    /// A path written in source code. Traps if the literal is not a valid
    /// path; for text from users or the network use the throwing
    /// ``init(_:)-(String)``.
    public init(stringLiteral value: String) {
        do {
            try self.init(value)
        } catch {
            preconditionFailure("invalid DatabasePath literal: \(error)")
        }
    }
}

extension DatabasePath: CustomStringConvertible {
    /// `"/a/b"`, or `"/"` for the root.
    public var description: String { "/" + relativeText }
}

extension DatabasePath: Codable {
    /// Decodes the text of a path and validates it.
    public init(from decoder: any Decoder) throws {
        let string = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(string)
        } catch {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
        }
    }

    /// Encodes ``description``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
