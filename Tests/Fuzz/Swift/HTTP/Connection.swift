// Connection.swift — one connection to a ServerCore through the server's own
// pipeline (NIO's HTTP/1.1 server pipeline, then HTTPHandler), on a
// NIOAsyncTestingChannel: the handler's answers, made on other threads,
// come back to that channel's loop as they do on a server's.

import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import LiveModel
@testable import LiveServer
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOHTTP1

/// A response as the handler wrote it.
struct Answer {
    var head: HTTPResponseHead
    var body: [UInt8] = []
    var ended = false

    func header(_ name: String) -> String? { head.headers.first(name: name) }
    var closes: Bool { head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "close" } }
    var isStream: Bool { header("content-type")?.hasPrefix("text/event-stream") == true }
}

/// What passed between NIO's pipelining handler and HTTPHandler.
struct Traffic {
    /// Requests handed to HTTPHandler whole.
    var requestsEnded = 0
    /// Responses HTTPHandler ended.
    var responsesEnded = 0
    var answers: [Answer] = []
    var inactive = false
}

/// Sits just before HTTPHandler: counts the requests it is handed and
/// records what it answers.
final class Spy: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    let traffic = NIOLockedValueBox(Traffic())
    let changed = DispatchSemaphore(value: 0)

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) { traffic.withLockedValue { $0.requestsEnded += 1 } }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        var index = 0
        traffic.withLockedValue { traffic in
            switch part {
            case .head(let head):
                traffic.answers.append(Answer(head: head))
            case .body(.byteBuffer(let buffer)):
                if !traffic.answers.isEmpty { traffic.answers[traffic.answers.count - 1].body += buffer.readableBytesView }
            case .body(.fileRegion):
                break
            case .end:
                break
            }
            index = traffic.answers.count - 1
        }
        // Ending a response may hand HTTPHandler the next pipelined request
        // (and it may answer it) before this returns: the end is counted
        // after, so that a request is always counted before its answer.
        context.write(data, promise: promise)
        switch part {
        case .end:
            traffic.withLockedValue { traffic in
                if index >= 0 { traffic.answers[index].ended = true }
                traffic.responsesEnded += 1
            }
            changed.signal()
        case .body:
            changed.signal()
        case .head:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        traffic.withLockedValue { $0.inactive = true }
        changed.signal()
        context.fireChannelInactive()
    }
}

/// Whether nothing more will happen on the connection until it is given
/// more bytes: every request handed over whole is answered, a stream has
/// sent its first event whole, or the connection closed.
private func settled(_ traffic: Traffic) -> Bool {
    if traffic.inactive { return true }
    if let last = traffic.answers.last, last.isStream {
        return last.body.count >= 2 && last.body.suffix(2).elementsEqual("\n\n".utf8)
    }
    return traffic.responsesEnded >= traffic.requestsEnded
}

/// Objects an input made that must be gone by its end (each connection's
/// loop, channel and handler, and the server): a reference kept by a cycle
/// or by work that never ends is a leak.
final class Released: @unchecked Sendable {
    private let objects = NIOLockedValueBox<[(String, Weak)]>([])
    /// The previous input's references, kept until the next input: a weak
    /// reference reads nil as soon as its object's deinit begins (on
    /// another thread, it may still run), and until it ends the runtime's
    /// side table is referenced from the object alone, in a form the leak
    /// checker does not see.
    private let retired = NIOLockedValueBox<[(String, Weak)]>([])
    final class Weak: @unchecked Sendable {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    func watch(_ object: AnyObject, _ name: String) {
        objects.withLockedValue { $0.append((name, Weak(object))) }
    }

    /// Waits until every object watched is released (the last references
    /// go on other threads, just after the work that held them); fails
    /// after 10 s.
    func waitForAll() {
        let deadline = DispatchTime.now() + .seconds(10)
        while true {
            let alive = objects.withLockedValue { $0.filter { $0.1.object != nil }.map(\.0) }
            if alive.isEmpty { break }
            if DispatchTime.now() > deadline {
                fatalError("FUZZ DIVERGENCE (fuzz-http): never released (a leak): \(alive)")
            }
            usleep(20)
        }
        let done = objects.withLockedValue { objects in
            defer { objects.removeAll() }
            return objects
        }
        retired.withLockedValue { $0 = done }
    }
}

let released = Released()

/// Sends `bytes` on a new connection to `core`, in chunks of `chunk`
/// bytes, and returns what was answered once the connection settled; the
/// connection is then closed and its loop shut down.
func exchange(_ bytes: [UInt8], chunk: Int, core: ServerCore, what: @autoclosure () -> String) -> Traffic {
    let loop = NIOAsyncTestingEventLoop()
    let channel = NIOAsyncTestingChannel(loop: loop)
    let spy = Spy()
    released.watch(loop, "a connection's loop")
    released.watch(channel, "a connection's channel")
    released.watch(spy, "a connection's spy")
    do {
        try loop.submit {
            let handler = HTTPHandler(core: core)
            released.watch(handler, "a connection's HTTPHandler")
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
            try channel.pipeline.syncOperations.addHandler(spy)
            try channel.pipeline.syncOperations.addHandler(handler)
        }.wait()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 0)).wait()
    } catch {
        fatalError("FUZZ HARNESS: cannot set up a connection: \(error)")
    }
    var at = 0
    while at < bytes.count {
        let part = bytes[at..<min(bytes.count, at + max(1, chunk))]
        at += part.count
        if spy.traffic.withLockedValue({ $0.inactive }) { break }
        try? loop.submit {
            var buffer = channel.allocator.buffer(capacity: part.count)
            buffer.writeBytes(part)
            channel.pipeline.syncOperations.fireChannelRead(NIOAny(buffer))
            channel.pipeline.syncOperations.fireChannelReadComplete()
        }.wait()
    }
    // Every answer is made off the loop; wait for them (a real hang fails).
    let deadline = DispatchTime.now() + .seconds(20)
    while !settled(spy.traffic.withLockedValue({ $0 })) {
        if spy.changed.wait(timeout: deadline) == .timedOut {
            let traffic = spy.traffic.withLockedValue { $0 }
            fatalError("""
                FUZZ DIVERGENCE (fuzz-http): no answer in 20 s: \(traffic.requestsEnded) requests handed over, \
                \(traffic.responsesEnded) answered, on \(what())
                """)
        }
    }
    try? loop.submit { channel.close(promise: nil) }.wait()
    // What was made off the loop for a stream may still arrive: it finds
    // the channel closed. Then the loop goes.
    try? loop.syncShutdownGracefully()
    return spy.traffic.withLockedValue { $0 }
}
