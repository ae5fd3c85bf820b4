// RawHTTP.swift — an HTTP/1.1 client over a POSIX socket, so tests see
// exactly the bytes the server sends (statuses, headers, each event). Its
// calls block, so the async ones run them off the cooperative pool.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LiveModel
import LiveTestSupport

/// A response as read off the wire.
struct RawResponse {
    var status: Int
    var headers: [String: String]   // lower-cased names
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: JSONValue? { try? JSONValue(parsingUTF8: body) }
}

enum RawHTTPError: Error { case connect, closed, timeout, malformed(String) }

/// One TCP connection to the server. Its methods block: call them inside
/// ``offThePool(_:)`` (as ``request(_:_:_:headers:body:)`` and
/// ``EventReader`` do).
final class RawConnection: @unchecked Sendable {
    // @unchecked: used by one task at a time, as a socket is.
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int, timeoutSeconds: Int = 60) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawHTTPError.connect }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { close(fd); throw RawHTTPError.connect }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            guard n > 0 else { throw RawHTTPError.closed }
            offset += n
        }
    }

    /// Sends a request; `body` is sent with a Content-Length.
    func sendRequest(_ method: String, _ target: String, headers: [String: String] = [:], body: [UInt8]? = nil) throws {
        var text = "\(method) \(target) HTTP/1.1\r\n"
        if !headers.keys.contains(where: { $0.lowercased() == "host" }) { text += "Host: 127.0.0.1\r\n" }
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let body { text += "Content-Length: \(body.count)\r\n" }
        text += "\r\n"
        try send(Array(text.utf8) + (body ?? []))
    }

    /// Reads more bytes; false at end of stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 { throw errno == EAGAIN || errno == EWOULDBLOCK ? RawHTTPError.timeout : RawHTTPError.closed }
        if n == 0 { return false }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    /// One line without its CRLF or LF; nil at end of stream.
    func readLine() throws -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill() else { return nil }
        }
    }

    func readBytes(_ count: Int) throws -> [UInt8] {
        while buffer.count < count { guard try fill() else { throw RawHTTPError.closed } }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// Everything up to the end of the stream.
    func readToEnd() throws -> [UInt8] {
        while try fill() {}
        defer { buffer = [] }
        return buffer
    }

    /// Reads a status line and headers.
    func readHead() throws -> (status: Int, headers: [String: String]) {
        guard let statusLine = try readLine() else { throw RawHTTPError.closed }
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw RawHTTPError.malformed(statusLine) }
        var headers: [String: String] = [:]
        while let line = try readLine(), !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingSpaces
        }
        return (status, headers)
    }

    /// Reads a whole response (Content-Length or chunked).
    func readResponse() throws -> RawResponse {
        let (status, headers) = try readHead()
        if let length = headers["content-length"].flatMap(Int.init) {
            return RawResponse(status: status, headers: headers, body: try readBytes(length))
        }
        var body: [UInt8] = []
        if headers["transfer-encoding"] == "chunked" {
            while let sizeLine = try readLine(), let size = Int(sizeLine, radix: 16) {
                if size == 0 { _ = try readLine(); break }
                body += try readBytes(size)
                _ = try readLine()
            }
        }
        return RawResponse(status: status, headers: headers, body: body)
    }
}

extension Substring {
    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}

/// One request on a fresh connection, sent and read off the cooperative
/// pool; the answer may take `timeoutSeconds` (a bound for a hung server).
func request(_ port: Int, _ method: String, _ target: String, headers: [String: String] = [:],
             body: String? = nil, timeoutSeconds: Int = 60) async throws -> RawResponse {
    try await offThePool {
        let connection = try RawConnection(port: port, timeoutSeconds: timeoutSeconds)
        try connection.sendRequest(method, target, headers: headers.merging(["Connection": "close"]) { a, _ in a },
                                   body: body.map { Array($0.utf8) } ?? (method == "GET" || method == "DELETE" ? nil : []))
        return try connection.readResponse()
    }
}
