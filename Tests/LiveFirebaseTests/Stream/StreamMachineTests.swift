// StreamMachineTests.swift — opening, redirects, credentials and the
// events that end a stream, without I/O.

import Foundation
@testable import LiveFirebase
import LiveModel
import Testing

@Suite struct StreamMachineTests {
    @Test("start connects to the query URL; 200 text/event-stream opens; a put is delivered parsed")
    func open() {
        var m = streamMachine()
        #expect(m.handle(.start).summaries == ["connect", "arm 60.0 seconds"])
        #expect(m.phase == .connecting)
        // The timer is armed before the connection is told, so whoever hears
        // of it can count on the timer running.
        #expect(m.handle(.response(status: 200, headers: StreamMachine.eventStream)).summaries
            == ["arm 60.0 seconds", "deliver connected"])
        #expect(m.phase == .open)
        let actions = m.handle(.bytes(sseBytes("put", #"{"path":"/","data":{"b":2,"a":1}}"#)))
        #expect(actions.summaries == ["arm 60.0 seconds", #"deliver put / {"a":1,"b":2}"#])
        guard case .put(let payload)? = actions.delivered.first else { Issue.record("no put"); return }
        #expect(payload.data.orderedChildren().map { $0.key?.string } == ["a", "b"], "children in the query's order")
        #expect(m.handle(.bytes(sseBytes("patch", #"{"path":"/a","data":{"x/y":null}}"#)))
            .summaries == ["arm 60.0 seconds", "deliver patch /a x/y=null"])
        #expect(m.handle(.bytes(sseBytes("keep-alive", "null"))).summaries == ["arm 60.0 seconds"])
        #expect(m.handle(.bytes(sseBytes("something-new", "{}"))).summaries == ["arm 60.0 seconds"], "unknown events are ignored")
        #expect(m.handle(.bytes(Array(": comment only\n".utf8))).summaries == ["arm 60.0 seconds"], "any byte re-arms")
        #expect(m.handle(.event(ServerSentEvent(name: "put", text: #"{"path":"/c","data":3}"#))).summaries
            == ["deliver put /c 3"])
    }

    @Test("inputs that do not fit the phase are ignored")
    func stale() {
        var m = streamMachine()
        #expect(m.handle(.response(status: 200, headers: StreamMachine.eventStream)).isEmpty, "not started")
        #expect(m.handle(.reconnectTimerFired).isEmpty)
        m.open()
        #expect(m.handle(.response(status: 500, headers: [:])).isEmpty, "a second response")
        #expect(m.handle(.reconnectTimerFired).isEmpty)
        #expect(m.handle(.credentialFailed(.credentialsUnavailable("x"))).isEmpty)
        #expect(m.handle(.start).isEmpty)
    }

    @Test("a relative redirect is followed from the current URL; reconnects start over from the query URL")
    func relativeRedirect() {
        var m = streamMachine()
        _ = m.handle(.start)
        #expect(m.handle(.response(status: 307, headers: ["location": "/other/rooms.json?ns=x"])).summaries
            == ["close", "connect https://db.example.com/other/rooms.json?ns=x", "arm 60.0 seconds"])
        #expect(m.handle(.response(status: 307, headers: ["location": "next.json"])).summaries
            == ["close", "connect https://db.example.com/other/next.json", "arm 60.0 seconds"])
        _ = m.handle(.response(status: 200, headers: StreamMachine.eventStream))
        _ = m.handle(.transportEnded(error: nil))
        #expect(m.handle(.reconnectTimerFired).summaries == ["connect", "arm 60.0 seconds"])
    }

    @Test("every redirect status, absolute locations, a server of the same domain and another port")
    func absoluteRedirect() {
        for status in [301, 302, 303, 307, 308] {
            var m = streamMachine()
            _ = m.handle(.start)
            let target = "https://s-nss-2.example.com:9001/rooms.json?auth=abc&orderBy=%22%24key%22"
            #expect(m.handle(.response(status: status, headers: ["location": target])).summaries
                == ["close", "connect \(target)", "arm 60.0 seconds"], "status \(status)")
        }
    }

    @Test("a redirect to http from https, or to another site, ends the stream: the credential never goes there")
    func refusedRedirect() {
        for target in ["http://db.example.com/rooms.json", "https://evil.test/rooms.json", "http://127.0.0.1:9001/rooms.json"] {
            var m = streamMachine()
            _ = m.handle(.start)
            let summaries = m.handle(.response(status: 307, headers: ["location": target])).summaries
            #expect(summaries.count == 2 && summaries.last?.hasPrefix("deliver ended: ") == true
                    && summaries.last?.contains("refused") == true, "\(target): \(summaries)")
        }
    }

    @Test("redirects in a row are limited; the count starts over once a stream opens")
    func redirectLimit() {
        var m = streamMachine { $0.maxRedirects = 3 }
        _ = m.handle(.start)
        for _ in 0..<3 {
            #expect(m.handle(.response(status: 307, headers: ["location": "/loop.json"])).summaries.contains("close"))
        }
        #expect(m.handle(.response(status: 307, headers: ["location": "/loop.json"])).summaries
            == ["close", "deliver ended: too many redirects (4)"])
        #expect(m.phase == .ended)

        var again = streamMachine { $0.maxRedirects = 1 }
        _ = again.handle(.start)
        _ = again.handle(.response(status: 307, headers: ["location": "/a.json"]))
        _ = again.handle(.response(status: 200, headers: StreamMachine.eventStream))
        _ = again.failAndReconnect()
        #expect(again.handle(.response(status: 307, headers: ["location": "/a.json"])).summaries.first == "close")
        #expect(again.phase == .connecting)
    }

    @Test("a redirect without a usable Location reconnects after a backoff")
    func badRedirect() {
        for headers in [[:], ["location": "ftp://x/y"], ["location": "http://"]] {
            var m = streamMachine()
            _ = m.handle(.start)
            let actions = m.handle(.response(status: 307, headers: headers))
            #expect(actions.summaries.first == "close")
            #expect(actions.summaries.contains { $0.hasPrefix("deliver disconnected: invalid response") }, "\(headers)")
            #expect(actions.reconnectDelay != nil)
        }
    }

    @Test("401 with a provider renews once; a second 401 ends; without a provider it ends at once")
    func unauthorized() {
        var m = streamMachine(canRefresh: true)
        _ = m.handle(.start)
        #expect(m.handle(.response(status: 401, headers: ["content-type": "application/json"])).isEmpty)
        #expect(m.phase == .readingError)
        #expect(m.handle(.bytes(Array(#"{"error" : "Permission denied"}"#.utf8))).summaries == ["arm 60.0 seconds"])
        #expect(m.handle(.transportEnded(error: nil)).summaries
            == ["close", "deliver renewing", "connect +refresh", "arm 60.0 seconds"])
        _ = m.handle(.response(status: 401, headers: [:]))
        #expect(m.handle(.transportEnded(error: nil)).summaries
            == ["close", "deliver ended: permission denied: the credential was refused (401)"])

        var fixed = streamMachine(canRefresh: false)
        _ = fixed.handle(.start)
        _ = fixed.handle(.response(status: 401, headers: [:]))
        _ = fixed.handle(.bytes(Array(#"{"error": "Permission denied"}"#.utf8)))
        #expect(fixed.handle(.transportEnded(error: nil)).summaries == ["close", "deliver ended: permission denied: Permission denied"])
    }

    @Test("after a renewal opened the stream, a later 401 may renew again")
    func renewAgainAfterOpen() {
        var m = streamMachine(canRefresh: true)
        _ = m.handle(.start)
        _ = m.handle(.response(status: 401, headers: [:]))
        _ = m.handle(.transportEnded(error: nil))
        _ = m.handle(.response(status: 200, headers: StreamMachine.eventStream))
        _ = m.failAndReconnect()
        _ = m.handle(.response(status: 401, headers: [:]))
        #expect(m.handle(.transportEnded(error: nil)).summaries.contains("connect +refresh"))
    }

    @Test("403 ends; other 4xx end with the status and a redacted URL; 408, 429 and 5xx reconnect")
    func errorStatuses() {
        var m = streamMachine()
        _ = m.handle(.start)
        _ = m.handle(.response(status: 403, headers: [:]))
        #expect(m.handle(.transportEnded(error: nil)).summaries == ["close", "deliver ended: permission denied: access is denied (403)"])

        var redirected = streamMachine()
        _ = redirected.handle(.start)
        _ = redirected.handle(.response(status: 307, headers: ["location": "https://b.example.com/r.json?auth=SECRET-TOKEN"]))
        _ = redirected.handle(.response(status: 400, headers: [:]))
        _ = redirected.handle(.bytes(Array(#"{"error": "orderBy must be a valid JSON encoded path"}"#.utf8)))
        let ended = redirected.handle(.transportEnded(error: nil))
        #expect(ended.delivered.first?.error == .http(status: 400, message: "orderBy must be a valid JSON encoded path",
                                                      url: "https://b.example.com/r.json?auth=<redacted>"))

        for status in [408, 429, 500, 502, 503] {
            var r = streamMachine()
            _ = r.handle(.start)
            _ = r.handle(.response(status: status, headers: [:]))
            _ = r.handle(.bytes(Array("busy\r\nretry later".utf8)))
            let actions = r.handle(.transportEnded(error: nil))
            #expect(actions.delivered.first?.error
                == .http(status: status, message: "busy  retry later", url: "https://db.example.com/rooms.json?orderBy=%22%24key%22"))
            #expect(actions.reconnectDelay != nil && r.phase == .waiting, "status \(status)")
        }
    }

    @Test("an error body is read up to a limit, then acted on without waiting for its end")
    func longErrorBody() {
        var m = streamMachine()
        _ = m.handle(.start)
        _ = m.handle(.response(status: 503, headers: [:]))
        let actions = m.handle(.bytes(Array(repeating: UInt8(ascii: "x"), count: 10_000)))
        #expect(actions.summaries.first == "close")
        guard case .http(_, let message, _)? = actions.delivered.first?.error else { Issue.record("no error"); return }
        #expect(message.count == 201, "shortened with an ellipsis")
    }

    @Test("200 that is not an event stream reconnects")
    func notAnEventStream() {
        var m = streamMachine()
        _ = m.handle(.start)
        #expect(m.handle(.response(status: 200, headers: ["content-type": "text/html"])).isEmpty)
        _ = m.handle(.bytes(Array("<html>".utf8)))
        let actions = m.handle(.transportEnded(error: nil))
        #expect(actions.summaries.contains { $0.contains("expected text/event-stream, got text/html") })
        #expect(actions.reconnectDelay != nil)
    }

    @Test("cancel ends with permission denied and the server's text; no reconnect")
    func cancel() {
        var m = streamMachine(canRefresh: true)
        m.open()
        #expect(m.handle(.bytes(sseBytes("cancel", #""Permission denied""#))).summaries
            == ["arm 60.0 seconds", "close", "deliver ended: permission denied: Permission denied"])
        #expect(m.handle(.reconnectTimerFired).isEmpty && m.handle(.keepAliveTimeout).isEmpty)

        var empty = streamMachine()
        empty.open()
        #expect(empty.handle(.event(ServerSentEvent(name: "cancel", text: "null"))).summaries.last
            == "deliver ended: permission denied: the server cancelled the stream")
    }

    @Test("auth_revoked renews a provider's credential and reconnects at once; a fixed one ends")
    func authRevoked() {
        var provider = streamMachine(canRefresh: true)
        provider.open()
        #expect(provider.handle(.bytes(sseBytes("auth_revoked", #""credential is no longer valid""#))).summaries
            == ["arm 60.0 seconds", "close", "deliver renewing", "connect +refresh", "arm 60.0 seconds"])
        #expect(provider.handle(.response(status: 200, headers: StreamMachine.eventStream)).summaries.last
            == "deliver connected")

        var fixed = streamMachine(canRefresh: false)
        fixed.open()
        #expect(fixed.handle(.event(ServerSentEvent(name: "auth_revoked", text: "null"))).summaries
            == ["close", "deliver ended: the server revoked the credential and it could not be renewed"])
    }

    @Test("a renewal that gets a 401 again ends instead of looping")
    func renewalRefused() {
        var m = streamMachine(canRefresh: true)
        m.open()
        _ = m.handle(.event(ServerSentEvent(name: "auth_revoked", text: "null")))
        _ = m.handle(.response(status: 401, headers: [:]))
        #expect(m.handle(.transportEnded(error: nil)).summaries.last?.hasPrefix("deliver ended: permission denied") == true)
    }

    @Test("stop closes and ends in every phase, once; later inputs do nothing")
    func stop() {
        var open = streamMachine()
        open.open()
        #expect(open.handle(.stop).summaries == ["close", "deliver ended"])
        #expect(open.handle(.stop).isEmpty)
        #expect(open.handle(.bytes(sseBytes("put", #"{"path":"/","data":1}"#))).isEmpty)
        #expect(open.handle(.transportEnded(error: nil)).isEmpty)

        var waiting = streamMachine()
        waiting.open()
        _ = waiting.handle(.transportEnded(error: nil))
        #expect(waiting.handle(.stop).summaries == ["close", "deliver ended"])
        #expect(waiting.handle(.reconnectTimerFired).isEmpty)

        var idle = streamMachine()
        #expect(idle.handle(.stop).summaries == ["close", "deliver ended"])
        #expect(idle.handle(.start).isEmpty)
    }
}
