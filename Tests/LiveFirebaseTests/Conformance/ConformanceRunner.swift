// ConformanceRunner.swift — plays the Firebase SDK's sync-point scenarios
// (syncPointSpec.json) through QueryView, as a client fed by one server
// stream per listener would see them.

import Foundation
@testable import LiveFirebase
import LiveModel

/// The outcome of one scenario.
enum ConformanceOutcome {
    case passed
    case skipped(reason: String)
    case failed(step: Int, detail: String)
}

/// Plays one scenario.
///
/// Each `listen` is a stream for its query: untagged server data reaches
/// untagged listeners, tagged data the listener with that tag (a filtered
/// query's stream carries only its own data). A `set` or `update` is a local
/// write: each listener it concerns shows it at once over the server's data
/// (``QueryView/applyLocal(_:id:)``), until `ackUserWrite` confirms it
/// (``QueryView/acknowledge(_:)``) or reverts it (``QueryView/revert(_:)``).
/// Child events are compared per listener path: each event type as a set,
/// the types in Firebase's order; `value` events are not child events and
/// are not compared.
struct ConformanceRunner {
    private struct Listener {
        let path: [Key]
        let tag: Int?
        let view: QueryView
    }

    /// A local write not yet confirmed or refused.
    private struct Pending {
        let id: Int
        let writes: [([Key], JSONValue)]
        let isMerge: Bool
    }

    let scenario: JSONValue

    var name: String { scenario["name"]?.stringValue ?? "?" }

    func run() -> ConformanceOutcome {
        guard case .array(let steps)? = scenario["steps"] else { return .failed(step: 0, detail: "no steps") }
        if let reason = skipReason(steps) { return .skipped(reason: reason) }
        var listeners: [Listener] = []
        // What the server holds, and the locations whose whole value it has
        // been told (untagged data only: a filtered query's data is partial).
        var server = JSONValue.null
        var complete: [[Key]] = []
        var pending: [Pending] = []
        var nextWrite = 0
        // The listeners' views by location: what a new one shows at once.
        let views = ViewRegistry()
        for (number, step) in steps.enumerated() {
            let type = step["type"]?.stringValue ?? ""
            let path = keys(step["path"]?.stringValue ?? "")
            let tag = step["tag"]?.numberValue.map { Int($0) }
            var produced: [(path: [Key], event: ChildEvent)] = []
            switch type {
            case "listen":
                guard let query = query(step["params"]) else { return .skipped(reason: "unsupported parameters") }
                let listenTag = step["params"]?["tag"]?.numberValue.map { Int($0) }
                let listener = Listener(path: path, tag: listenTag, view: QueryView(query: query))
                listeners.append(listener)
                // A new stream starts with a put of its location's whole
                // value, when the server is known to have it; the local
                // writes show over it.
                let writeCovers = pending.contains { p in !p.isMerge && p.writes.contains { path.starts(with: $0.0) } }
                if complete.contains(where: { path.starts(with: $0) }) || writeCovers {
                    let value = server[path: DatabasePath(uncheckedKeys: path)] ?? .null
                    _ = listener.view.apply([([], snapshot(value, query.order))], filtered: false)
                    listener.view.isConfirmed = true
                } else if let payload = views.known(at: path)?.payload(order: query.order) {
                    // What the other listeners hold whole of this location,
                    // before its stream's first value, shown as a collection
                    // with a shared cache shows it.
                    _ = listener.view.apply(payload, filtered: false)
                }
                for write in pending {
                    let updates = write.writes.compactMap { relative(listener, $0.0, $0.1) }
                    if !updates.isEmpty { _ = listener.view.applyLocal(updates, id: write.id) }
                }
                views.add(listener.view, at: path)
                var previous: Key?
                for child in listener.view.visible {
                    produced.append((path, ChildEvent(kind: .added, key: child.key!, snapshot: child, previousKey: previous)))
                    previous = child.key
                }
            case "unlisten":
                let unlistenTag = step["params"]?["tag"]?.numberValue.map { Int($0) }
                for listener in listeners where listener.path == path && listener.tag == unlistenTag {
                    views.remove(listener.view)
                }
                listeners.removeAll { $0.path == path && $0.tag == unlistenTag }
            case "serverUpdate", "serverMerge":
                let data = step["data"] ?? .null
                let isMerge = type == "serverMerge"
                let writes: [([Key], JSONValue)] = isMerge
                    ? (data.objectValue ?? [:]).map { (path + keys($0.key), $0.value) }
                    : [(path, data)]
                if tag == nil {
                    for (p, v) in writes {
                        server = server.replacing(p[...], with: v)
                        complete.append(p)
                    }
                }
                for listener in listeners {
                    // Tagged data belongs to its query's stream; untagged data
                    // reaches every listener it concerns.
                    if let tag, listener.tag != tag { continue }
                    let updates = writes.compactMap { relative(listener, $0.0, $0.1) }
                    guard !updates.isEmpty else { continue }
                    if isMerge, !listener.view.isComplete {
                        return .skipped(reason: "a merge reaches a listener before its location's whole value; "
                                        + "a stream always starts with a put of the whole location")
                    }
                    // Tagged data is the query's own; untagged data is filtered
                    // only below a cache that already is (as Firebase SDKs do).
                    let filtered = tag != nil || (listener.view.cacheIsFiltered && !updates.contains { $0.path.isEmpty })
                    for event in listener.view.apply(updates, filtered: filtered) {
                        produced.append((listener.path, event))
                    }
                    // The server's whole value of the listener's location.
                    if tag == nil, !isMerge, listener.path.starts(with: path) { listener.view.isConfirmed = true }
                }
            case "set", "update":
                let data = step["data"] ?? .null
                let isMerge = type == "update"
                let writes: [([Key], JSONValue)] = isMerge
                    ? (data.objectValue ?? [:]).map { (path + keys($0.key), $0.value) }
                    : [(path, data)]
                let id = nextWrite
                nextWrite += 1
                pending.append(Pending(id: id, writes: writes, isMerge: isMerge))
                for listener in listeners {
                    let updates = writes.compactMap { relative(listener, $0.0, $0.1) }
                    guard !updates.isEmpty else { continue }
                    for event in listener.view.applyLocal(updates, id: id) { produced.append((listener.path, event)) }
                }
            case "ackUserWrite":
                let id = step["writeId"]?.numberValue.map { Int($0) } ?? -1
                let revert = step["revert"]?.boolValue == true
                guard let index = pending.firstIndex(where: { $0.id == id }) else { break }
                let write = pending.remove(at: index)
                if !revert {
                    for (p, v) in write.writes {
                        server = server.replacing(p[...], with: v)
                        if !write.isMerge { complete.append(p) }
                    }
                }
                for listener in listeners {
                    let events = revert ? listener.view.revert(id) : listener.view.acknowledge(id)
                    for event in events { produced.append((listener.path, event)) }
                    // A set confirmed at or above the location: the server's
                    // stream then sends the location's value (its echo), with
                    // which a collection confirms its view.
                    if !revert, !write.isMerge, write.writes.contains(where: { listener.path.starts(with: $0.0) }) {
                        listener.view.isConfirmed = true
                    }
                }
            case "suppressWarning":
                break
            default:
                return .skipped(reason: "step type \(type)")
            }
            if let mismatch = compare(expected: step["events"] ?? .array([]), produced) {
                return .failed(step: number, detail: "\(type) \(step["path"]?.stringValue ?? ""): \(mismatch)")
            }
        }
        return .passed
    }

    /// Why a scenario cannot be played by this client, if so.
    private func skipReason(_ steps: [JSONValue]) -> String? {
        if steps.contains(where: { $0["visible"]?.boolValue == false }) {
            return "uses a non-visible local write (a transaction), which a REST client does not have"
        }
        return nil
    }

    /// The update a write at `path` makes to a listener's location, if any.
    private func relative(_ listener: Listener, _ path: [Key], _ value: JSONValue) -> (path: [Key], value: Snapshot)? {
        let order = listener.view.query.order
        if path.starts(with: listener.path) {
            let rest = Array(path.dropFirst(listener.path.count))
            return (rest, snapshot(value, order))
        }
        if listener.path.starts(with: path) {
            let below = Array(listener.path.dropFirst(path.count))
            var current: JSONValue? = value
            for key in below { current = current?[key.string] }
            return ([], snapshot(current ?? .null, order))
        }
        return nil
    }

    private func snapshot(_ value: JSONValue, _ order: QueryOrder) -> Snapshot {
        (try? Snapshot.parse(json: value.jsonText(), order: order)) ?? .absent(key: nil)
    }

    private func keys(_ text: String) -> [Key] {
        text.split(separator: "/").map { Key(unchecked: String($0)) }
    }

    /// The spec's listen parameters as a query (nil for one it cannot state).
    private func query(_ params: JSONValue?) -> DatabaseQuery? {
        var q = DatabaseQuery()
        guard let params else { return q }
        if let child = params["orderBy"]?.stringValue {
            guard let path = try? DatabasePath(child) else { return nil }
            q = q.ordered(by: .child(path))
        }
        if params["orderByKey"]?.boolValue == true { q = q.ordered(by: .key) }
        func bound(_ name: String, inclusive: Bool) -> DatabaseQuery.Bound? {
            guard let b = params[name] else { return nil }
            let key = b["name"]?.stringValue.map { Key(unchecked: $0) }
            return DatabaseQuery.Bound(value: b["index"] ?? .null, key: key, isInclusive: inclusive)
        }
        q.start = bound("startAt", inclusive: true) ?? bound("startAfter", inclusive: false) ?? bound("equalTo", inclusive: true)
        q.end = bound("endAt", inclusive: true) ?? bound("endBefore", inclusive: false) ?? bound("equalTo", inclusive: true)
        if let n = params["limitToFirst"]?.numberValue { q.limit = .first(Int(n)) }
        if let n = params["limitToLast"]?.numberValue { q.limit = .last(Int(n)) }
        return q
    }

    /// Compares one step's expected child events with the produced ones.
    private func compare(expected: JSONValue, _ produced: [(path: [Key], event: ChildEvent)]) -> String? {
        var want: [String: Set<String>] = [:], got: [String: Set<String>] = [:]
        for e in expected.arrayValue ?? [] {
            guard let type = e["type"]?.stringValue, type != "value" else { continue }
            let path = keys(e["path"]?.stringValue ?? "").map(\.string).joined(separator: "/")
            let name = e["name"]?.stringValue ?? ""
            let data = snapshot(e["data"] ?? .null, .priority)
            let prev = type == "child_removed" ? "-" : (e["prevName"]?.stringValue ?? "null")
            want[type, default: []].insert(describe(path, name, prev, data))
        }
        var lastType = -1
        for (path, event) in produced {
            let typeOrder = [ChildEvent.Kind.removed, .added, .moved, .changed].firstIndex(of: event.kind)!
            if typeOrder < lastType, produced.allSatisfy({ $0.path == path }) {
                return "events out of Firebase's order: \(produced.map(\.event))"
            }
            lastType = typeOrder
            let prev = event.kind == .removed ? "-" : (event.previousKey?.string ?? "null")
            got[event.kind.rawValue, default: []].insert(
                describe(path.map(\.string).joined(separator: "/"), event.key.string, prev, event.snapshot))
        }
        guard want != got else { return nil }
        return "expected \(want.sorted { $0.key < $1.key }), got \(got.sorted { $0.key < $1.key })"
    }

    private func describe(_ path: String, _ name: String, _ prev: String, _ data: Snapshot) -> String {
        let priority = data.priority.map { " .priority=\($0)" } ?? ""
        return "\(path)|\(name) prev=\(prev) \(data.value.jsonText(sortedKeys: true))\(priority)"
    }
}
