// FuzzStream.swift — libFuzzer target for the stream's state machine
// (StreamMachine), driven without a network as its tests drive it.
//
// The input is a configuration (two bytes) and then a sequence of events:
// start, HTTP answers (200 with or without text/event-stream, redirects to
// the same host, a host of the same domain, another host, https → http,
// unusable locations, error statuses), event-stream bytes (numbered put and
// patch events, keep-alive, cancel, auth_revoked, unknown events, comments,
// retry lines, malformed payloads, raw garbage) cut into chunks of any size
// up to and past 64 KiB, parsed events handed over whole, transport
// failures, keep-alive timeouts, reconnect timers, retry times, credential
// failures and stop.
//
// Properties, checked after every input against a small model of the
// machine (its phase, redirects in a row, whether a renewal was tried, the
// URL of the current request and the events of the current connection):
// - it never traps, and does exactly what the model says (the actions, in
//   order, and the phase after);
// - once ended, every input does nothing;
// - after cancel, or auth_revoked without a refreshable credential, it is
//   ended;
// - no request goes with the credential to another host (other than one of
//   the database's own domain) or from https to http;
// - put and patch events are delivered in the order they were sent, each
//   once, as soon as the bytes that end them arrive.
// Bytes that the model cannot follow (garbage, bytes that arrived while no
// stream was open) make the rest of that connection's events unchecked, but
// every invariant above still holds. Any divergence is a fatalError.

import CFuzzDriver
import Foundation
@testable import LiveFirebase
import LiveModel

/// Reads the fuzz input a byte at a time; zero once it is used up.
private struct Input {
    var bytes: ArraySlice<UInt8>
    var isEmpty: Bool { bytes.isEmpty }
    mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }
    mutating func uint16() -> Int { Int(byte()) | Int(byte()) << 8 }
    mutating func take(_ n: Int) -> [UInt8] {
        let part = bytes.prefix(n)
        bytes = bytes.dropFirst(part.count)
        return Array(part)
    }
}

/// Where the stream starts: its query URL, and the host whose domain the
/// credential may follow a redirect to.
private let origins = [
    "https://db.example.com/rooms.json?orderBy=%22%24key%22",
    "http://127.0.0.1:9000/rooms.json",
    "https://db.example.com:8443/a/b.json",
    "http://localhost:9000/rooms.json?auth=TOKEN",
]

/// Redirect locations: the same host (absolute, relative), a server of the
/// same domain, other hosts, https → http, unusable ones.
private let locations: [String?] = [
    "/other/rooms.json?ns=x",
    "next.json",
    "https://db.example.com/x.json",
    "https://s-nss-2.example.com:9001/rooms.json?auth=abc",
    "http://db.example.com/rooms.json",
    "https://evil.test/rooms.json",
    "//evil.test/x.json",
    "https://a.b.example.com/x.json",
    "https://example.com/x.json",
    "ftp://x/y",
    "http://",
    "",
    nil,
    "HTTPS://DB.EXAMPLE.COM/up.json",
    "https://db.example.com.evil.test/x.json",
    "http://127.0.0.1:9001/x.json",
    "https://127.0.0.1:9001/x.json",
    "http://localhost:9001/x.json",
    "https://db.example.com@evil.test/x.json",
    "https://evil.test#@db.example.com/x.json",
    "https://evil.test\\@db.example.com/",
    "https://xn--db-example.com/x.json",
    "http://[::1]:9000/x.json",
    "https://db.example.com:443/x.json",
]

/// The numbers of events handed over whole start here.
private let wholeEvents = 1_000_000

private let errorStatuses = [401, 403, 404, 400, 408, 429, 500, 503, 204, 299, 600, 100, 0, 302, 418, 599]

/// One event of an event stream, as the model follows it.
private enum Event {
    case put(Int)
    case patch(Int)
    /// keep-alive, an unknown event, a comment, an id or retry line: no action.
    case quiet
    case cancel
    case authRevoked
    /// A put or patch whose data is not a payload.
    case malformed
}

private func fail(_ message: String) -> Never {
    fatalError("FUZZ DIVERGENCE (fuzz-stream): \(message)")
}

/// The model of one StreamMachine.
private struct Model {
    let origin: URL
    let canRefresh: Bool
    let configuration: StreamConfiguration
    var phase = StreamMachine.Phase.idle
    var currentURL: URL
    var redirects = 0
    var renewed = false
    var forceRefresh = false
    var errorStatus = 0
    var errorBytes = 0
    var ended = false

    // The current connection's event stream.
    /// Bytes made and not yet handed to the machine.
    var pending: [UInt8] = []
    /// Bytes handed to the machine on this connection.
    var fed = 0
    /// Bytes made on this connection (fed + pending).
    var made = 0
    /// The events made and not yet completed, with the offset their last byte ends at.
    var events: [(end: Int, event: Event)] = []
    /// Whether the model can no longer tell which events the bytes hold.
    var poisoned = false

    init(origin: URL, canRefresh: Bool, configuration: StreamConfiguration) {
        self.origin = origin
        self.canRefresh = canRefresh
        self.configuration = configuration
        currentURL = origin
    }

    /// A new connection: the machine's parser starts afresh, the bytes of
    /// the old one are gone.
    mutating func newConnection() {
        pending = []
        fed = 0
        made = 0
        events = []
        poisoned = false
    }

    mutating func append(_ bytes: [UInt8], _ event: Event?) {
        pending += bytes
        made += bytes.count
        if let event { events.append((made, event)) }
    }
}

/// Short forms of actions, as the tests write them.
private func summary(_ action: StreamMachine.Action) -> String {
    switch action {
    case .connect(let url, let refresh):
        return "connect" + (url.map { " \($0.absoluteString)" } ?? "") + (refresh ? " +refresh" : "")
    case .armKeepAlive(let d): return "arm \(d)"
    case .scheduleReconnect: return "reconnect"
    case .closeConnection: return "close"
    case .deliver(let message):
        switch message {
        case .connected: return "deliver connected"
        case .receiving: return "deliver receiving"
        case .put(let payload): return "deliver put \(payload.path)"
        case .patch(let payload): return "deliver patch \(payload.path)"
        case .disconnected: return "deliver disconnected"
        case .renewingCredential: return "deliver renewing"
        case .ended(let error):
            switch error {
            case nil: return "deliver ended"
            case .permissionDenied?: return "deliver ended: permission denied"
            case .authRevoked?: return "deliver ended: auth revoked"
            case .tooManyRedirects?: return "deliver ended: too many redirects"
            case .invalidResponse?: return "deliver ended: invalid response"
            case .http?: return "deliver ended: http"
            case let other?: return "deliver ended: \(other)"
            }
        }
    }
}

/// The host the credential may go to from `origin`, by the rule the
/// machine documents: the same host, or a host whose name differs only in
/// its first label below a common parent domain (not a top-level one, not
/// an address); never from https to http.
private func credentialMayGo(to target: URL, from current: URL, origin: URL) -> Bool {
    guard let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
          let host = target.host?.lowercased(), let home = origin.host?.lowercased() else { return false }
    if scheme == "http" && current.scheme?.lowercased() == "https" { return false }
    if host == home { return true }
    func parent(_ name: String) -> Substring? {
        if name.hasPrefix("[") || name.allSatisfy({ $0.isNumber || $0 == "." }) { return nil }
        guard let dot = name.firstIndex(of: ".") else { return nil }
        let rest = name[name.index(after: dot)...]
        return rest.contains(".") ? rest : nil
    }
    guard let a = parent(host), let b = parent(home) else { return false }
    return a == b
}

private struct Driver {
    var machine: StreamMachine
    var model: Model
    var nextNumber = 1
    let arm: String
    /// The payload paths delivered on the current connection, to check order.
    var deliveredOrder: [Int] = []

    init(origin: URL, canRefresh: Bool, configuration: StreamConfiguration, seed: UInt64) {
        machine = StreamMachine(url: origin, order: .key, configuration: configuration, canRefresh: canRefresh, seed: seed)
        model = Model(origin: origin, canRefresh: canRefresh, configuration: configuration)
        arm = "arm \(configuration.keepAliveTimeout)"
    }

    // MARK: What the model expects

    mutating func expectConnect(_ target: URL?, refresh: Bool) -> [String] {
        model.phase = .connecting
        model.currentURL = target ?? model.origin
        model.forceRefresh = refresh
        if target == nil { model.redirects = 0 }
        model.newConnection()
        return ["connect" + (target.map { " \($0.absoluteString)" } ?? "") + (refresh ? " +refresh" : ""), arm]
    }

    mutating func expectFail() -> [String] {
        model.phase = .waiting
        model.redirects = 0
        return ["close", "reconnect", "deliver disconnected"]
    }

    mutating func expectEnd(_ why: String) -> [String] {
        model.phase = .ended
        model.ended = true
        return ["close", why.isEmpty ? "deliver ended" : "deliver ended: \(why)"]
    }

    mutating func expectRenew() -> [String] {
        model.renewed = true
        model.redirects = 0
        return ["close", "deliver renewing"] + expectConnect(nil, refresh: true)
    }

    mutating func expectConclusion() -> [String] {
        let status = model.errorStatus
        switch status {
        case 401:
            return model.canRefresh && !model.renewed ? expectRenew() : expectEnd("permission denied")
        case 403: return expectEnd("permission denied")
        case 408, 429, 500...599: return expectFail()
        case 200...299: return expectFail()
        case 400...499: return expectEnd("http")
        default: return expectFail()
        }
    }

    /// An event of the open stream.
    mutating func expectEvent(_ event: Event) -> [String] {
        switch event {
        case .put(let n): return ["deliver put /e\(n)"]
        case .patch(let n): return ["deliver patch /e\(n)"]
        case .quiet: return []
        case .cancel: return expectEnd("permission denied")
        case .authRevoked: return model.canRefresh ? expectRenew() : expectEnd("auth revoked")
        case .malformed: return expectFail()
        }
    }

    mutating func expectResponse(status: Int, headers: [String: String]) -> [String] {
        guard model.phase == .connecting else { return [] }
        model.forceRefresh = false
        let type = headers["content-type"] ?? ""
        if status == 200 && type.lowercased().hasPrefix("text/event-stream") {
            model.phase = .open
            model.redirects = 0
            model.renewed = false
            return [arm, "deliver connected"]
        }
        if [301, 302, 303, 307, 308].contains(status) {
            model.redirects += 1
            if model.redirects > model.configuration.maxRedirects { return expectEnd("too many redirects") }
            guard let location = headers["location"],
                  let target = URL(string: location, relativeTo: model.currentURL)?.absoluteURL,
                  let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host != nil
            else { return expectFail() }
            guard credentialMayGo(to: target, from: model.currentURL, origin: model.origin) else {
                return expectEnd("invalid response")
            }
            return ["close"] + expectConnect(target, refresh: false)
        }
        model.redirects = 0
        model.phase = .readingError
        model.errorStatus = status
        model.errorBytes = 0
        return []
    }

    // MARK: Stepping

    /// Hands `input` to the machine; checks the invariants, and the actions
    /// against `expected` unless it is nil (the model cannot tell).
    mutating func step(_ input: StreamMachine.Input, _ expected: [String]?, _ what: String) -> [StreamMachine.Action] {
        let before = machine.phase
        let currentBefore = machine.currentURL
        let actions = machine.handle(input)
        let summaries = actions.map(summary)
        let context = "after \(what) (phase \(before) → \(machine.phase)): \(summaries)"

        // Once ended, nothing happens.
        if before == .ended && (!actions.isEmpty || machine.phase != .ended) { fail("an ended stream acted \(context)") }
        // The credential goes to the database's hosts only, never from https to http.
        var current = currentBefore
        for action in actions {
            guard case .connect(let url, _) = action else { continue }
            if let url {
                if !credentialMayGo(to: url, from: current, origin: machine.url) {
                    fail("a request with the credential to \(url.absoluteString) from \(current.absoluteString) \(context)")
                }
                // What the URL says is where the request goes: its text read again names the same host.
                if URL(string: url.absoluteString)?.host?.lowercased() != url.host?.lowercased() {
                    fail("a redirect target whose text names another host: \(url.absoluteString) \(context)")
                }
                current = url
            } else {
                current = machine.url
            }
        }
        // An end is the last thing said, and the phase is then ended.
        for (i, action) in actions.enumerated() {
            if case .deliver(.ended) = action {
                if i != actions.count - 1 || machine.phase != .ended { fail("ended, but not last or not ended \(context)") }
            }
            if case .scheduleReconnect(let delay) = action {
                if delay < .zero || delay > model.configuration.maxBackoff + .nanoseconds(1) {
                    fail("a reconnect delay \(delay) outside 0...\(model.configuration.maxBackoff) \(context)")
                }
                guard i + 1 < actions.count, case .deliver(.disconnected(_, let told)) = actions[i + 1], told == delay else {
                    fail("a reconnect not told with its delay \(context)")
                }
            }
        }
        if case .deliver(.ended(let error))? = actions.last {
            // After cancel, or auth_revoked without a refreshable credential, it is stopped.
            if case .authRevoked? = error, model.canRefresh { fail("auth_revoked ended a refreshable stream \(context)") }
        }
        if let expected {
            if summaries != expected { fail("expected \(expected) \(context)") }
            if machine.phase != model.phase { fail("expected phase \(model.phase) \(context)") }
            if machine.currentURL != model.currentURL {
                fail("expected the request at \(model.currentURL.absoluteString), not \(machine.currentURL.absoluteString) \(context)")
            }
        } else {
            // Followed from here on as the machine stands.
            model.phase = machine.phase
            model.currentURL = machine.currentURL
            model.redirects = machine.redirects
            model.renewed = machine.renewed
            model.forceRefresh = machine.forceRefresh
            model.errorStatus = machine.errorStatus
            model.errorBytes = machine.errorBody.count
            if machine.phase == .ended { model.ended = true }
            if actions.contains(where: { if case .connect = $0 { true } else { false } }) { model.newConnection() }
        }
        if model.ended && machine.phase != .ended { fail("the model ended but the machine did not \(context)") }
        // Data messages in order: within a connection, numbers only grow.
        for action in actions {
            switch action {
            case .connect, .closeConnection:
                deliveredOrder = []
            case .deliver(.put(let payload)), .deliver(.patch(let payload)):
                if let key = payload.path.keys.last?.string, key.hasPrefix("e"), let n = Int(key.dropFirst()),
                   n < wholeEvents, !model.poisoned {
                    if let last = deliveredOrder.last, n <= last { fail("event e\(n) delivered after e\(last) \(context)") }
                    deliveredOrder.append(n)
                }
            default: break
            }
        }
        return actions
    }

    /// Feeds `count` pending bytes.
    mutating func feed(_ count: Int) {
        let n = min(count, model.pending.count)
        let chunk = Array(model.pending.prefix(n))
        model.pending.removeFirst(n)
        model.fed += n
        let phase = model.phase
        var expected: [String]?
        switch phase {
        case .readingError:
            // Events lost as the error body: none of them are delivered (a
            // renewal then starts a new connection, which is followed again).
            model.poisoned = true
            expected = errorBytes(n)
        case .open where !model.poisoned:
            var out = [arm]
            while let first = model.events.first, first.end <= model.fed {
                model.events.removeFirst()
                out += expectEvent(first.event)
                if model.phase != .open { break }
            }
            expected = out
        case .open:
            expected = nil
        default:
            // Ignored: not the body of any stream the model follows.
            if n > 0 { model.poisoned = true }
            expected = []
        }
        _ = step(.bytes(chunk), expected, "\(n) stream bytes")
    }

    mutating func errorBytes(_ n: Int) -> [String] {
        model.errorBytes += min(n, StreamMachine.errorBodyLimit - model.errorBytes)
        if model.errorBytes >= StreamMachine.errorBodyLimit { return expectConclusion() }
        return [arm]
    }
}

/// The JSON of a value chosen by a byte; `large`, the input's bytes as a
/// string, when asked.
private func dataText(_ choice: UInt8, large: [UInt8]) -> String {
    switch choice % 8 {
    case 0: return "1"
    case 1: return #""text""#
    case 2: return #"{"a":1,"b":{"c":true}}"#
    case 3: return "null"
    case 4: return #"[1,2,{"x":"y"}]"#
    case 5: return #""\u00e9\n\"q\"""#
    case 6:
        // (NUL, which the database refuses in text, read as a space.)
        return JSONValue.string(String(decoding: large.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)).jsonText()
    default: return #"{"k":{".priority":1,".value":"v"}}"#
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStream(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 2 else { return 0 }
    var input = Input(bytes: ArraySlice(UnsafeBufferPointer(start: data, count: size)))
    let flags = input.byte()
    let settings = input.byte()
    let origin = URL(string: origins[Int(flags >> 1) % origins.count])!
    let canRefresh = flags & 1 != 0
    let jitter: [StreamConfiguration.Jitter] = [.none, .equal, .full]
    let configuration = StreamConfiguration(
        keepAliveTimeout: .seconds(60), initialBackoff: .seconds(1), maxBackoff: .seconds(8),
        jitter: jitter[Int(settings & 3) % 3], maxRedirects: Int(settings >> 2) % 6,
        maxEventBytes: 1 << 20)
    var d = Driver(origin: origin, canRefresh: canRefresh, configuration: configuration, seed: UInt64(settings))

    while !input.isEmpty {
        let op = input.byte()
        switch op % 24 {
        case 0:
            let expected = d.model.phase == .idle ? d.expectConnect(nil, refresh: false) : []
            _ = d.step(.start, expected, "start")
        case 1:
            let types = ["text/event-stream", "text/event-stream; charset=utf-8", "TEXT/Event-Stream"]
            let headers = ["content-type": types[Int(input.byte()) % types.count]]
            let expected = d.expectResponse(status: 200, headers: headers)
            _ = d.step(.response(status: 200, headers: headers), expected, "200 \(headers)")
        case 2:
            let types = ["application/json", "", "text/html", "text/event-streamx"]
            let type = types[Int(input.byte()) % types.count]
            let headers = type.isEmpty ? [:] : ["content-type": type]
            let expected = d.expectResponse(status: 200, headers: headers)
            _ = d.step(.response(status: 200, headers: headers), expected, "200 \(headers)")
        case 3:
            let status = [301, 302, 303, 307, 308][Int(input.byte()) % 5]
            let choice = Int(input.byte())
            let location: String?
            if choice == 255 {
                location = String(decoding: input.take(Int(input.byte())), as: UTF8.self)
            } else {
                location = locations[choice % locations.count]
            }
            let headers = location.map { ["location": $0] } ?? [:]
            let expected = d.expectResponse(status: status, headers: headers)
            _ = d.step(.response(status: status, headers: headers), expected, "\(status) to \(location ?? "nowhere")")
        case 4:
            let status = errorStatuses[Int(input.byte()) % errorStatuses.count]
            let headers = ["content-type": "application/json"]
            let expected = d.expectResponse(status: status, headers: headers)
            _ = d.step(.response(status: status, headers: headers), expected, "status \(status)")
        case 5, 6:
            let n = d.nextNumber
            d.nextNumber += 1
            let choice = input.byte()
            let large = choice % 8 == 6 ? input.take(input.uint16() * 3) : []
            let name = op % 24 == 5 ? "put" : "patch"
            let body = op % 24 == 5 ? dataText(choice, large: large) : #"{"a":\#(dataText(choice, large: large)),"b/c":null}"#
            var text = "event: \(name)\n"
            if choice & 0x40 != 0 {
                // The data over two lines (joined with a line break: still the JSON).
                text += "data: {\"path\":\"/e\(n)\",\ndata: \"data\":\(body)}\n\n"
            } else {
                text += "data: {\"path\":\"/e\(n)\",\"data\":\(body)}\n\n"
            }
            d.model.append(Array(text.utf8), op % 24 == 5 ? .put(n) : .patch(n))
        case 7:
            d.model.append(Array("event: keep-alive\ndata: null\n\n".utf8), .quiet)
        case 8:
            let texts = ["event: cancel\ndata: \"Permission denied\"\n\n", "event: cancel\ndata: null\n\n", "event:cancel\ndata:\n\n"]
            d.model.append(Array(texts[Int(input.byte()) % texts.count].utf8), .cancel)
        case 9:
            d.model.append(Array("event: auth_revoked\ndata: \"credential is no longer valid\"\n\n".utf8), .authRevoked)
        case 10:
            let texts = [
                "event: something-new\ndata: {}\n\n", ": a comment\n", "id: 7\n", "retry: \(input.uint16())\n",
                "event: put\n\n", "data: {\"path\":\"/x\",\"data\":1}\n\n",
            ]
            let choice = Int(input.byte()) % texts.count
            // An event without data, or data without an event name (a
            // "message"), is no put: nothing is delivered.
            d.model.append(Array(texts[choice].utf8), .quiet)
        case 11:
            let texts = ["{\"path\":\"/e1\"", "[]", "{\"path\":1,\"data\":2}", "{\"data\":1}", "not json"]
            let text = texts[Int(input.byte()) % texts.count]
            let name = input.byte() & 1 == 0 ? "put" : "patch"
            d.model.append(Array("event: \(name)\ndata: \(text)\n\n".utf8), .malformed)
        case 12:
            d.model.append(input.take(Int(input.byte())), nil)
            d.model.poisoned = true
        case 13:
            let sizes = [1, 2, 7, 100, 4096, 65535, 65536, 65537]
            d.feed(sizes[Int(input.byte()) % sizes.count])
        case 14:
            d.feed(d.model.pending.count)
        case 15:
            // Numbered apart from the stream's bytes: handed over whole, such an
            // event may come before events whose bytes are still to arrive.
            let n = wholeEvents + d.nextNumber
            d.nextNumber += 1
            let events: [(ServerSentEvent, Event)] = [
                (ServerSentEvent(name: "put", text: "{\"path\":\"/e\(n)\",\"data\":1}"), .put(n)),
                (ServerSentEvent(name: "patch", text: "{\"path\":\"/e\(n)\",\"data\":{\"a\":2}}"), .patch(n)),
                (ServerSentEvent(name: "keep-alive", text: "null"), .quiet),
                (ServerSentEvent(name: "cancel", text: "null"), .cancel),
                (ServerSentEvent(name: "auth_revoked", text: "null"), .authRevoked),
                (ServerSentEvent(name: "put", text: "{\"path\":\"/e\(n)\""), .malformed),
                (ServerSentEvent(name: "message", text: "{}"), .quiet),
            ]
            let (event, kind) = events[Int(input.byte()) % events.count]
            var expected: [String] = []
            if d.model.phase == .open { expected = d.expectEvent(kind) }
            // Handed over whole: this event is not among the connection's bytes.
            _ = d.step(.event(event), expected, "event \(event.name)")
        case 16, 17:
            var expected: [String] = []
            switch d.model.phase {
            case .connecting, .open: expected = d.expectFail()
            case .readingError: expected = d.expectConclusion()
            default: break
            }
            _ = d.step(.transportEnded(error: op % 24 == 16 ? nil : "reset"), expected, "transport ended")
        case 18:
            let connected = [.connecting, .open, .readingError].contains(d.model.phase)
            let expected = connected ? d.expectFail() : []
            _ = d.step(.keepAliveTimeout, expected, "keep-alive timeout")
        case 19:
            let expected = d.model.phase == .waiting ? d.expectConnect(nil, refresh: d.model.forceRefresh) : []
            _ = d.step(.reconnectTimerFired, expected, "reconnect timer")
        case 20:
            let expected = d.model.phase == .connecting ? d.expectFail() : []
            _ = d.step(.credentialFailed(.credentialsUnavailable("no token")), expected, "credential failed")
        case 21:
            // Rarely: most inputs should not end at once.
            guard input.byte() % 4 == 0 else { continue }
            let expected = d.model.phase == .ended ? [] : d.expectEnd("")
            _ = d.step(.stop, expected, "stop")
        case 22:
            _ = d.step(.retry(milliseconds: input.uint16() * 7), [], "retry")
        default:
            // Bytes straight to the machine: an error body, or garbage in an open stream.
            let count = Int(input.byte()) * 23
            let bytes = [UInt8](repeating: UInt8(ascii: "x"), count: count)
            var expected: [String]?
            switch d.model.phase {
            case .readingError: expected = d.errorBytes(count)
            case .open:
                expected = nil
                d.model.poisoned = true
            default: expected = []
            }
            _ = d.step(.bytes(bytes), expected, "\(count) body bytes")
        }
    }
    return 0
}

/// The program's entry (SwiftPM calls an executable's main `fuzz_stream_main`):
/// hands over to libFuzzer.
@_cdecl("fuzz_stream_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzStream(data, size) }
}
