// WebServer.swift — the inspector page's server: loopback only, the page
// and its script, a stream of events (server-sent events), and commands in.

import NIOCore
import NIOHTTP1
import NIOPosix

/// Serves the inspector on 127.0.0.1: `GET /` (the page), `GET /app.js`,
/// `GET /events` (the session's events, as server-sent events) and
/// `POST /command` (a REPL line, run as if typed).
final class WebServer: Sendable {
    let port: Int
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    /// Binds 127.0.0.1:`port` (0 picks a free one); requests go to `hub`.
    static func start(port: Int, hub: WebHub) async throws -> WebServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        try channel.pipeline.syncOperations.addHandler(WebHandler(hub: hub))
                    }
                }
                .bind(host: "127.0.0.1", port: port)
                .get()
            return WebServer(port: channel.localAddress?.port ?? port, group: group, channel: channel)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private init(port: Int, group: MultiThreadedEventLoopGroup, channel: any Channel) {
        self.port = port
        self.group = group
        self.channel = channel
    }

    /// Closes every connection and stops listening.
    func stop() async {
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
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    /// Commands longer than this are refused.
    private static let maxBody = 1 << 20

    init(hub: WebHub) { self.hub = hub }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.removeAll()
        case .body(var buffer):
            if body.count + buffer.readableBytes <= Self.maxBody {
                body += buffer.readBytes(length: buffer.readableBytes) ?? []
            }
        case .end:
            guard let head else { return }
            self.head = nil
            route(head, body, context: context)
        }
    }

    private func route(_ head: HTTPRequestHead, _ body: [UInt8], context: ChannelHandlerContext) {
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        // Only this page, reached as loopback: a name that resolves here
        // (DNS rebinding) or a page of another origin gets nothing.
        let port = context.channel.localAddress?.port ?? 0
        let origins = ["127.0.0.1:\(port)", "localhost:\(port)"]
        guard let host = head.headers.first(name: "Host"), origins.contains(host) else {
            return respond(context, .forbidden, "text/plain", "only http://127.0.0.1:\(port)/\n")
        }
        if head.method == .POST, head.headers.first(name: "Origin").map({ origin in
            !origins.contains { "http://" + $0 == origin }
        }) ?? true {
            return respond(context, .forbidden, "text/plain", "commands come from the inspector page only\n")
        }
        switch (head.method, path) {
        case (.GET, "/"): respond(context, .ok, "text/html; charset=utf-8", WebAssets.page)
        case (.GET, "/app.js"): respond(context, .ok, "text/javascript; charset=utf-8", WebAssets.script)
        case (.GET, "/events"): openEvents(context)
        case (.POST, "/command"):
            let line = String(decoding: body, as: UTF8.self)
            guard !line.contains("\n") else { return respond(context, .badRequest, "text/plain", "one line only\n") }
            let hub = hub
            Task { @MainActor in hub.command(line) }
            respond(context, .accepted, "text/plain", "")
        default: respond(context, .notFound, "text/plain", "not found\n")
        }
    }

    private func respond(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ type: String, _ text: String) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(text.utf8.count))
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Content-Security-Policy", value: "default-src 'self'; style-src 'self' 'unsafe-inline'")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: text)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
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

    init(channel: any Channel) { self.channel = channel }

    /// Sends one event (`data` is one line of JSON).
    func send(event: String, data: String) {
        let text = "event: \(event)\ndata: \(data)\n\n"
        let channel = channel
        channel.eventLoop.execute {
            let buffer = channel.allocator.buffer(string: text)
            channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
        }
    }
}
