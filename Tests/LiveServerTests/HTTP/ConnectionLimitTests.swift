// ConnectionLimitTests.swift — connections counted in, made room for, and
// all let go at shutdown.

@testable import LiveServer
import NIOCore
import NIOEmbedded
import Testing

@Suite struct ConnectionLimitTests {
    @Test("at the limit the connection that waited longest makes room; when every one is busy, a new one is refused")
    func limit() {
        let limit = ConnectionLimit(capacity: 2)
        let a = EmbeddedChannel(), b = EmbeddedChannel(), c = EmbeddedChannel(), d = EmbeddedChannel()
        #expect(limit.admit(a) == .admitted)
        #expect(limit.admit(b) == .admitted)
        limit.setWaiting(b, false)  // b is busy: a waited longest
        #expect(limit.admit(c) == .admitted)
        #expect(!a.isActive, "the connection that waited longest is closed")
        #expect(limit.count == 2)
        limit.setWaiting(c, false)
        #expect(limit.admit(d) == .full)
        #expect(limit.count == 2)
        release([a, b, c, d])
    }

    @Test("at shutdown every connection counted in is handed over to be closed, and nothing is admitted after")
    func closeAll() throws {
        let limit = ConnectionLimit(capacity: 8)
        let channels = (0..<3).map { _ in EmbeddedChannel() }
        for channel in channels { #expect(limit.admit(channel) == .admitted) }
        limit.setWaiting(channels[1], false)  // busy ones too
        let handed = limit.closeAll()
        #expect(Set(handed.map { ObjectIdentifier($0) }) == Set(channels.map { ObjectIdentifier($0) }))
        let late = EmbeddedChannel()
        #expect(limit.admit(late) == .closed)
        #expect(limit.count == 3, "each is counted out when its close is seen")
        for channel in handed { limit.remove(channel) }
        #expect(limit.count == 0)
        #expect(limit.admit(late) == .closed)
        release(channels + [late])
    }

    /// Closes embedded channels and runs what their closing scheduled, so
    /// that nothing of them outlives the test.
    private func release(_ channels: [EmbeddedChannel]) {
        for channel in channels {
            _ = try? channel.finish()
            channel.embeddedEventLoop.run()
        }
    }
}
