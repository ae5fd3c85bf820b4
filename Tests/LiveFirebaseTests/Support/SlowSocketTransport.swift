// SlowSocketTransport.swift — a stream transport on a plain socket that can
// be told to read slowly, so the server sees a slow consumer (URLSession
// reads and buffers whatever arrives, and never does).

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif
@testable import LiveFirebase

/// Opens each stream as an HTTP/1.0 GET on its own socket and thread, with
/// a small receive buffer. While ``slow`` is set it reads 256 bytes every
/// 20 ms.
final class SlowSocketTransport: StreamTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var isSlow = false
    private(set) var opened = 0

    var slow: Bool {
        get { lock.withLock { isSlow } }
        set { lock.withLock { isSlow = newValue } }
    }

    func open(_ request: URLRequest) -> AsyncThrowingStream<TransportEvent, any Error> {
        lock.withLock { opened += 1 }
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: TransportEvent.self)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var small: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        continuation.onTermination = { _ in shutdown(fd, Int32(SHUT_RDWR)) }
        Thread { [self] in
            defer { close(fd) }
            do {
                try run(fd, request, continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }.start()
        return stream
    }

    private func run(_ fd: Int32, _ request: URLRequest,
                     _ continuation: AsyncThrowingStream<TransportEvent, any Error>.Continuation) throws {
        guard let url = request.url, let port = url.port else { throw DatabaseError.transport("no port") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw DatabaseError.transport("connect failed") }
        let target = url.path + (url.query.map { "?" + $0 } ?? "")
        let head = Array("GET \(target) HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8)
        guard head.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == head.count else {
            throw DatabaseError.transport("send failed")
        }
        // The response head, then the body as it comes.
        var buffer: [UInt8] = []
        var headDone = false
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let size = slow && headDone ? 256 : chunk.count
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, size, 0) }
            if n <= 0 { return }
            buffer += chunk[0..<n]
            if !headDone {
                guard let end = buffer.firstRange(of: Array("\r\n\r\n".utf8)) else { continue }
                let lines = String(decoding: buffer[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                continuation.yield(.response(status: status, headers: headers))
                buffer.removeSubrange(..<end.upperBound)
                headDone = true
            }
            if !buffer.isEmpty {
                continuation.yield(.bytes(buffer))
                buffer.removeAll()
            }
            if slow { usleep(20_000) }
        }
    }
}
