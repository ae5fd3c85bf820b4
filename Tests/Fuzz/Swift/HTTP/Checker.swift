// Checker.swift — sends fuzz-http's connections and holds every answer to
// the model (Model.swift).

#if canImport(Glibc)
import Glibc
#endif
import LiveModel
@testable import LiveServer

/// `bytes` as JSON. LiveModel's parser refuses the escape `\u0000`, which
/// is valid JSON (an error message may quote a path holding a NUL): it is
/// read as U+0001 instead.
func parseJSON(_ bytes: [UInt8]) -> JSONValue? {
    if let value = try? JSONValue(parsingUTF8: bytes) { return value }
    let nul = Array(#"\u0000"#.utf8)
    guard bytes.count >= nul.count else { return nil }
    var fixed: [UInt8] = []
    fixed.reserveCapacity(bytes.count)
    var i = 0
    var escaped = false
    while i < bytes.count {
        if !escaped, bytes[i] == UInt8(ascii: "\\"), bytes[i...].starts(with: nul) {
            fixed += Array(#"\u0001"#.utf8)
            i += nul.count
            continue
        }
        escaped = !escaped && bytes[i] == UInt8(ascii: "\\")
        fixed.append(bytes[i])
        i += 1
    }
    return try? JSONValue(parsingUTF8: fixed)
}

/// FUZZ_HTTP_TRACE=1 prints each request and the status it got (to see
/// what an input does).
let tracing = getenv("FUZZ_HTTP_TRACE") != nil

struct Checker {
    let core: ServerCore
    var db = Database()
    /// The last push id the server gave: each is later than the one before.
    var lastPushID = ""
    /// The ETag of each value seen (its export form): a tag depends on the
    /// value alone, however the server keeps it.
    var etags: [String: String] = [:]

    init(core: ServerCore) { self.core = core }

    /// The server's data, as the model holds it.
    private var serverData: Value? {
        let root = core.lock.withLock { core.store.root }
        return normalized(root.json(export: true))
    }

    /// Raw bytes on a connection of their own: whatever they are, the
    /// server answers or closes, and never traps. (They may write: the
    /// model then follows the server's data.)
    mutating func garbage(_ bytes: [UInt8], chunk: Int) {
        let before = core.lock.withLock { core.store.root }
        _ = exchange(bytes, chunk: chunk, core: core, what: "raw bytes \(String(decoding: bytes.prefix(200), as: UTF8.self).debugDescription)")
        let after = core.lock.withLock { core.store.root }
        if after != before { db.root = normalized(after.json(export: true)) }
    }

    /// Sends `requests` pipelined on one connection and checks each answer.
    mutating func run(_ requests: [Request], chunk: Int) {
        let bytes = requests.flatMap(\.bytes)
        let traffic = exchange(bytes, chunk: chunk, core: core, what: requests.map(\.summary).joined(separator: " | "))
        if traffic.answers.count > requests.count {
            fail("\(traffic.answers.count) answers to \(requests.count) requests: \(requests.map(\.summary))")
        }
        var closed = false
        var headLength: Int?
        if tracing {
            for (i, request) in requests.enumerated() {
                let answer = i < traffic.answers.count ? "\(traffic.answers[i].head.status.code) \(traffic.answers[i].body.count) bytes" : "-"
                print("fuzz-http: \(request.summary.prefix(300)) → \(answer)")
            }
        }
        for (i, request) in requests.enumerated() {
            let context = { "request \(i + 1) of \(requests.count) (\(request.summary)), in chunks of \(chunk)" }
            guard i < traffic.answers.count else {
                if closed { continue }
                fail("unanswered on a connection that was not closed by an answer (closed: \(traffic.inactive)): \(context())")
            }
            let answer = traffic.answers[i]
            if closed { fail("answered after an answer that closed the connection: \(context())") }
            if !answer.ended && !answer.isStream { fail("an answer that never ended: \(context())") }
            check(request, answer, headLength: &headLength, context)
            let closes = request.closes || request.refusedEarly
            if answer.closes != closes {
                fail("the answer \(closes ? "does not close" : "closes") the connection: \(answer.head) \(context())")
            }
            if answer.closes || answer.isStream { closed = true }
        }
    }

    /// After the input: the server holds what the model holds, and no stream is left.
    func finish() {
        let data = serverData
        if data != db.root {
            fail("the server holds \(data?.description ?? "null"), the model \(db.root?.description ?? "null")")
        }
        let streams = core.lock.withLock { core.listeners.count }
        if streams != 0 { fail("\(streams) streams left after their connections closed") }
    }

    // MARK: One answer

    private mutating func check(_ request: Request, _ answer: Answer, headLength: inout Int?, _ context: () -> String) {
        let status = Int(answer.head.status.code)
        let path = request.path
        func expect(_ expected: Int) {
            if status != expected {
                fail("status \(status), not \(expected): \(String(decoding: answer.body.prefix(300), as: UTF8.self)) \(context())")
            }
        }
        func value() -> Value? {
            guard let json = parseJSON(answer.body) else {
                fail("an answer that is not JSON: \(String(decoding: answer.body.prefix(300), as: UTF8.self).debugDescription) \(context())")
            }
            return normalized(json)
        }
        func expectValue(_ expected: Value?, _ what: String) {
            let got = value()
            if got != expected {
                fail("\(what) answered \(got?.description.prefix(2000) ?? "null"), the model holds \(expected?.description.prefix(2000) ?? "null"): \(context())")
            }
        }
        func expectError() {
            guard case .object(let members)? = parseJSON(answer.body), case .string? = members["error"] else {
                fail("a refusal without an error: \(String(decoding: answer.body.prefix(300), as: UTF8.self)) \(context())")
            }
        }
        func expectEmpty() {
            if !answer.body.isEmpty { fail("a body where none is due: \(answer.body.count) bytes \(context())") }
        }
        func expectTag(present: Bool = true) {
            guard request.wantsETag else { return }
            guard let tag = answer.header("etag") else { fail("no ETag though asked: \(context())") }
            let absent = db.get(path) == nil
            if (tag == "null_etag") != absent { fail("ETag \(tag) for \(absent ? "an absent" : "a present") value: \(context())") }
            guard let value = db.get(path) else { return }
            let key = value.description
            if let known = etags[key], known != tag {
                fail("ETag \(tag) for \(key.prefix(300)), which had ETag \(known) before: \(context())")
            }
            etags[key] = tag
        }
        func view(_ value: Value?) -> Value? { request.export ? value : value?.plain }
        /// If-Match that does not match: 412 with the current value, nothing changed.
        func preconditionFails() -> Bool {
            guard let tag = request.ifMatch else { return false }
            if tag == "null_etag" && db.get(path) == nil { return false }
            expect(412)
            expectValue(view(db.get(path)), "a failed If-Match")
            return true
        }

        switch request.kind {
        case .refused(let expected):
            expect(expected)
            expectError()
        case .badBody:
            expect(400)
            expectError()
        case .preflight:
            expect(204)
            expectEmpty()
        case .head:
            expect(200)
            expectEmpty()
            guard let length = answer.header("content-length").flatMap({ Int($0) }) else {
                fail("a HEAD without a length: \(answer.head) \(context())")
            }
            headLength = length
        case .get(let query):
            if request.ifNoneMatch == "null_etag" && db.get(path) == nil {
                expect(304)
                expectEmpty()
                return
            }
            switch query {
            case .silent:
                expect(204)
                expectEmpty()
            case .none, .pretty:
                expect(200)
                expectValue(db.get(path)?.plain, "GET")
            case .export:
                expect(200)
                expectValue(db.get(path), "GET format=export")
            case .shallow:
                expect(200)
                var expected: Value?
                switch db.get(path)?.plain {
                case .leaf(let leaf)?: expected = .leaf(leaf)
                case .node?: expected = .node(db.get(path)!.children.mapValues { _ in .leaf(.bool(true)) })
                case nil: expected = nil
                }
                expectValue(expected, "GET shallow=true")
            case .ordered(let first, let limit, let export):
                expect(200)
                let children = db.get(path)?.children ?? [:]
                let keys = children.keys.sorted(by: keyPrecedes)
                let kept = first ? keys.prefix(limit) : keys.suffix(limit)
                let window = Dictionary(uniqueKeysWithValues: kept.map { ($0, export ? children[$0]! : children[$0]!.plain) })
                expectValue(window.isEmpty ? nil : .node(window), "a query (\(first ? "first" : "last") \(limit))")
            }
            if let length = headLength {
                headLength = nil
                if length != answer.body.count {
                    fail("HEAD said \(length) bytes, GET sent \(answer.body.count): \(context())")
                }
            }
            expectTag()
        case .put(let new):
            if preconditionFails() { return }
            expect(request.silent ? 204 : 200)
            db.set(path, new)
            if request.silent { expectEmpty() } else { expectValue(view(db.get(path)), "PUT") }
            expectTag()
        case .patch(let members):
            if preconditionFails() { return }
            let overlap = members.contains { a in members.contains { b in a.path != b.path && b.path.starts(with: a.path) } }
            if overlap {
                expect(400)
                expectError()
                return
            }
            expect(request.silent ? 204 : 200)
            for member in members { db.set(path + member.path, member.value) }
            if request.silent {
                expectEmpty()
            } else {
                var echo: [String: Value] = [:]
                for member in members { echo[member.path.joined(separator: "/")] = view(db.get(path + member.path)) }
                expectValue(echo.isEmpty ? nil : .node(echo), "PATCH")
            }
            expectTag()
        case .post(let new):
            if preconditionFails() { return }
            expect(request.silent ? 204 : 200)
            guard case .object(let members)? = parseJSON(answer.body), members.count == 1,
                  case .string(let name)? = members["name"] else {
                fail("a POST answered \(String(decoding: answer.body.prefix(300), as: UTF8.self)): \(context())")
            }
            if name.utf8.count != 20 || (try? Key(name)) == nil || db.get(path + [name]) != nil || name <= lastPushID {
                fail("the push id \(name) (after \(lastPushID)) is not a new, later key: \(context())")
            }
            lastPushID = name
            db.set(path + [name], new)
            expectTag()
        case .delete:
            if preconditionFails() { return }
            expect(request.silent ? 204 : 200)
            db.set(path, nil)
            if request.silent { expectEmpty() } else { expectValue(nil, "DELETE") }
            expectTag()
        case .subtlePut(let refused):
            if refused == .always || (refused == .maybe && status == 400) {
                expect(400)
                expectError()
                return
            }
            expect(200)
            // What the server made of it is what it reads back.
            db.set(path, value())
        case .subtlePatch(let members, let refused):
            if refused == .always || (refused == .maybe && status == 400) {
                expect(400)
                expectError()
                return
            }
            expect(200)
            guard case .object(let echo)? = parseJSON(answer.body) else {
                fail("a PATCH answered \(String(decoding: answer.body.prefix(300), as: UTF8.self)): \(context())")
            }
            for member in members {
                guard let written = echo[member.joined(separator: "/")] else {
                    fail("a PATCH's answer lacks its member \(member.joined(separator: "/")): \(context())")
                }
                db.set(path + member, normalized(written))
            }
        case .stream(let export, let window):
            expect(200)
            guard answer.isStream else { fail("a stream answered as \(answer.head): \(context())") }
            let prefix = Array("event: put\ndata: ".utf8)
            guard answer.body.starts(with: prefix), answer.body.suffix(2).elementsEqual("\n\n".utf8),
                  case .object(let payload)? = parseJSON(Array(answer.body.dropFirst(prefix.count).dropLast(2))),
                  payload["path"] == .string("/"), let data = payload["data"] else {
                fail("a stream's first event is not a put at /: \(String(decoding: answer.body.prefix(300), as: UTF8.self)) \(context())")
            }
            var expected = export ? db.get(path) : db.get(path)?.plain
            if let (first, limit) = window {
                let children = db.get(path)?.children ?? [:]
                let keys = children.keys.sorted(by: keyPrecedes)
                let kept = first ? keys.prefix(limit) : keys.suffix(limit)
                let members = Dictionary(uniqueKeysWithValues: kept.map { ($0, export ? children[$0]! : children[$0]!.plain) })
                expected = members.isEmpty ? nil : .node(members)
            }
            if normalized(data) != expected {
                fail("a stream's first put holds \(normalized(data)?.description ?? "null"), the model \(expected?.description ?? "null"): \(context())")
            }
        }
    }
}
