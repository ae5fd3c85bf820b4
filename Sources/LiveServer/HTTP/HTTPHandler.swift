// HTTPHandler.swift — one HTTP connection: REST requests in, responses
// out, or a stream of events.

import Dispatch
import LiveModel
import NIOCore
import NIOHTTP1

/// Reads whole requests (bodies up to the configured limit) and hands them
/// to the core; for `Accept: text/event-stream` GETs it opens a stream,
/// which then owns the connection.
///
/// A request's head is judged before its body is read: the ``AccessPolicy``
/// (Host and Origin), the token, the path and the declared length. A
/// request refused there is answered at once with `Connection: close`, and
/// its body is never read or kept.
final class HTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let core: ServerCore
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var tooLarge = false
    /// The CORS headers of the request being read.
    private var cors: [(String, String)] = []
    private var streamID: Int?
    /// How many reads are being handled (a response can deliver the next
    /// pipelined request inside its own write).
    private var reading = 0
    /// Whether responses were written and not yet flushed: responses to the
    /// requests of one read go out together when the read completes, so
    /// that pipelined requests are answered with one write, not one each.
    private var unflushed = false
    /// Whether a response said it closes the connection: requests after it
    /// (pipelined behind it) are not handled, nor the rest of its body.
    private var closing = false
    /// Closes the connection when its request has not arrived in time.
    private var timeout: Scheduled<Void>?

    init(core: ServerCore) { self.core = core }

    func channelActive(context: ChannelHandlerContext) {
        startWaiting(context)
        context.fireChannelActive()
    }

    /// The connection waits for its next request, for at most the
    /// configured time.
    private func startWaiting(_ context: ChannelHandlerContext) {
        timeout?.cancel()
        core.connections.setWaiting(context.channel, true)
        let channel = context.channel
        timeout = context.eventLoop.scheduleTask(in: TimeAmount(clamping: core.configuration.requestTimeout)) { channel.close(promise: nil) }
    }

    /// The connection's request has arrived: it no longer waits.
    private func stopWaiting(_ context: ChannelHandlerContext) {
        timeout?.cancel()
        timeout = nil
        core.connections.setWaiting(context.channel, false)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if unflushed {
            unflushed = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        reading += 1
        defer { reading -= 1 }
        switch unwrapInboundIn(data) {
        case .head(let head):
            body.removeAll(keepingCapacity: false)
            tooLarge = false
            if let (answer, close) = earlyAnswer(to: head, context: context) {
                respond(answer, to: head, context: context, close: close || !head.isKeepAlive)
                return
            }
            self.head = head
            // Room for the whole body and the padding the C core reads it
            // with, so that it is never copied as it grows.
            if let length = head.headers.first(name: "content-length").flatMap({ Int($0) }), length > 0 {
                body.reserveCapacity(min(length, core.configuration.maxRequestBytes) + Snapshot.checkPadding)
            }
        case .body(var buffer):
            guard !tooLarge, head != nil else { return }
            if body.count + buffer.readableBytes > core.configuration.maxRequestBytes {
                tooLarge = true
                body.removeAll(keepingCapacity: false)
            } else {
                body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
            }
        case .end:
            guard let head else { return }
            self.head = nil
            stopWaiting(context)
            dispatch(head, context: context)
        }
    }

    /// The answer to a request decided from its head alone — a refusal
    /// (which closes the connection, its body unread) or a CORS preflight —
    /// or nil. Sets ``cors`` for the request's answer.
    private func earlyAnswer(to head: HTTPRequestHead, context: ChannelHandlerContext) -> (RESTResponse, close: Bool)? {
        if let refusal = refusal(of: head, context: context) { return (refusal, true) }
        if head.method == .OPTIONS && head.headers.contains(name: "access-control-request-method") {
            return (RESTResponse(status: .noContent, headers: AccessPolicy.preflightHeaders(cors: cors)), false)
        }
        return nil
    }

    /// The answer to a request refused from its head, or nil.
    private func refusal(of head: HTTPRequestHead, context: ChannelHandlerContext) -> RESTResponse? {
        cors = []
        switch core.access.check(head, port: context.channel.localAddress?.port ?? 0) {
        case .refused(let reason):
            return .error(StoreError(status: 403, message: reason))
        case .allowed(let cors):
            self.cors = cors
        }
        if head.method == .OPTIONS && head.headers.contains(name: "access-control-request-method") { return nil }
        if core.configuration.servesConsole && Console.serves(uri: head.uri) { return nil }
        let target: RequestTarget
        do {
            target = try RequestTarget(uri: head.uri)
        } catch {
            return .error(error)
        }
        let request = RESTRequest(method: head.method.rawValue, uri: head.uri, headers: head.headers, body: [])
        guard core.mayUse(request.token(target.parameters)) else { return .error(ServerCore.permissionDenied) }
        let limit = core.configuration.maxRequestBytes
        if let length = head.headers.first(name: "content-length").flatMap({ Int($0) }), length > limit {
            return .error(StoreError(status: 413, message: "\(StoreError.writeTooLarge.message) (at most \(limit) bytes)"))
        }
        return nil
    }

    private func dispatch(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        if tooLarge {
            let limit = core.configuration.maxRequestBytes
            let error = StoreError(status: 413, message: "\(StoreError.writeTooLarge.message) (at most \(limit) bytes)")
            respond(.error(error), to: head, context: context, close: true)
            return
        }
        if core.configuration.servesConsole, let page = Console.response(method: head.method, uri: head.uri) {
            body = []
            respond(page, to: head, context: context, close: !head.isKeepAlive)
            return
        }
        body.append(contentsOf: repeatElement(0, count: Snapshot.checkPadding))
        let request = RESTRequest(method: head.method.rawValue, uri: head.uri, headers: head.headers, body: body,
                                  padding: Snapshot.checkPadding)
        body = []
        guard head.method == .GET, request.wantsStream, streamID == nil else {
            answerOffLoop(request, to: head, context: context)
            return
        }
        switch core.openStream(request, on: context.channel) {
        case .started(let listener):
            streamID = listener.id
            var headers = HTTPHeaders(cors)
            headers.add(name: "Content-Type", value: "text/event-stream")
            headers.add(name: "Cache-Control", value: "no-cache")
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))),
                                  promise: nil)
        case .redirect(let port):
            let host = head.headers.first(name: "host").map { $0.split(separator: ":").first.map(String.init) ?? $0 }
                ?? core.configuration.host
            var response = RESTResponse(status: .temporaryRedirect)
            response.headers.append(("Location", "http://\(host):\(port)\(head.uri)"))
            respond(response, to: head, context: context, close: true)
        case .refused(let response):
            respond(response, to: head, context: context, close: !head.isKeepAlive)
        }
    }

    /// Answers a request on another thread, so that parsing a large body
    /// or rendering a large value holds up no other connection of this
    /// event loop; the response is
    /// written back on the loop, and a body larger than one chunk is made
    /// a chunk at a time on other threads too. (The pipeline hands over one
    /// request at a time, so responses keep their order.)
    private func answerOffLoop(_ request: RESTRequest, to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let core = self.core, channel = context.channel
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        DispatchQueue.global(qos: .userInitiated).async {
            let response = Self.firstChunk(of: core.handle(request), head)
            // A connection gone meanwhile (the server may be shutting down
            // its event loops) is not written to.
            guard channel.isActive else { return }
            bound.eventLoop.execute {
                let (handler, context) = bound.value
                handler.respond(response, to: head, context: context, close: !head.isKeepAlive)
            }
        }
    }

    /// The response with its body's first chunk made: all of it when it
    /// fits (``RESTResponse/text`` is then nil), and for a HEAD only its
    /// length.
    private static func firstChunk(of response: RESTResponse, _ head: HTTPRequestHead) -> RESTResponse {
        guard var text = response.text else { return response }
        var made = response
        made.text = nil
        if head.method == .HEAD {
            made.textLength = text.drainCount()
            return made
        }
        // (Grown as written: most reads are small.)
        if text.next(into: &made.body, size: JSONTextChunks.chunkBytes) { made.text = text }
        return made
    }

    /// Writes a response; one whose ``RESTResponse/text`` remains after its
    /// body is sent chunked in HTTP/1.1 and up to the connection's close in
    /// HTTP/1.0.
    private func respond(_ response: RESTResponse, to request: HTTPRequestHead, context: ChannelHandlerContext, close: Bool) {
        let rest = response.text
        var close = close
        if rest != nil && request.version.major == 1 && request.version.minor == 0 { close = true }
        // Nothing on this connection is read after a response that closes it.
        if close { closing = true }
        var headers = HTTPHeaders(cors + response.headers)
        if rest == nil { headers.add(name: "Content-Length", value: String(response.textLength ?? response.body.count)) }
        if close { headers.add(name: "Connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: response.status, headers: headers))),
                      promise: nil)
        if !response.body.isEmpty && request.method != .HEAD {
            var buffer = context.channel.allocator.buffer(capacity: response.body.count)
            buffer.writeBytes(response.body)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        if let rest {
            unflushed = false
            context.flush()
            writeRest(rest, context: context, close: close)
            return
        }
        if close {
            unflushed = false
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
            return
        }
        context.write(wrapOutboundOut(.end(nil)), promise: nil)
        startWaiting(context)
        unflushed = true
        // Outside a read (an answer made off the loop), nothing else will flush it.
        if reading == 0 {
            unflushed = false
            context.flush()
        }
    }

    /// Makes the next chunk of a large body on another thread, then writes
    /// it on the loop; the one after is made once the connection took it.
    /// The response ends after the last. A connection that closes
    /// meanwhile stops it.
    private func writeRest(_ text: JSONTextChunks, context: ChannelHandlerContext, close: Bool) {
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        text.makeNextChunk(for: context.channel) { buffer, rest in
            let (handler, context) = bound.value
            let written = context.writeAndFlush(handler.wrapOutboundOut(.body(.byteBuffer(buffer))))
            if let rest {
                written.whenSuccess {
                    let (handler, context) = bound.value
                    handler.writeRest(rest, context: context, close: close)
                }
                return
            }
            let channel = context.channel
            let ended = context.writeAndFlush(handler.wrapOutboundOut(.end(nil)))
            if close { ended.whenComplete { _ in channel.close(promise: nil) } } else { handler.startWaiting(context) }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        timeout?.cancel()
        core.connections.remove(context.channel)
        if let streamID { core.closeStream(streamID) }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
