// HTTPHandler.swift — one HTTP connection: REST requests in, responses
// out, or a stream of events.

import Dispatch
import NIOCore
import NIOHTTP1

/// Reads whole requests (bodies up to the configured limit) and hands them
/// to the core; for `Accept: text/event-stream` GETs it opens a stream,
/// which then owns the connection.
final class HTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let core: ServerCore
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var tooLarge = false
    private var streamID: Int?
    /// How many reads are being handled (a response can deliver the next
    /// pipelined request inside its own write).
    private var reading = 0
    /// Whether responses were written and not yet flushed: responses to the
    /// requests of one read go out together when the read completes, so
    /// that pipelined requests are answered with one write, not one each.
    private var unflushed = false

    init(core: ServerCore) { self.core = core }

    func channelReadComplete(context: ChannelHandlerContext) {
        if unflushed {
            unflushed = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        reading += 1
        defer { reading -= 1 }
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.removeAll(keepingCapacity: false)
            tooLarge = false
        case .body(var buffer):
            guard !tooLarge else { return }
            if body.count + buffer.readableBytes > core.configuration.maxRequestBytes {
                tooLarge = true
                body.removeAll(keepingCapacity: false)
            } else {
                body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
            }
        case .end:
            guard let head else { return }
            self.head = nil
            dispatch(head, context: context)
        }
    }

    private func dispatch(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        if tooLarge {
            let limit = core.configuration.maxRequestBytes
            let error = StoreError(status: 413, message: "\(StoreError.writeTooLarge.message) (at most \(limit) bytes)")
            respond(.error(error), to: head, context: context, close: true)
            return
        }
        let request = RESTRequest(method: head.method.rawValue, uri: head.uri, headers: head.headers, body: body)
        body = []
        guard head.method == .GET, request.wantsStream, streamID == nil else {
            if head.method == .GET || head.method == .HEAD {
                answerOffLoop(request, to: head, context: context)
            } else {
                respond(core.handle(request), to: head, context: context, close: !head.isKeepAlive)
            }
            return
        }
        switch core.openStream(request, on: context.channel) {
        case .started(let listener):
            streamID = listener.id
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "text/event-stream")
            headers.add(name: "Cache-Control", value: "no-cache")
            headers.add(name: "Access-Control-Allow-Origin", value: "*")
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

    /// Answers a read on another thread, so that rendering a large value
    /// holds up no other connection of this event loop; the response is
    /// written back on the loop. (The pipeline hands over one request at a
    /// time, so responses keep their order.)
    private func answerOffLoop(_ request: RESTRequest, to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let core = self.core
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        DispatchQueue.global(qos: .userInitiated).async {
            let response = Self.measuredForHEAD(core.handle(request), head)
            bound.eventLoop.execute {
                let (handler, context) = bound.value
                handler.respond(response, to: head, context: context, close: !head.isKeepAlive)
            }
        }
    }

    /// A HEAD's response to a large read: the text is measured, not sent.
    private static func measuredForHEAD(_ response: RESTResponse, _ head: HTTPRequestHead) -> RESTResponse {
        guard head.method == .HEAD, var text = response.text else { return response }
        var measured = response
        measured.text = nil
        measured.textLength = text.drainCount()
        return measured
    }

    private func respond(_ response: RESTResponse, to request: HTTPRequestHead, context: ChannelHandlerContext, close: Bool) {
        var response = response
        var close = close
        var rest: JSONTextChunks?
        if var text = response.text {
            // A body that fits one chunk goes out as any other; a larger one
            // is written as the connection takes it (chunked in HTTP/1.1;
            // in HTTP/1.0, up to the connection's close).
            response.body.reserveCapacity(Self.chunkBytes + Self.chunkBytes / 4)
            if text.next(into: &response.body, size: Self.chunkBytes) {
                rest = text
                if request.version.major < 1 || (request.version.major == 1 && request.version.minor == 0) { close = true }
            }
        }
        var headers = HTTPHeaders(response.headers)
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
        unflushed = true
        // Outside a read (an answer made off the loop), nothing else will flush it.
        if reading == 0 {
            unflushed = false
            context.flush()
        }
    }

    /// The size of the chunks a large body is written in.
    static let chunkBytes = 1 << 18

    /// Writes the rest of a large body a chunk at a time, each once the
    /// connection took the one before, then ends the response. A connection
    /// that closes meanwhile stops it.
    private func writeRest(_ text: JSONTextChunks, context: ChannelHandlerContext, close: Bool) {
        var text = text
        var chunk: [UInt8] = []
        chunk.reserveCapacity(Self.chunkBytes + Self.chunkBytes / 4)
        let more = text.next(into: &chunk, size: Self.chunkBytes)
        var buffer = context.channel.allocator.buffer(capacity: chunk.count)
        buffer.writeBytes(chunk)
        let written = context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))))
        guard !more else {
            let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
            let text = text
            // The next chunk is a task of its own: a write the socket took at
            // once completes inside `whenSuccess`, and the chunks must not
            // pile up on the stack.
            written.whenSuccess {
                bound.eventLoop.execute {
                    let (handler, context) = bound.value
                    handler.writeRest(text, context: context, close: close)
                }
            }
            return
        }
        let channel = context.channel
        let ended = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if close { ended.whenComplete { _ in channel.close(promise: nil) } }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let streamID { core.closeStream(streamID) }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
