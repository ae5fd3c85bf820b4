// MakeRequests.swift — decodes one operation of the input into the requests it sends.

import Logging
import LiveModel
@testable import LiveServer
import NIOHTTP1

/// Decodes one operation into requests; the second result says the
/// connection ends after them.
func makeRequests(_ input: inout Input) -> ([Request], endsConnection: Bool) {
    let op = input.byte() % 20
    let (url, path) = makePath(&input)
    var request = Request(kind: .delete, path: path)
    var headers: [(String, String)] = []
    var parameters: [String] = []
    var method = "GET"
    var body: [UInt8]?

    func writeOptions(_ input: inout Input, allowsSilent: Bool = true) {
        switch input.byte() % 6 {
        case 0 where allowsSilent:
            // (Not for a POST: the model learns the new child's name from the answer.)
            parameters.append("print=silent")
            request.silent = true
        case 1:
            parameters.append("format=export")
            request.export = true
        case 2: parameters.append("print=pretty")
        default: break
        }
        if input.chance(20) {
            request.ifMatch = input.chance(128) ? "null_etag" : "0123456789abcdef"
            headers.append(("If-Match", request.ifMatch!))
        }
        if input.chance(20) {
            request.wantsETag = true
            headers.append(("X-Firebase-ETag", "true"))
        }
    }

    switch op {
    case 0, 1, 2:
        method = "PUT"
        let value = makeBody(&input)
        body = value.text
        request.kind = .put(normalized(value.json))
        writeOptions(&input)
    case 3, 4:
        method = "PATCH"
        var members: [(path: [String], value: Value?)] = []
        var texts: [String] = []
        for _ in 0..<Int(input.byte() % 4) {
            var name = input.pick(bodyKeys)
            if input.chance(80) { name += "/" + input.pick(bodyKeys) }
            if input.chance(30) { name = "/" + name }
            let value = makeBody(&input)
            texts.append(JSONValue.string(name).jsonText() + ":" + String(decoding: value.text, as: UTF8.self))
            members.append((name.split(separator: "/").map(String.init), normalized(value.json)))
        }
        // A location named twice ("a", "/a") is refused; the same name twice
        // is one member in JSON: keep one member per location.
        var unique: [(path: [String], value: Value?)] = []
        var uniqueTexts: [String] = []
        for (member, text) in zip(members, texts) where !unique.contains(where: { $0.path == member.path }) {
            unique.append(member)
            uniqueTexts.append(text)
        }
        body = Array(("{" + uniqueTexts.joined(separator: ",") + "}").utf8)
        request.kind = .patch(unique)
        writeOptions(&input)
    case 5:
        method = "POST"
        let value = makeBody(&input)
        body = value.text
        request.kind = .post(normalized(value.json))
        writeOptions(&input, allowsSilent: false)
    case 6:
        method = "DELETE"
        request.kind = .delete
        writeOptions(&input)
    case 7, 8, 9:
        switch input.byte() % 9 {
        case 0: request.kind = .get(.export); parameters.append("format=export")
        case 1: request.kind = .get(.silent); parameters.append("print=silent")
        case 2: request.kind = .get(.pretty); parameters.append("print=pretty")
        case 3: request.kind = .get(.shallow); parameters.append("shallow=true")
        case 4, 5:
            let first = input.byte() & 1 == 0
            let limit = Int(input.byte() % 5)
            let export = input.byte() & 1 == 0
            parameters.append(input.pick(["orderBy=%22%24key%22", "orderBy=\"$key\""]))
            parameters.append("\(first ? "limitToFirst" : "limitToLast")=\(limit)")
            if export { parameters.append("format=export") }
            request.kind = .get(.ordered(first: first, limit: limit, export: export))
        default: request.kind = .get(.none)
        }
        if input.chance(30) {
            request.wantsETag = true
            headers.append(("X-Firebase-ETag", "true"))
        }
        if input.chance(20) {
            request.ifNoneMatch = "null_etag"
            headers.append(("If-None-Match", "null_etag"))
        }
        if input.chance(20) { parameters.append("auth=some-token") }
    case 10:
        // POST standing for another method.
        method = "POST"
        let target = input.pick(["PUT", "patch", "DELETE", "GET", "BOGUS"])
        if input.byte() & 1 == 0 {
            headers.append(("X-HTTP-Method-Override", target))
        } else {
            parameters.append("x-http-method-override=\(target)")
        }
        switch target {
        case "PUT":
            let value = makeBody(&input)
            body = value.text
            request.kind = .put(normalized(value.json))
        case "patch":
            let key = input.pick(bodyKeys)
            let value = makeBody(&input)
            body = Array(("{" + JSONValue.string(key).jsonText() + ":").utf8) + value.text + Array("}".utf8)
            request.kind = .patch([([key], normalized(value.json))])
        case "DELETE":
            request.kind = .delete
        case "GET":
            request.kind = .get(.none)
        default:
            body = Array("1".utf8)
            request.kind = .refused(status: 405)
        }
    case 11:
        // A method override on a GET is refused.
        headers.append(("X-HTTP-Method-Override", input.pick(["PUT", "DELETE"])))
        request.kind = .refused(status: 400)
    case 12:
        // A parameter that is not valid.
        request.kind = .refused(status: 400)
        parameters.append(input.pick([
            "print=bogus", "format=xml", "shallow=maybe", "limitToFirst=2", "orderBy=$key&limitToFirst=1",
            "orderBy=%22%24key%22&limitToFirst=-1", "orderBy=%22%24key%22&limitToFirst=1&limitToLast=1",
            "shallow=true&orderBy=%22%24key%22", "orderBy=%22%24key%22&startAt=1", "auth_variable_override=5",
        ]))
        if input.byte() & 1 == 0 {
            method = "PUT"
            body = Array("1".utf8)
        }
    case 13 where input.byte() & 1 == 0:
        method = input.pick(["PUT", "POST", "PATCH"])
        body = Array(input.pick(badBodies).utf8)
        request.kind = .badBody
    case 13:
        // A name given twice: the last occurrence wins, even a null one.
        method = "PUT"
        let (text, json) = input.pick(repeatedNames)
        body = Array(text.utf8)
        request.kind = .put(normalized(json))
        writeOptions(&input)
    case 14:
        // Server values and priorities, echoed in the export format.
        parameters.append("format=export")
        request.export = true
        if input.byte() & 1 == 0 {
            method = "PUT"
            let (text, refused) = input.pick(subtleBodies)
            body = Array(text.utf8)
            request.kind = .subtlePut(refused: refused)
        } else {
            method = "PATCH"
            var members: [[String]] = []
            var texts: [String] = []
            var refused = Refusal.never
            for name in ["x", "y/z"] where input.byte() & 1 == 0 {
                let (text, bad) = input.pick(subtleBodies)
                members.append(name.split(separator: "/").map(String.init))
                texts.append("\"\(name)\":\(text)")
                refused = max(refused, bad)
            }
            body = Array(("{" + texts.joined(separator: ",") + "}").utf8)
            request.kind = .subtlePatch(members: members, refused: refused)
        }
    case 15:
        // A HEAD, then the GET it stands for.
        let head = serialize(&input, method: "HEAD", target: url + ".json", headers: [], body: nil)
        var get = Request(kind: .get(.none), path: path)
        get.bytes = serialize(&input, method: "GET", target: url + ".json", headers: [], body: nil)
        get.summary = "GET \(url).json after a HEAD"
        var headRequest = Request(kind: .head, path: path)
        headRequest.bytes = head
        headRequest.summary = "HEAD \(url).json"
        return ([headRequest, get], false)
    case 16:
        // Refused from the head: the connection closes.
        request.refusedEarly = true
        request.closes = true
        var target = url + ".json"
        switch input.byte() % 6 {
        case 0:
            target = url + "/" + input.pick(badSegments) + ".json"
            request.kind = .refused(status: 400)
            if input.byte() & 1 == 0 {
                // With a body, never read.
                method = "PUT"
                body = makeBody(&input).text
            }
        case 1:
            target = url + input.pick(["", ".jsonx", ".json/", ".JSON"])
            request.kind = .refused(status: 404)
        case 2:
            headers.append(("Host", input.pick(["evil.test", "localhost.evil.test", "127.0.0.1:8080", "localhost:1"])))
            request.kind = .refused(status: 403)
        case 3:
            headers.append(("Origin", input.pick(["https://evil.test", "null", "file://", "http://localhost.evil.test"])))
            request.kind = .refused(status: 403)
        default:
            // Larger than the server takes: refused from its length, unread.
            method = "PUT"
            body = Array(repeating: UInt8(ascii: "1"), count: maxRequestBytes + 1 + Int(input.byte()))
            request.kind = .refused(status: 413)
        }
        let bytes = serializeRaw(&input, method: method, target: target, headers: headers, body: body)
        request.bytes = bytes
        request.summary = "\(method) \(target) \(headers)"
        return ([request], true)
    case 17:
        // HTTP/1.0, or Connection: close: answered, then closed.
        request.closes = true
        request.kind = .get(.none)
        let close = input.byte() & 1 == 0
        if close { headers.append(("Connection", "close")) }
        request.bytes = serialize(&input, method: "GET", target: url + ".json", headers: headers, body: nil,
                                  version: close ? "HTTP/1.1" : "HTTP/1.0")
        request.summary = "GET \(url).json \(close ? "Connection: close" : "HTTP/1.0")"
        return ([request], true)
    case 18:
        if input.byte() & 1 == 0 {
            // A CORS preflight from a loopback page.
            method = "OPTIONS"
            headers.append(("Origin", input.pick(["http://localhost:5173", "http://127.0.0.1"])))
            headers.append(("Access-Control-Request-Method", "PUT"))
            request.kind = .preflight
        } else {
            // A stream: its first event, then the connection is the stream's.
            headers.append(("Accept", "text/event-stream"))
            let export = input.byte() & 1 == 0
            if export { parameters.append("format=export") }
            var window: (first: Bool, limit: Int)?
            if input.chance(100) {
                window = (input.byte() & 1 == 0, Int(input.byte() % 5))
                parameters.append("orderBy=%22%24key%22&\(window!.first ? "limitToFirst" : "limitToLast")=\(window!.limit)")
            }
            request.kind = .stream(export: export, window: window)
            let target = url + ".json" + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
            request.bytes = serialize(&input, method: "GET", target: target, headers: headers, body: nil)
            request.summary = "stream \(target)"
            return ([request], true)
        }
    default:
        // A large body made of the input's bytes (as a string), with an
        // origin the server serves (CORS).
        method = "PUT"
        if input.byte() & 1 == 0 { headers.append(("Origin", "http://localhost:3000")) }
        let count = input.uint16() * 3
        // (NUL, which the database refuses in text, read as a space.)
        let s = String(decoding: input.take(count).map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
        body = JSONValue.string(s).jsonBytes()
        request.kind = body!.count > maxRequestBytes ? .refused(status: 413) : .put(.leaf(.string(s)))
        if body!.count > maxRequestBytes {
            // Refused from its length, unread, and the connection closed.
            request.refusedEarly = true
            request.closes = true
            request.bytes = serializeRaw(&input, method: method, target: url + ".json", headers: headers, body: body)
            request.summary = "PUT \(url).json (\(body!.count) bytes)"
            return ([request], true)
        }
    }
    let target = url + ".json" + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
    request.bytes = serialize(&input, method: method, target: target, headers: headers, body: body)
    request.summary = "\(method) \(target) \(headers.map { "\($0.0): \($0.1)" }) \(body.map { "\($0.count) bytes: \(String(decoding: $0.prefix(120), as: UTF8.self))" } ?? "")"
    if let body, body.count > maxRequestBytes {
        // Refused, and the connection closed: from its length, unread, or
        // once its chunks passed the limit.
        request.kind = .refused(status: 413)
        request.refusedEarly = true
        request.closes = true
        return ([request], true)
    }
    return ([request], false)
}
