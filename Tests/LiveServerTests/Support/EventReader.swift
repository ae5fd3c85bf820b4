// EventReader.swift — reads a stream's server-sent events off a raw
// connection (the body is chunked: the chunk framing is skipped), each
// read off the cooperative pool.

import LiveModel
import LiveTestSupport

/// A stream opened with `Accept: text/event-stream`.
final class EventReader: @unchecked Sendable {
    // @unchecked: used by one task at a time; each read runs on a thread
    // of its own, one after the other.
    struct Event: Equatable, Sendable {
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
    /// Whether the body ended with its last chunk (rather than being cut off).
    private(set) var endedProperly = false

    /// Connects, sends the request and reads the response head.
    init(port: Int, _ target: String, headers: [String: String] = [:], timeoutSeconds: Int = 60) async throws {
        let accept = headers.merging(["Accept": "text/event-stream"]) { a, _ in a }
        let (connection, status, headers) = try await offThePool {
            let connection = try RawConnection(port: port, timeoutSeconds: timeoutSeconds)
            try connection.sendRequest("GET", target, headers: accept)
            let (status, headers) = try connection.readHead()
            return (connection, status, headers)
        }
        self.connection = connection
        self.status = status
        self.headers = headers
        chunked = headers["transfer-encoding"] == "chunked"
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
                guard let sizeLine = try connection.readLine(), let size = Int(sizeLine, radix: 16) else { return nil }
                if size == 0 {
                    endedProperly = true
                    return nil
                }
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
    func next(skippingKeepAlives: Bool = true) async throws -> Event? {
        try await offThePool { try self.readEvent(skippingKeepAlives: skippingKeepAlives) }
    }

    /// The next `count` events (fewer if the stream ends), in one trip off
    /// the pool.
    func next(_ count: Int) async throws -> [Event] {
        try await offThePool {
            var events: [Event] = []
            while events.count < count, let event = try self.readEvent(skippingKeepAlives: true) { events.append(event) }
            return events
        }
    }

    /// Reads the next event, blocking.
    private func readEvent(skippingKeepAlives: Bool) throws -> Event? {
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
