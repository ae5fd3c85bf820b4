// Listener.swift — one open stream: where it listens, its faults, and the
// bytes waiting to reach its connection.

import LiveModel
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// An open stream. Its listening state is guarded by the server's lock; its
/// outgoing bytes by its own, so that writers never wait for the network:
/// events are appended to a buffer that one task on the connection's event
/// loop flushes. When its unsent backlog (here and in the connection) would
/// pass ``limit`` bytes the listener is disconnected; a single event always
/// goes out, however large.
final class Listener: @unchecked Sendable {
    let id: Int
    let channel: any Channel
    let path: Path
    let query: Query?
    let export: Bool
    let token: String?
    let limit: Int

    // Guarded by the server's lock.
    var window: [Key: DataNode] = [:]
    var faults: [StreamFault] = []
    var eventsSent = 0

    // Guarded by `outgoing`.
    private struct Outgoing {
        var pending: [UInt8] = []
        var flushScheduled = false
        var closing = false
        var lastDeadline = NIODeadline.uptimeNanoseconds(0)
    }
    private let outgoing = NIOLockedValueBox(Outgoing())

    init(id: Int, channel: any Channel, path: Path, query: Query?, export: Bool, token: String?, limit: Int) {
        self.id = id
        self.channel = channel
        self.path = path
        self.query = query
        self.export = export
        self.token = token
        self.limit = limit
    }

    var isSilenced: Bool { faults.contains(.silence) }

    /// Sends `event`, applying the listener's faults. Call under the server's lock.
    func send(_ event: ServerSentEvent) {
        if isSilenced { return }
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
                enqueue(ServerSentEvent.malformed.bytes)
            default:
                break
            }
        }
        eventsSent += 1
        enqueue(event.bytes)
    }

    /// Sends a control event (keep-alive, cancel, auth_revoked), unless silenced.
    func sendControl(_ event: ServerSentEvent, thenClose: Bool = false) {
        if !isSilenced { enqueue(event.bytes) }
        if thenClose { close() }
    }

    /// The delay every event is held back, if any.
    private var delay: Int64? {
        for case .delay(let milliseconds) in faults { return Int64(milliseconds) * 1_000_000 }
        return nil
    }

    private func enqueue(_ bytes: [UInt8]) {
        if let delay {
            // Delayed events keep their order: deadlines strictly increase.
            let deadline = outgoing.withLockedValue { state -> NIODeadline in
                let wanted = NIODeadline.now() + .nanoseconds(delay)
                state.lastDeadline = max(wanted, state.lastDeadline + .nanoseconds(1))
                return state.lastDeadline
            }
            let channel = self.channel
            channel.eventLoop.scheduleTask(deadline: deadline) {
                var buffer = channel.allocator.buffer(capacity: bytes.count)
                buffer.writeBytes(bytes)
                channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
            }
            return
        }
        let (schedule, overflow) = outgoing.withLockedValue { state -> (Bool, Bool) in
            if state.closing { return (false, false) }
            // One event always fits; a backlog past the limit does not.
            if !state.pending.isEmpty && state.pending.count + bytes.count > limit { return (false, true) }
            state.pending.append(contentsOf: bytes)
            if state.flushScheduled { return (false, false) }
            state.flushScheduled = true
            return (true, false)
        }
        if overflow {
            close()
        } else if schedule {
            channel.eventLoop.execute { self.flush() }
        }
    }

    /// Writes what is pending (on the event loop).
    private func flush() {
        let (bytes, closing) = outgoing.withLockedValue { state -> ([UInt8], Bool) in
            state.flushScheduled = false
            let bytes = state.pending
            state.pending.removeAll(keepingCapacity: true)
            return (bytes, state.closing)
        }
        if !bytes.isEmpty {
            // What the connection has not sent yet, plus this, past the limit:
            // the reader fell behind. Let it go; it can reconnect and resync.
            let unsent = (try? channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
            if unsent > 0 && unsent + bytes.count > limit {
                channel.close(promise: nil)
                return
            }
            var buffer = channel.allocator.buffer(capacity: bytes.count)
            buffer.writeBytes(bytes)
            channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
        }
        if closing { channel.close(promise: nil) }
    }

    /// Closes the stream once what is pending is written.
    func close() {
        let schedule = outgoing.withLockedValue { state -> Bool in
            if state.closing { return false }
            state.closing = true
            if state.flushScheduled { return false }
            state.flushScheduled = true
            return true
        }
        if schedule { channel.eventLoop.execute { self.flush() } }
    }
}
