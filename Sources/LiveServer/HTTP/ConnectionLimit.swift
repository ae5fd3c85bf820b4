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
/// At shutdown every connection is closed at once (``closeAll()``), and
/// any arriving later is closed unanswered.
final class ConnectionLimit: Sendable {
    /// The most connections open at once.
    let capacity: Int
    private struct Entry {
        let channel: any Channel
        /// Since when it waits for a request; nil while busy.
        var waitingSince: NIODeadline?
    }
    private struct State {
        var open: [ObjectIdentifier: Entry] = [:]
        /// Whether the server shuts down: nothing is admitted any more.
        var closed = false
    }
    private let state = NIOLockedValueBox(State())

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// What becomes of a connection that arrives.
    enum Admission: Equatable {
        /// Counted in: it is served.
        case admitted
        /// The limit is reached and every connection is busy: it is not
        /// counted, and should be refused.
        case full
        /// The server shuts down: it is not counted, and should be closed.
        case closed
    }

    /// Counts `channel` in (waiting), closing the connection that has
    /// waited longest if the limit is reached.
    /// - Complexity: O(c) for c connections open when the limit is
    ///   reached, else O(1).
    func admit(_ channel: any Channel) -> Admission {
        enum Outcome { case admitted, admittedClosing(any Channel), full, closed }
        let outcome: Outcome = state.withLockedValue { state in
            guard !state.closed else { return .closed }
            var victim: (any Channel)?
            if state.open.count >= capacity {
                let waiting = state.open.filter { $0.value.waitingSince != nil }
                guard let oldest = waiting.min(by: { $0.value.waitingSince! < $1.value.waitingSince! }) else {
                    return .full
                }
                state.open[oldest.key] = nil
                victim = oldest.value.channel
            }
            state.open[ObjectIdentifier(channel)] = Entry(channel: channel, waitingSince: .now())
            return victim.map { .admittedClosing($0) } ?? .admitted
        }
        switch outcome {
        case .admitted: return .admitted
        case .admittedClosing(let victim):
            victim.close(promise: nil)
            return .admitted
        case .full: return .full
        case .closed: return .closed
        }
    }

    /// Admits nothing from now on, and returns every connection counted
    /// in, for the caller to close (see ``LiveServer/shutdown()``).
    /// - Complexity: O(c) for c connections open.
    func closeAll() -> [any Channel] {
        state.withLockedValue { state in
            state.closed = true
            return state.open.values.map(\.channel)
        }
    }

    /// Marks `channel` as waiting for a request (since now) or busy.
    func setWaiting(_ channel: any Channel, _ waiting: Bool) {
        state.withLockedValue { state in
            state.open[ObjectIdentifier(channel)]?.waitingSince = waiting ? .now() : nil
        }
    }

    /// Counts `channel` out (closed).
    func remove(_ channel: any Channel) {
        _ = state.withLockedValue { $0.open.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// The connections open now.
    var count: Int { state.withLockedValue { $0.open.count } }
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
