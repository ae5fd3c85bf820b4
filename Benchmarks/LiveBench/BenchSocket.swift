// BenchSocket.swift — blocking loopback sockets for the server benchmark:
// pipelined requests out, responses and stream events in.

import Foundation

/// A TCP connection to 127.0.0.1.
final class BenchSocket: @unchecked Sendable {
    let fd: Int32
    private var buffer: [UInt8] = []
    /// What each read fills, made once: a reader of many small events must
    /// not be the figure it measures.
    private var scratch = [UInt8](repeating: 0, count: 1 << 16)

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, result == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(fd) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            guard n > 0 else { throw POSIXError(.EPIPE) }
            offset += n
        }
    }

    /// Reads whatever is available (blocking until something is); false at end.
    func fill() throws -> Bool {
        let n = scratch.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 { throw POSIXError(.EIO) }
        if n == 0 { return false }
        buffer.append(contentsOf: scratch[0..<n])
        return true
    }

    /// Reads one response with a Content-Length body and drops it; throws
    /// unless its status is `status`.
    func readResponse(status: String = "200") throws {
        while true {
            if let end = headerEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                guard head.hasPrefix("HTTP/1.1 \(status)") else { throw POSIXError(.EPROTO) }
                let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                if buffer.count >= end + 4 + length {
                    buffer.removeFirst(end + 4 + length)
                    return
                }
            }
            guard try fill() else { throw POSIXError(.ECONNRESET) }
        }
    }

    private func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// Takes the bytes read so far.
    func take() -> [UInt8] {
        defer { buffer.removeAll(keepingCapacity: true) }
        return buffer
    }
}

/// Reads every stream with poll(); for each put event, the latency from
/// the time written in it to now.
final class StreamReader: @unchecked Sendable {
    private let sockets: [BenchSocket]
    private let expected: Int
    private let clock: () -> UInt64
    private let lock = NSLock()
    private var done = false
    private(set) var latencies: [UInt64] = []

    init(_ sockets: [BenchSocket], expected: Int, clock: @escaping () -> UInt64) {
        self.sockets = sockets
        self.expected = expected
        self.clock = clock
    }

    func run() {
        guard !sockets.isEmpty else { finish(); return }
        var fds = sockets.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        var partial = [[UInt8]](repeating: [], count: sockets.count)
        let marker = Array(#""data":"#.utf8), dataLine = Array("data: {".utf8)
        var seen: [UInt64] = []
        seen.reserveCapacity(expected)
        while seen.count < expected && !isDone {
            guard poll(&fds, nfds_t(fds.count), 200) > 0 else { continue }
            for (i, entry) in fds.enumerated() where entry.revents != 0 {
                guard (try? sockets[i].fill()) == true else { fds[i].fd = -1; continue }
                let arrived = clock()
                partial[i] += sockets[i].take()
                // Each complete event line: `data: {"path":"/c-k","data":<ns>}`,
                // scanned by hand: the reader must cost far less than the
                // server it measures.
                let start = partial[i].withUnsafeBufferPointer { bytes -> Int in
                    var start = 0
                    while let newline = bytes[start...].firstIndex(of: 10) {
                        if let sent = Self.sentTime(bytes, start, newline, dataLine, marker) {
                            seen.append(arrived &- sent)
                        }
                        start = newline + 1
                    }
                    return start
                }
                partial[i].removeFirst(start)
            }
        }
        lock.lock()
        latencies = seen
        lock.unlock()
        finish()
    }

    /// The send time a `data:` line of a put carries: the digits after
    /// `"data":`, when the line starts with `data: {`.
    private static func sentTime(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
                                 _ prefix: [UInt8], _ marker: [UInt8]) -> UInt64? {
        guard end - start > prefix.count, prefix.indices.allSatisfy({ bytes[start + $0] == prefix[$0] }) else { return nil }
        var i = start + prefix.count
        while i + marker.count <= end {
            if bytes[i] == marker[0] && marker.indices.allSatisfy({ bytes[i + $0] == marker[$0] }) {
                var j = i + marker.count, value: UInt64 = 0, digits = 0
                while j < end, bytes[j] >= 48, bytes[j] <= 57 {
                    value = value &* 10 &+ UInt64(bytes[j] - 48)
                    j += 1
                    digits += 1
                }
                return digits > 0 ? value : nil
            }
            i += 1
        }
        return nil
    }

    private var isDone: Bool { lock.lock(); defer { lock.unlock() }; return done }
    private func finish() { lock.lock(); done = true; lock.unlock() }

    /// Waits for every expected event, or gives up after `timeout` seconds.
    func waitUntilDone(timeout: Double) {
        let deadline = Date().addingTimeInterval(timeout)
        while !isDone && Date() < deadline { usleep(10_000) }
        finish()
        usleep(250_000)
    }
}

extension BenchSocket {
    /// Sends `count` requests on this connection, `depth` in flight: each
    /// batch goes out in one write, then its responses are read.
    /// `request(i)` is the whole text of request `i` (head and body).
    func pipeline(count: Int, depth: Int = 16, _ request: (Int) -> String) throws {
        var sent = 0
        while sent < count {
            let batch = min(depth, count - sent)
            try send((sent..<sent + batch).map(request).joined())
            for _ in 0..<batch { try readResponse() }
            sent += batch
        }
    }

    /// The text of an HTTP/1.1 request with `body`.
    static func request(_ method: String, _ target: String, body: String) -> String {
        "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }
}
