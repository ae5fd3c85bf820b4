// RequestTarget.swift — the path and parameters of a REST request URI.

import LiveModel

/// A request URI as the REST API reads it: `/<path>.json?<parameters>`.
struct RequestTarget: Sendable {
    /// The database location (percent-decoded, validated).
    let path: DatabasePath
    /// Whether the URI names the priority of the node at ``path``
    /// (`/a/b/.priority.json`) rather than the node.
    let isPriority: Bool
    /// The query parameters, percent-decoded (`+` is a space); the last of
    /// repeated names wins.
    let parameters: [String: String]

    /// Parses `uri`.
    /// - Throws: ``StoreError`` 404 for a path that does not end in `.json`;
    ///   400 for bad percent-encoding or an invalid key in the path.
    /// - Complexity: O(length of `uri`).
    init(uri: String) throws(StoreError) {
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var rawPath = String(parts[0])
        guard rawPath.hasSuffix(".json") else {
            throw StoreError(status: 404, message: "Not found: REST paths end in .json (got \(Self.shown(rawPath))).")
        }
        rawPath.removeLast(".json".count)
        guard let decoded = Self.percentDecoded(Substring(rawPath), plusIsSpace: false) else {
            throw .badRequest("Invalid path: bad percent-encoding in \(Self.shown(rawPath)).")
        }
        do {
            let named = try NamedLocation(decoded)
            path = named.path
            isPriority = named.isPriority
        } catch {
            throw .badRequest("Invalid path: \(error.description)")
        }
        var parameters: [String: String] = [:]
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") where !pair.isEmpty {
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = Self.percentDecoded(halves[0], plusIsSpace: true),
                      let value = Self.percentDecoded(halves.count > 1 ? halves[1] : "", plusIsSpace: true) else {
                    throw .badRequest("Invalid query: bad percent-encoding in \(Self.shown(String(pair))).")
                }
                parameters[name] = value
            }
        }
        self.parameters = parameters
    }

    /// A string shortened for an error message.
    static func shown(_ text: String) -> String {
        let limit = 120
        return text.count <= limit ? "'\(text)'" : "'\(text.prefix(limit))…'"
    }

    /// `text` with `%XX` escapes decoded (and `+` as a space when asked);
    /// nil when an escape is malformed or the bytes are not UTF-8.
    static func percentDecoded(_ text: Substring, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
