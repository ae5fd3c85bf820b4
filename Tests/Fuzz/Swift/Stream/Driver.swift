// Driver.swift — steps a StreamMachine and its model side by side, checking every step.

import Foundation
@testable import LiveFirebase
import LiveModel

private func fail(_ message: String) -> Never {
    fatalError("FUZZ DIVERGENCE (fuzz-stream): \(message)")
}

struct Driver {
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
