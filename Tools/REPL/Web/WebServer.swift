// WebServer.swift — the inspector page's server: loopback only, the page
// and its script, a stream of events (server-sent events), and commands in.

import LiveModel
import LiveServer
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// Serves the inspector on 127.0.0.1: `GET /` (the page), `GET /app.js`,
/// `GET /events?token=…` (the session's events, as server-sent events),
/// `POST /command?token=…` (a REPL line, run as if typed) and
/// `POST /rows?token=…` (a JSON array of keys in; their rows out).
///
/// Who may use it: requests must name `127.0.0.1` or `localhost` with the
/// port as their host (a name that merely resolves here, DNS rebinding, is
/// refused); events and commands need the token in the address printed at
/// start (other users and processes of the machine do not know it), and a
/// command must come from the page's origin (another site open in the
/// browser cannot send one).
final class WebServer: Sendable {
    let port: Int
    /// The secret in the page's address.
    let token: String
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let accepting: NIOLockedValueBox<Bool>

    /// The page's address, token included.
    var address: String { "http://127.0.0.1:\(port)/?token=\(token)" }

    /// Binds 127.0.0.1:`port` (0 picks a free one); requests go to `hub`.
    static func start(port: Int, hub: WebHub) async throws -> WebServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var generator = SystemRandomNumberGenerator()
        let token = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        let accepting = NIOLockedValueBox(true)
        do {
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        try channel.pipeline.syncOperations.addHandler(WebHandler(hub: hub, token: token, accepting: accepting))
                    }
                }
                .bind(host: "127.0.0.1", port: port)
                .get()
            return WebServer(port: channel.localAddress?.port ?? port, token: token, group: group, channel: channel,
                             accepting: accepting)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private init(port: Int, token: String, group: MultiThreadedEventLoopGroup, channel: any Channel,
                 accepting: NIOLockedValueBox<Bool>) {
        self.port = port
        self.token = token
        self.group = group
        self.channel = channel
        self.accepting = accepting
    }

    /// Refuses further commands (the session's input has ended).
    func stopAccepting() { accepting.withLockedValue { $0 = false } }

    /// Stops listening and closes every connection (the event loop's).
    func stop() async {
        stopAccepting()
        try? await channel.close()
        try? await group.shutdownGracefully()
    }
}

/// One connection: whole requests in; a response, or an event stream that
/// then owns the connection.
final class WebHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let hub: WebHub
    private let token: String
    private let accepting: NIOLockedValueBox<Bool>
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var tooLarge = false
    /// Commands longer than this are refused.
    private static let maxBody = 1 << 20

    init(hub: WebHub, token: String, accepting: NIOLockedValueBox<Bool>) {
        self.hub = hub
        self.token = token
        self.accepting = accepting
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.removeAll()
            tooLarge = false
        case .body(var buffer):
            guard !tooLarge else { return }
            if body.count + buffer.readableBytes > Self.maxBody {
                tooLarge = true
                body.removeAll()
            } else {
                body += buffer.readBytes(length: buffer.readableBytes) ?? []
            }
        case .end:
            guard let head else { return }
            self.head = nil
            route(head, context: context)
        }
    }

    private func route(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let parts = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? "/"
        let query = parts.count > 1 ? String(parts[1]) : ""
        let port = context.channel.localAddress?.port ?? 0
        let hosts = ["127.0.0.1:\(port)", "localhost:\(port)"]
        guard let host = head.headers.first(name: "Host"), hosts.contains(host) else {
            return respond(context, .forbidden, "only http://127.0.0.1:\(port)/\n")
        }
        switch (head.method, path) {
        case (.GET, "/"): return respond(context, .ok, WebAssets.page, type: "text/html; charset=utf-8")
        case (.GET, "/app.js"): return respond(context, .ok, WebAssets.script, type: "text/javascript; charset=utf-8")
        case (.GET, "/events"), (.POST, "/command"), (.POST, "/rows"): break
        default: return respond(context, .notFound, "not found\n")
        }
        let given = query.split(separator: "&").first { $0.hasPrefix("token=") }?.dropFirst("token=".count) ?? ""
        guard Self.sameSecret(given.utf8, token.utf8) else {
            return respond(context, .forbidden, "the address printed at start, with its token, is needed\n")
        }
        guard head.method == .POST else { return openEvents(context) }
        guard let origin = head.headers.first(name: "Origin"), hosts.contains(where: { "http://" + $0 == origin }) else {
            return respond(context, .forbidden, "commands come from the inspector page only\n")
        }
        guard !tooLarge else { return respond(context, .payloadTooLarge, "a request is at most 1 MiB\n") }
        if path == "/rows" { return rows(context) }
        // One line of text: no line breaks or other control characters.
        guard let line = String(validating: body, as: UTF8.self),
              !line.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return respond(context, .badRequest, "one line of text only\n")
        }
        guard accepting.withLockedValue({ $0 }) else { return respond(context, .serviceUnavailable, "the session has ended\n") }
        let hub = hub
        Task { @MainActor in hub.command(line) }
        respond(context, .accepted, "")
    }

    /// Whether `given` is `secret`, in a time that depends on their lengths
    /// only, not on where they first differ.
    static func sameSecret(_ given: Substring.UTF8View, _ secret: String.UTF8View) -> Bool {
        guard given.count == secret.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(given, secret) { difference |= a ^ b }
        return difference == 0
    }

    /// Answers with the rows of the keys asked for, read on the main actor.
    private func rows(_ context: ChannelHandlerContext) {
        guard let asked = try? JSONValue(parsingUTF8: body[...]), case .array(let items) = asked,
              items.count <= 10_000 else {
            return respond(context, .badRequest, "a JSON array of at most 10000 keys\n")
        }
        let keys = items.compactMap(\.stringValue)
        let hub = hub
        let channel = context.channel
        Task { @MainActor in
            let rows = hub.rows(keys)
            Self.respond(channel, .ok, rows, type: "application/json")
        }
    }

    private func respond(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ text: String,
                         type: String = "text/plain; charset=utf-8") {
        Self.respond(context.channel, status, text, type: type)
    }

    /// Writes a whole response (from any thread).
    private static func respond(_ channel: any Channel, _ status: HTTPResponseStatus, _ text: String,
                                type: String = "text/plain; charset=utf-8") {
        var headers = HTTPHeaders(WebPage.headers(type: type))
        headers.add(name: "Content-Length", value: String(text.utf8.count))
        let head = HTTPResponseHead(version: .http1_1, status: status, headers: headers)
        channel.write(HTTPServerResponsePart.head(head), promise: nil)
        channel.write(HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(string: text))), promise: nil)
        channel.writeAndFlush(HTTPServerResponsePart.end(nil), promise: nil)
    }

    /// Answers with an event stream and hands the connection to the hub.
    private func openEvents(_ context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/event-stream")
        headers.add(name: "Cache-Control", value: "no-store")
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))),
                              promise: nil)
        let client = WebClient(channel: context.channel)
        let hub = hub
        Task { @MainActor in hub.add(client) }
    }
}

/// An open event stream to one page.
final class WebClient: Sendable {
    let channel: any Channel
    /// Bytes handed to the connection and not yet written.
    private let pending = NIOLockedValueBox(0)
    /// Past this many bytes waiting (beyond the event being written, which
    /// always goes whole: the sections of a million rows are one event),
    /// the page is disconnected.
    static let backlogLimit = 64 << 20

    init(channel: any Channel) { self.channel = channel }

    /// Sends one event (`data` is one line of JSON). A page that does not
    /// keep up is disconnected: its browser connects again and starts from
    /// the sections as they are.
    func send(event: String, data: String) {
        let text = "event: \(event)\ndata: \(data)\n\n"
        let size = text.utf8.count
        let behind = pending.withLockedValue { waiting in
            guard waiting == 0 || waiting + size <= Self.backlogLimit else { return true }
            waiting += size
            return false
        }
        guard !behind else { return channel.close(promise: nil) }
        let pending = pending
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(string: text))))
            .whenComplete { _ in pending.withLockedValue { $0 -= size } }
    }
}
