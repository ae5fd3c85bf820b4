// ChunkWriting.swift — the next chunk of a large text, made off the event
// loop and handed back on it, ready to write.

import Dispatch
import NIOCore

extension JSONTextChunks {
    /// The size of the chunks a large read or a stream's first `put` is
    /// written in.
    static let chunkBytes = 1 << 18

    /// Makes the next chunk on another thread, so that a large text holds
    /// up no connection of `channel`'s event loop, then calls `write` on
    /// that loop with the chunk in a buffer of `channel`'s allocator and the
    /// text still to come (nil after the last chunk). Nothing is called
    /// when the channel is no longer active meanwhile (the server may be
    /// shutting its event loops down).
    func makeNextChunk(for channel: any Channel,
                       then write: @escaping @Sendable (ByteBuffer, JSONTextChunks?) -> Void) {
        DispatchQueue.global(qos: .userInitiated).async {
            var text = self
            var chunk: [UInt8] = []
            chunk.reserveCapacity(Self.chunkBytes + Self.chunkBytes / 4)
            let rest = text.next(into: &chunk, size: Self.chunkBytes) ? text : nil
            let made = chunk
            guard channel.isActive else { return }
            channel.eventLoop.execute {
                var buffer = channel.allocator.buffer(capacity: made.count)
                buffer.writeBytes(made)
                write(buffer, rest)
            }
        }
    }
}
