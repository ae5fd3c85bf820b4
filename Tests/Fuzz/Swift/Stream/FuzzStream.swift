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
