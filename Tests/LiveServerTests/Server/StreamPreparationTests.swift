// StreamPreparationTests.swift — streams that open while writes go on: a
// stream's first put is prepared off the server's lock, so writes land
// while it is prepared. Each stream's events, applied to a mirror, must
// end at the server's own answer.

import Foundation
import LiveModel
import LiveServer
import Testing

@Suite("LiveServer streams opened during writes", .serialized)
struct StreamPreparationTests {
    /// The children a stream has told of, from its put and patch events.
    struct Mirror {
        var children: [String: JSONValue] = [:]

        /// Applies a put or patch. The event is read with Foundation, which
        /// keeps the `null` members that say a child left (JSONValue drops
        /// nulls, as the database stores none).
        mutating func apply(_ event: EventReader.Event) throws {
            guard event.name == "put" || event.name == "patch" else { return }
            guard let envelope = try JSONSerialization.jsonObject(with: Data(event.data.utf8), options: [.fragmentsAllowed])
                    as? [String: Any], let path = envelope["path"] as? String else {
                throw StreamPreparationError("not a put or patch: \(event.data)")
            }
            func value(_ any: Any?) throws -> JSONValue {
                guard let any, !(any is NSNull) else { return .null }
                let text = try JSONSerialization.data(withJSONObject: any, options: [.fragmentsAllowed])
                return try JSONValue(parsingUTF8: Array(text))
            }
            if event.name == "put" {
                try put(path, try value(envelope["data"]))
            } else if let members = envelope["data"] as? [String: Any] {
                for (name, member) in members { try put((path == "/" ? "" : path) + "/" + name, try value(member)) }
            }
        }

        private mutating func put(_ path: String, _ value: JSONValue) throws {
            let parts = path.split(separator: "/").map(String.init)
            switch parts.count {
            case 0:
                children = value.objectValue.map { Dictionary(uniqueKeysWithValues: $0.map { ($0.key, $0.value) }) } ?? [:]
            case 1:
                // Not `value.isNull ? nil : value`: JSONValue is
                // ExpressibleByNilLiteral, so that nil would be stored.
                if value.isNull { children.removeValue(forKey: parts[0]) } else { children[parts[0]] = value }
            case 2:
                var members = children[parts[0]]?.objectValue.map { Dictionary(uniqueKeysWithValues: $0.map { ($0.key, $0.value) }) } ?? [:]
                if value.isNull { members.removeValue(forKey: parts[1]) } else { members[parts[1]] = value }
                if members.isEmpty {
                    children.removeValue(forKey: parts[0])
                } else {
                    children[parts[0]] = .object(.init(uniqueKeysWithValues: members.map { ($0.key, $0.value) }))
                }
            default:
                throw StreamPreparationError("a path deeper than this test writes: \(path)")
            }
        }
    }

    struct StreamPreparationError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// What each stream must end at, once the writes are done.
    final class Answers: @unchecked Sendable {
        // @unchecked: guarded by `lock`.
        private let lock = NSLock()
        private var answers: [String: [String: JSONValue]] = [:]
        func set(_ target: String, _ children: [String: JSONValue]) { lock.withLock { answers[target] = children } }
        func get(_ target: String) -> [String: JSONValue]? { lock.withLock { answers[target] } }
    }

    /// Follows `target`'s events until the mirror equals the answer
    /// (keep-alives every 50 ms make it look again); fails with what it saw
    /// when it never gets there within `seconds`.
    static func follow(_ port: Int, _ target: String, _ answers: Answers, seconds: Double = 600) async throws -> Mirror {
        let stream = try await EventReader(port: port, target, timeoutSeconds: 300)
        let deadline = ContinuousClock.now + .seconds(seconds)
        var mirror = Mirror()
        var last: [String] = []
        while mirror.children != answers.get(target) {
            guard ContinuousClock.now < deadline else {
                let want = answers.get(target) ?? [:]
                let wrong = want.filter { mirror.children[$0.key] != $0.value }.map(\.key).sorted().prefix(5)
                let extra = Set(mirror.children.keys).subtracting(want.keys).sorted().prefix(5)
                throw StreamPreparationError("\(target) never reached the answer (\(mirror.children.count) children, \(want.count) wanted): wrong or missing \(wrong), extra \(extra); last events \(last.suffix(4))")
            }
            guard let event = try await stream.next(skippingKeepAlives: false) else {
                throw StreamPreparationError("\(target) ended")
            }
            if event.name != "keep-alive" { last.append(event.name + " " + event.data.prefix(150)) }
            try mirror.apply(event)
        }
        return mirror
    }

    static func children(_ value: JSONValue?) -> [String: JSONValue] {
        value?.objectValue.map { Dictionary(uniqueKeysWithValues: $0.map { ($0.key, $0.value) }) } ?? [:]
    }

    @Test("plain and query streams opened while 100 writes land end at the server's answer")
    func openDuringWrites() async throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["LIVE_TEST_SEED"] ?? "") ?? 20261123
        try await withServer({ $0.keepAliveInterval = .milliseconds(50) }) { server in
            let p = server.port
            let initial = "{" + (0..<1000).map { "\"k\($0)\": {\"n\": \($0)}" }.joined(separator: ",") + "}"
            _ = try await request(p, "PUT", "/items.json?print=silent", body: initial, timeoutSeconds: 300)
            let targets = (0..<3).map { "/items.json?i=\($0)" } + (0..<3).flatMap { i in
                [#"/items.json?orderBy="n"&limitToLast=5&i="# + "\(i)", #"/items.json?orderBy="n"&limitToFirst=5&i="# + "\(i)"]
            }
            let answers = Answers()
            let writes = Task {
                var state = seed
                for _ in 0..<100 {
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    let key = Int(state >> 33) % 1000, n = Int(state >> 20) % 2000 - 500
                    _ = try await request(p, "PATCH", "/items.json?print=silent", body: "{\"k\(key)/n\": \(n)}",
                                          timeoutSeconds: 300)
                }
            }
            let mirrors = targets.map { target in (target, Task { try await Self.follow(p, target, answers) }) }
            try await writes.value
            for target in targets {
                let answer = try await request(p, "GET", target, timeoutSeconds: 300)
                answers.set(target, Self.children(answer.json))
            }
            for (target, task) in mirrors {
                await #expect(throws: Never.self, "\(target) (seed \(seed); replay: LIVE_TEST_SEED=\(seed))") {
                    _ = try await task.value
                }
            }
        }
    }
}
