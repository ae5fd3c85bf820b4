// ConnectionLimit.swift — at most so many connections at once; when full,
// the one that has waited longest for its request makes room.

import NIOConcurrencyHelpers
import NIOCore

/// The open connections of a ``LiveServer``, bounded.
///
/// A connection is *waiting* from when it is accepted, and after each
/// response, until its next request has arrived whole; it is *busy* while a
/// request is answered, and a stream is busy for good. When a connection
/// arrives at the limit, the one that has been waiting longest is closed to
/// make room (a client that opens sockets and sends nothing, or sends
/// headers a byte at a time, cannot keep others out); when none is
/// waiting, the new one is refused with 503 and a reason. Each waiting
/// connection is also closed when it has waited ``LiveServerConfiguration/requestTimeout``.
final class ConnectionLimit: Sendable {
    /// The most connections open at once.
    let capacity: Int
    private struct Entry {
        let channel: any Channel
        /// Since when it waits for a request; nil while busy.
        var waitingSince: NIODeadline?
    }
    private let open = NIOLockedValueBox<[ObjectIdentifier: Entry]>([:])

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Counts `channel` in (waiting), closing the connection that has
    /// waited longest if the limit is reached.
    /// - Returns: false when the limit is reached and every connection is
    ///   busy: `channel` is then not counted, and should be refused.
    /// - Complexity: O(c) for c connections open when the limit is
    ///   reached, else O(1).
    func admit(_ channel: any Channel) -> Bool {
        enum Admission { case admitted, admittedClosing(any Channel), refused }
        let admission: Admission = open.withLockedValue { open in
            var victim: (any Channel)?
            if open.count >= capacity {
                let waiting = open.filter { $0.value.waitingSince != nil }
                guard let oldest = waiting.min(by: { $0.value.waitingSince! < $1.value.waitingSince! }) else {
                    return .refused
                }
                open[oldest.key] = nil
                victim = oldest.value.channel
            }
            open[ObjectIdentifier(channel)] = Entry(channel: channel, waitingSince: .now())
            return victim.map { .admittedClosing($0) } ?? .admitted
        }
        switch admission {
        case .admitted: return true
        case .admittedClosing(let victim):
            victim.close(promise: nil)
            return true
        case .refused: return false
        }
    }

    /// Marks `channel` as waiting for a request (since now) or busy.
    func setWaiting(_ channel: any Channel, _ waiting: Bool) {
        open.withLockedValue { open in
            open[ObjectIdentifier(channel)]?.waitingSince = waiting ? .now() : nil
        }
    }

    /// Counts `channel` out (closed).
    func remove(_ channel: any Channel) {
        _ = open.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// The connections open now.
    var count: Int { open.withLockedValue { $0.count } }
}

/// Answers a connection refused at the limit: one 503, then closes.
final class RefusingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    func channelActive(context: ChannelHandlerContext) {
        let body = #"{"error":"Too many connections: live-server serves at most \#(capacity) at once, all busy. Try again later."}"#
        let text = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nRetry-After: 1\r\nConnection: close\r\n\r\n" + body
        let channel = context.channel
        context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: text))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
