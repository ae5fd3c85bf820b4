// Model.swift — the model of one StreamMachine, and the rules it holds the machine to.

import Foundation
@testable import LiveFirebase
import LiveModel

/// One event of an event stream, as the model follows it.
enum Event {
    case put(Int)
    case patch(Int)
    /// keep-alive, an unknown event, a comment, an id or retry line: no action.
    case quiet
    case cancel
    case authRevoked
    /// A put or patch whose data is not a payload.
    case malformed
}

/// The model of one StreamMachine.
struct Model {
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
func summary(_ action: StreamMachine.Action) -> String {
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
func credentialMayGo(to target: URL, from current: URL, origin: URL) -> Bool {
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
