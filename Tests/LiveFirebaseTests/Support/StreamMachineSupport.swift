// StreamMachineSupport.swift — driving a StreamMachine by hand in tests.

import Foundation
@testable import LiveFirebase
import LiveModel

extension StreamMachine.Action {
    /// A short, comparable form: `connect`, `connect <url>`, `+refresh`,
    /// `arm 60.0`, `reconnect`, `close`, `deliver <message summary>`.
    var summary: String {
        switch self {
        case .connect(let url, let refresh):
            return "connect" + (url.map { " \($0.absoluteString)" } ?? "") + (refresh ? " +refresh" : "")
        case .armKeepAlive(let d): return "arm \(d)"
        case .scheduleReconnect: return "reconnect"
        case .closeConnection: return "close"
        case .deliver(let message): return "deliver \(message.summary)"
        }
    }

    /// The reconnect delay, if this schedules one.
    var reconnectDelay: Duration? {
        if case .scheduleReconnect(let d) = self { return d }
        return nil
    }
}

extension Array where Element == StreamMachine.Action {
    var summaries: [String] { map(\.summary) }
    var reconnectDelay: Duration? { lazy.compactMap(\.reconnectDelay).first }
    var delivered: [StreamMessage] {
        compactMap { if case .deliver(let m) = $0 { return m } else { return nil } }
    }
}

/// A machine for a query URL, with short, round durations.
func streamMachine(canRefresh: Bool = false, seed: UInt64 = 1,
                   _ configure: (inout StreamConfiguration) -> Void = { _ in }) -> StreamMachine {
    var configuration = StreamConfiguration(keepAliveTimeout: .seconds(60), initialBackoff: .seconds(1),
                                            maxBackoff: .seconds(8), jitter: .equal, maxRedirects: 5)
    configure(&configuration)
    return StreamMachine(url: URL(string: "https://db.example.com/rooms.json?orderBy=%22%24key%22")!,
                         order: .key, configuration: configuration, canRefresh: canRefresh, seed: seed)
}

/// The bytes of one event.
func sseBytes(_ name: String, _ data: String) -> [UInt8] {
    Array("event: \(name)\ndata: \(data)\n\n".utf8)
}

extension StreamMachine {
    static let eventStream = ["content-type": "text/event-stream; charset=utf-8"]

    /// Starts and opens the stream (no put yet).
    mutating func open() {
        _ = handle(.start)
        _ = handle(.response(status: 200, headers: Self.eventStream))
    }

    /// From an open stream: the transport fails, the timer fires. Returns
    /// the delay.
    mutating func failAndReconnect() -> Duration? {
        let delay = handle(.transportEnded(error: "reset")).reconnectDelay
        _ = handle(.reconnectTimerFired)
        return delay
    }
}
