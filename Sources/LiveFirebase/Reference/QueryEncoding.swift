// QueryEncoding.swift — strict percent-encoding for URL paths and queries.

/// Percent-encoding that leaves only RFC 3986 unreserved characters as they
/// are, so `+`, `&`, `=`, `"` and `%` in keys and JSON values survive every
/// server's decoding.
enum QueryEncoding {
    static func percentEncode(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return out
    }

    /// `name=value&…`, each part encoded.
    static func query(_ items: [(name: String, value: String)]) -> String {
        items.map { percentEncode($0.name) + "=" + percentEncode($0.value) }.joined(separator: "&")
    }

    /// Removes the values of `auth` and `access_token` from a URL's text
    /// (however their names are percent-encoded).
    static func redact(_ url: String) -> String {
        guard let q = url.firstIndex(of: "?") else { return url }
        let head = url[..<q]
        let parts = url[url.index(after: q)...].split(separator: "&", omittingEmptySubsequences: false).map { part in
            let name = decodedName(of: part)
            return name == "auth" || name == "access_token" ? name + "=<redacted>" : String(part)
        }
        return head + "?" + parts.joined(separator: "&")
    }

    /// The name of a query item `name=value`, percent-decoded (`+` is a
    /// space), as a server reads it.
    static func decodedName<S: StringProtocol>(of item: S) -> String {
        let raw = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var bytes: [UInt8] = []
        var iterator = raw.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
                      let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
