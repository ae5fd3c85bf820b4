// StreamMachineReconnectTests.swift — backoff, jitter, the keep-alive
// timeout and malformed events, without I/O or clocks.

import Foundation
@testable import LiveFirebase
import LiveModel
import Testing

@Suite struct StreamMachineReconnectTests {
    /// The delays of `count` failures in a row.
    private func delays(_ m: inout StreamMachine, _ count: Int) -> [Duration] {
        (0..<count).compactMap { _ in
            _ = m.handle(.response(status: 503, headers: [:]))
            let delay = m.handle(.transportEnded(error: nil)).reconnectDelay
            #expect(m.handle(.reconnectTimerFired).summaries == ["connect", "arm 60.0 seconds"])
            return delay
        }
    }

    private func ceiling(_ attempt: Int) -> Duration { min(.seconds(8), .seconds(1) * (1 << attempt)) }

    @Test("no jitter: 1, 2, 4, 8, then capped at 8 seconds")
    func exact() {
        var m = streamMachine { $0.jitter = .none }
        _ = m.handle(.start)
        #expect(delays(&m, 7) == [1, 2, 4, 8, 8, 8, 8].map { Duration.seconds($0) })
    }

    @Test("equal jitter stays in [ceiling/2, ceiling], full jitter in [0, ceiling]; both replay with a seed",
          arguments: [StreamConfiguration.Jitter.equal, .full])
    func jitterBounds(_ jitter: StreamConfiguration.Jitter) {
        for seed in UInt64(1)...50 {
            var m = streamMachine(seed: seed) { $0.jitter = jitter }
            _ = m.handle(.start)
            let got = delays(&m, 8)
            for (attempt, delay) in got.enumerated() {
                let top = ceiling(attempt)
                let bottom = jitter == .equal ? top / 2 : .zero
                #expect(delay >= bottom && delay <= top, "seed \(seed), attempt \(attempt): \(delay)")
            }
            var replay = streamMachine(seed: seed) { $0.jitter = jitter }
            _ = replay.handle(.start)
            #expect(delays(&replay, 8) == got, "seed \(seed) replays")
        }
        var a = streamMachine(seed: 1) { $0.jitter = jitter }
        var b = streamMachine(seed: 2) { $0.jitter = jitter }
        _ = a.handle(.start)
        _ = b.handle(.start)
        #expect(delays(&a, 6) != delays(&b, 6), "different seeds differ")
    }

    @Test("attempts start over once a put arrives, not merely on connecting")
    func resetAfterPut() {
        var m = streamMachine { $0.jitter = .none }
        _ = m.handle(.start)
        #expect(delays(&m, 3) == [.seconds(1), .seconds(2), .seconds(4)])
        _ = m.handle(.response(status: 200, headers: StreamMachine.eventStream))
        #expect(m.failAndReconnect() == .seconds(8), "connected without a put: no reset")
        _ = m.handle(.response(status: 200, headers: StreamMachine.eventStream))
        _ = m.handle(.bytes(sseBytes("patch", #"{"path":"/","data":{}}"#)))
        #expect(m.failAndReconnect() == .seconds(8), "a patch does not reset")
        _ = m.handle(.response(status: 200, headers: StreamMachine.eventStream))
        _ = m.handle(.bytes(sseBytes("put", #"{"path":"/","data":null}"#)))
        #expect(m.failAndReconnect() == .seconds(1))
        #expect(m.failures == 1)
    }

    @Test("the server's retry: replaces the initial backoff")
    func serverRetry() {
        var m = streamMachine { $0.jitter = .none }
        m.open()
        _ = m.handle(.bytes(Array("retry: 3000\n\n".utf8)))
        #expect(m.failAndReconnect() == .seconds(3))
        _ = m.handle(.response(status: 200, headers: StreamMachine.eventStream))
        _ = m.handle(.retry(milliseconds: 5000))
        #expect(m.failAndReconnect() == .seconds(8), "5 s doubled, capped at 8")
        _ = m.handle(.response(status: 200, headers: StreamMachine.eventStream))
        _ = m.handle(.bytes(Array("retry: 0\n\n".utf8) + sseBytes("put", #"{"path":"/","data":1}"#)))
        #expect(m.failAndReconnect() == .milliseconds(100), "no tight loop")
        _ = m.handle(.response(status: 200, headers: StreamMachine.eventStream))
        _ = m.handle(.bytes(Array("retry: 600000\n\n".utf8) + sseBytes("put", #"{"path":"/","data":1}"#)))
        #expect(m.failAndReconnect() == .seconds(8), "at most the longest backoff")
    }

    @Test("a transport error, a clean close and a keep-alive timeout each reconnect; each says why")
    func reconnects() {
        var m = streamMachine()
        m.open()
        var actions = m.handle(.keepAliveTimeout)
        #expect(actions.summaries == ["close", "reconnect", "deliver disconnected: connection failed: no data from the server for 60.0 seconds"],
                "the reconnect is scheduled before the consumer hears of it")
        #expect(m.phase == .waiting)
        #expect(m.handle(.keepAliveTimeout).isEmpty, "no connection to time out")
        _ = m.handle(.reconnectTimerFired)
        #expect(m.handle(.keepAliveTimeout).summaries.first == "close", "the wait for a response times out too")
        _ = m.handle(.reconnectTimerFired)
        actions = m.handle(.transportEnded(error: "cannot connect to the host"))
        #expect(actions.summaries.contains("deliver disconnected: connection failed: cannot connect to the host"))
        _ = m.handle(.reconnectTimerFired)
        _ = m.handle(.response(status: 200, headers: StreamMachine.eventStream))
        actions = m.handle(.transportEnded(error: nil))
        #expect(actions.summaries.contains("deliver disconnected: connection failed: the server closed the stream"))
    }

    @Test("a malformed payload closes, reports and reconnects; the events after it in the chunk are dropped")
    func malformed() throws {
        var m = streamMachine()
        m.open()
        let bytes = sseBytes("put", #"{"path": "/", "data": {"#) + sseBytes("put", #"{"path":"/","data":1}"#)
        let actions = m.handle(.bytes(bytes))
        try #require(actions.count == 4, "\(actions.summaries)")
        #expect(actions.summaries.prefix(3) == ["arm 60.0 seconds", "close", "reconnect"])
        #expect(actions.summaries[3].hasPrefix(
            "deliver disconnected: invalid response from the server: a put event whose data is not a valid payload: "))
        #expect(actions.delivered.count == 1)

        for bad in [#"{"path": 3, "data": 1}"#, #"{"data": 1}"#, "[]", "", #"{"path":"/a/$b","data":1}"#,
                    #"{"path":"/","data":{"a.b":1}}"#] {
            var other = streamMachine()
            other.open()
            let result = other.handle(.event(ServerSentEvent(name: "put", text: bad)))
            #expect(result.summaries.first == "close", "\(bad)")
            #expect(other.phase == .waiting)
        }
        var patch = streamMachine()
        patch.open()
        #expect(patch.handle(.event(ServerSentEvent(name: "patch", text: #"{"path":"/","data":{"a/$b":1}}"#)))
            .summaries.first == "close")
    }

    @Test("an event past the size limit ends the stream")
    func oversize() {
        var m = streamMachine { $0.maxEventBytes = 64 }
        m.open()
        let actions = m.handle(.bytes(sseBytes("put", #"{"path":"/","data":""# + String(repeating: "x", count: 100) + #""}"#)))
        #expect(actions.summaries.last?.hasPrefix("deliver ended: invalid response from the server: an event is larger than the limit of 64 bytes") == true)
        #expect(m.phase == .ended)
    }

    @Test("a credential that cannot be had reconnects after a backoff, asking again as before")
    func credentialFailed() {
        var m = streamMachine(canRefresh: true)
        m.open()
        _ = m.handle(.event(ServerSentEvent(name: "auth_revoked", text: "null")))
        let actions = m.handle(.credentialFailed(.credentialsUnavailable("offline")))
        #expect(actions.summaries.contains("deliver disconnected: no credential: the provider failed: offline"))
        #expect(m.handle(.reconnectTimerFired).summaries.first == "connect +refresh")
    }

    @Test("a connection that closes before answering, and an unexpected status, reconnect")
    func earlyClose() {
        var m = streamMachine()
        _ = m.handle(.start)
        #expect(m.handle(.transportEnded(error: nil)).summaries.contains(
            "deliver disconnected: connection failed: the connection closed before the server answered"))
        _ = m.handle(.reconnectTimerFired)
        _ = m.handle(.response(status: 0, headers: [:]))
        #expect(m.handle(.transportEnded(error: nil)).summaries.contains { $0.contains("unexpected status 0") })
    }
}
