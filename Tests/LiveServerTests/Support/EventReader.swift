// EventReader.swift — reads a stream's server-sent events off a raw
// connection (the body is chunked: the chunk framing is skipped).

import LiveModel

/// A stream opened with `Accept: text/event-stream`.
final class EventReader {
    struct Event: Equatable {
        var name: String
        var data: String
        var json: JSONValue? { try? JSONValue(parsing: data) }
        /// `path` and `data` of a put or patch.
        var payload: (path: String, data: JSONValue)? {
            guard case .object(let object)? = json, case .string(let path)? = object["path"] else { return nil }
            return (path, object["data"] ?? .null)
        }
    }

    let connection: RawConnection
    let status: Int
    let headers: [String: String]
    private var body: [UInt8] = []
    /// How much of `body` is known to hold no newline (a long line is read
    /// in many chunks: each is scanned once).
    private var scanned = 0
    private var chunked: Bool

    init(port: Int, _ target: String, headers: [String: String] = [:], timeoutSeconds: Int = 10) throws {
        connection = try RawConnection(port: port, timeoutSeconds: timeoutSeconds)
        try connection.sendRequest("GET", target, headers: headers.merging(["Accept": "text/event-stream"]) { a, _ in a })
        (status, self.headers) = try connection.readHead()
        chunked = self.headers["transfer-encoding"] == "chunked"
    }

    /// The next body line; nil at end of stream.
    private func line() throws -> String? {
        while true {
            if let newline = body[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: body[..<newline], as: UTF8.self)
                body.removeSubrange(...newline)
                scanned = 0
                return line
            }
            scanned = body.count
            if chunked {
                guard let sizeLine = try connection.readLine(), let size = Int(sizeLine, radix: 16), size > 0 else { return nil }
                body += try connection.readBytes(size)
                _ = try connection.readLine()
            } else {
                guard let line = try connection.readLine() else { return nil }
                body += Array((line + "\n").utf8)
            }
        }
    }

    /// The next event; nil when the stream ends. Keep-alives are returned
    /// too unless `skippingKeepAlives`.
    func next(skippingKeepAlives: Bool = true) throws -> Event? {
        var name = "message"
        var data: [String] = []
        while let line = try line() {
            if line.isEmpty {
                if data.isEmpty && name == "message" { continue }
                let event = Event(name: name, data: data.joined(separator: "\n"))
                if skippingKeepAlives && event.name == "keep-alive" { name = "message"; data = []; continue }
                return event
            }
            if line.hasPrefix("event:") { name = String(line.dropFirst(6)).trimmingCharacters() }
            if line.hasPrefix("data:") { data.append(String(line.dropFirst(5)).trimmingCharacters()) }
        }
        return nil
    }
}

extension String {
    func trimmingCharacters() -> String { Substring(self).trimmingSpaces }
}
