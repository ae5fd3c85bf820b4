// Listener.swift — one open stream: where it listens, its faults, and the
// bytes waiting to reach its connection.

import Dispatch
import LiveModel
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// An open stream. Its listening state is guarded by the server's lock; its
/// outgoing bytes by its own, so that writers never wait for the network:
/// events are appended to a buffer that one task on the connection's event
/// loop flushes. When its unsent backlog (here and in the connection) would
/// pass ``limit`` bytes the listener is disconnected; a single event always
/// goes out, however large, and while one larger than the limit is on its
/// way (a large location's first `put`), its bytes do not count as backlog.
///
/// A stream whose first `put` is prepared after it is registered
/// (``startPreparing()``) holds the events published meanwhile and sends
/// them after that `put` (``deliverFirst(_:)``); control events such as
/// keep-alives go out at once, so the connection stays alive while a large
/// first event is prepared.
final class Listener: @unchecked Sendable {
    let id: Int
    let channel: any Channel
    let path: DatabasePath
    /// The query the stream asked for; nil for a plain location.
    let query: DatabaseQuery?
    let export: Bool
    let token: String?
    let limit: Int

    // Guarded by the server's lock.
    /// The window of a query with a limit or bounds (see
    /// ``DatabaseQuery/filters``), once its first `put` was prepared; shared
    /// by the streams with the same query at the same location (see
    /// ``ListenerRegistry``).
    var window: ListenerWindow?
    /// Whether the first `put` is being prepared (see ``startPreparing()``).
    private(set) var isPreparing = false
    /// Whether a write touched a query stream's location while its first
    /// window was prepared from an older value (it is prepared again).
    var touchedWhilePreparing = false
    var faults: [StreamFault] = []
    var eventsSent = 0
    /// Whether the stream lost a data event to ``StreamFault/silence``: it
    /// then stays silent, as a dead connection does, since what it would
    /// send next no longer follows from what it sent.
    private var lostEvent = false

    // Guarded by `outgoing`.
    private struct Outgoing {
        var pending: [UInt8] = []
        var flushScheduled = false
        var closing = false
        /// Whether the response ends properly (its last chunk written) before
        /// the connection closes, rather than being cut off.
        var ending = false
        var lastDeadline = NIODeadline.uptimeNanoseconds(0)
        /// Events published while the first `put` is prepared, in order
        /// (nil once it was delivered, or when it was sent at once).
        var held: [UInt8]?
        /// Bytes of writes larger than the limit not yet written out.
        var oversizedInFlight = 0
        /// Bytes of an event larger than the limit at the start of `pending`.
        var pendingOversized = 0
        /// The first `put`, written a chunk at a time as the connection takes
        /// it; `pending` goes out after it.
        var first: JSONTextChunks?
        /// Whether a chunk of the first `put` is on its way.
        var firstInFlight = false
    }
    private let outgoing = NIOLockedValueBox(Outgoing())

    init(id: Int, channel: any Channel, path: DatabasePath, query: DatabaseQuery?, export: Bool, token: String?,
         limit: Int) {
        self.id = id
        self.channel = channel
        self.path = path
        self.query = query
        self.export = export
        self.token = token
        self.limit = limit
    }

    var isSilenced: Bool { lostEvent || faults.contains(.silence) }

    /// From now until ``deliverFirst(_:)``, events are held back: the first
    /// `put` is being prepared. Only for a listener without faults (faults
    /// count events from the first `put` on). Call under the server's lock.
    func startPreparing() {
        precondition(faults.isEmpty, "a listener with faults sends its first put at once")
        outgoing.withLockedValue { $0.held = [] }
        eventsSent += 1
        isPreparing = true
    }

    /// Sends the prepared first `put` (its framed text, written as the
    /// connection takes it), then what was held back meanwhile. Call under
    /// the server's lock.
    func deliverFirst(_ event: JSONTextChunks) {
        isPreparing = false
        touchedWhilePreparing = false
        let schedule = outgoing.withLockedValue { state -> Bool in
            guard let held = state.held, !state.closing else { return false }
            state.held = nil
            var first = event
            first.prepend(state.pending)  // control events sent meanwhile
            state.first = first
            state.pending = held
            state.pendingOversized = 0
            if state.flushScheduled { return false }
            state.flushScheduled = true
            return true
        }
        if schedule { scheduleFlush() }
    }

    /// Sends `event`, applying the listener's faults. Call under the server's lock.
    func send(_ event: FramedEvent) {
        if isSilenced {
            lostEvent = true
            return
        }
        for fault in faults {
            switch fault {
            case .dropAfter(let count) where eventsSent >= count:
                close()
                return
            case .dropMidEvent(let count) where eventsSent == count:
                let bytes = event.bytes
                enqueue(Array(bytes.prefix(max(1, bytes.count / 2))))
                close()
                return
            case .malformedEvent(let count) where eventsSent == count:
                enqueue(FramedEvent.malformed.bytes)
            default:
                break
            }
        }
        eventsSent += 1
        enqueue(event.bytes)
    }

    /// Sends a control event (keep-alive, cancel, auth_revoked), unless silenced.
    /// With `thenClose`, the response then ends properly and the connection
    /// closes, as the server does when it cancels a stream.
    func sendControl(_ event: FramedEvent, thenClose: Bool = false) {
        if !isSilenced { enqueue(event.bytes, control: true) }
        if thenClose { close(ending: true) }
    }

    /// The delay every event is held back, if any.
    private var delay: Int64? {
        for case .delay(let milliseconds) in faults { return Int64(milliseconds) * 1_000_000 }
        return nil
    }

    /// Queues bytes for the connection. Data events wait while the first
    /// `put` is prepared; control events (`control`) never wait.
    private func enqueue(_ bytes: [UInt8], control: Bool = false) {
        if let delay {
            // Delayed events keep their order: deadlines strictly increase.
            let deadline = outgoing.withLockedValue { state -> NIODeadline in
                let wanted = NIODeadline.now() + .nanoseconds(delay)
                state.lastDeadline = max(wanted, state.lastDeadline + .nanoseconds(1))
                return state.lastDeadline
            }
            // Queued at their deadline as any other event: never inside a
            // first put on its way, never ahead of one being prepared.
            channel.eventLoop.scheduleTask(deadline: deadline) { self.append(bytes, control: control) }
            return
        }
        append(bytes, control: control)
    }

    /// Queues bytes for the connection now (see ``enqueue(_:control:)``).
    private func append(_ bytes: [UInt8], control: Bool) {
        let (schedule, overflow) = outgoing.withLockedValue { state -> (Bool, Bool) in
            if state.closing { return (false, false) }
            if !control, let held = state.held {
                // Held behind the first put: past the limit, the reader is
                // as far behind as any other.
                if held.count + bytes.count > limit { return (false, true) }
                state.held!.append(contentsOf: bytes)
                return (false, false)
            }
            // One event always fits; a backlog past the limit does not (a
            // large event waiting to go out is no backlog).
            let backlog = state.pending.count - state.pendingOversized
            if !state.pending.isEmpty && backlog + bytes.count > limit { return (false, true) }
            if state.pending.isEmpty && bytes.count > limit { state.pendingOversized = bytes.count }
            state.pending.appendSharing(bytes)
            if state.flushScheduled { return (false, false) }
            state.flushScheduled = true
            return (true, false)
        }
        if overflow {
            close()
        } else if schedule {
            scheduleFlush()
        }
    }

    /// Writes what is pending (on the event loop): the next chunk of the
    /// first `put` while it lasts, then the events after it.
    private func flush() {
        enum Next { case wait, first(JSONTextChunks), pending([UInt8], closing: Bool, ending: Bool, oversized: Int) }
        let next = outgoing.withLockedValue { state -> Next in
            state.flushScheduled = false
            if state.closing && !state.ending && (state.first != nil || state.firstInFlight) {
                // Cut off in the middle of the first put.
                state.first = nil
                return .pending([], closing: true, ending: false, oversized: 0)
            }
            if state.firstInFlight { return .wait }  // its completion flushes again
            if let first = state.first {
                state.first = nil
                state.firstInFlight = true
                return .first(first)
            }
            let bytes = state.pending
            state.pending = []
            state.pendingOversized = 0
            return .pending(bytes, closing: state.closing, ending: state.ending, oversized: state.oversizedInFlight)
        }
        let (bytes, closing, ending, oversized): ([UInt8], Bool, Bool, Int)
        switch next {
        case .wait:
            return
        case .first(let first):
            return writeFirst(first)
        case .pending(let b, let c, let e, let o):
            (bytes, closing, ending, oversized) = (b, c, e, o)
        }
        if !bytes.isEmpty {
            // What the connection has not sent yet, plus this, past the limit:
            // the reader fell behind. Let it go; it can reconnect and resync.
            // A large event on its way is not the reader falling behind.
            let unsent = (try? channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
            let backlog = max(0, unsent - oversized)
            if backlog > 0 && backlog + bytes.count > limit {
                channel.close(promise: nil)
                return
            }
            var buffer = channel.allocator.buffer(capacity: bytes.count)
            buffer.writeBytes(bytes)
            if bytes.count > limit {
                let count = bytes.count
                outgoing.withLockedValue { $0.oversizedInFlight += count }
                let written = channel.eventLoop.makePromise(of: Void.self)
                written.futureResult.whenComplete { _ in
                    self.outgoing.withLockedValue { $0.oversizedInFlight -= count }
                }
                channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: written)
            } else {
                channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
            }
        }
        if closing && ending {
            let channel = self.channel
            channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in channel.close(promise: nil) }
        } else if closing {
            channel.close(promise: nil)
        }
    }

    /// Writes the next chunk of the first `put`, made off the event loop;
    /// once the connection took it, flushes again (the next chunk, or what
    /// waits after the put). A write that fails, or a stream cut off
    /// meanwhile, ends it: nothing follows a put cut short.
    private func writeFirst(_ first: JSONTextChunks) {
        let channel = self.channel
        first.makeNextChunk(for: channel) { buffer, rest in
            channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer))).whenComplete { result in
                let schedule = self.outgoing.withLockedValue { state -> Bool in
                    state.firstInFlight = false
                    let failed = if case .failure = result { true } else { false }
                    if failed || (state.closing && !state.ending) {
                        state.closing = true
                        state.ending = false
                        state.pending = []
                    } else {
                        state.first = rest
                    }
                    if state.flushScheduled { return false }
                    state.flushScheduled = true
                    return true
                }
                // A task of its own: the completion may run inside the write.
                if schedule { self.scheduleFlush() }
            }
        }
    }

    /// Closes the stream once what is pending is written: cut off (as a
    /// dropped connection or a reader too far behind), or with `ending`
    /// after the response's last chunk.
    func close(ending: Bool = false) {
        let schedule = outgoing.withLockedValue { state -> Bool in
            if state.closing { return false }
            state.closing = true
            state.ending = ending
            if state.flushScheduled { return false }
            state.flushScheduled = true
            return true
        }
        if schedule { scheduleFlush() }
    }

    /// Flushes on the connection's event loop, unless the connection is
    /// gone (the server may be shutting its event loops down).
    private func scheduleFlush() {
        guard channel.isActive else { return }
        channel.eventLoop.execute { self.flush() }
    }
}

extension [UInt8] {
    /// Appends `bytes`; when this is empty, shares their storage instead of
    /// copying them (a large first `put` is not copied on its way out).
    fileprivate mutating func appendSharing(_ bytes: [UInt8]) {
        if isEmpty { self = bytes } else { append(contentsOf: bytes) }
    }
}
