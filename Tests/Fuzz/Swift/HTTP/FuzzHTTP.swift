// FuzzHTTP.swift — libFuzzer target for LiveServer's HTTP/1.1 REST API:
// raw request bytes into the server's own pipeline (NIO's HTTP server
// pipeline and HTTPHandler, see Connection.swift) on a ServerCore in
// memory, in open mode.
//
// The input is decoded as a sequence of operations, sent pipelined several
// to a connection: PUT, PATCH, POST, DELETE, GET and HEAD at paths built
// from a small alphabet (percent-escapes, `%2F`, empty segments, unicode)
// with the `.json` suffix, query parameters (print=silent, format=export,
// shallow, orderBy/limitToFirst/limitToLast), x-http-method-override (as a
// header or a parameter, on POST and on GET), X-Firebase-ETag, If-Match and
// If-None-Match, server values and priorities, overlapping PATCH paths,
// bodies sent with a length or chunked, large enough to cross 64 KiB
// chunk boundaries and the server's size limit, requests refused from their
// head (a bad path, no `.json`, another Host or Origin, a too large
// length), HTTP/1.0 and Connection: close, CORS preflights, a stream's
// first event; and raw garbage on connections of its own. Bytes are handed
// to the server in chunks of any size, from one byte to past 64 KiB.
//
// Properties (any divergence is a fatalError):
// - nothing traps, hangs or leaks;
// - every request is answered, in order, with the status the model
//   expects, until a response that closes the connection (which is
//   exactly one that should) or a stream;
// - every read (GET, a HEAD's length, a shallow read, a query's window, a
//   stream's first put) answers what the model holds; every write echoes
//   what the model then holds; a refused request changes nothing;
// - server values and priorities are not modelled: what the server
//   echoed is what it reads back;
// - after each input, the server's data is the model's.

import CFuzzDriver
import Logging
import LiveModel
@testable import LiveServer
import NIOHTTP1

func fail(_ message: String) -> Never {
    fatalError("FUZZ DIVERGENCE (fuzz-http): \(message)")
}

/// Reads the fuzz input a byte at a time; zero once it is used up.
struct Input {
    var bytes: ArraySlice<UInt8>
    var isEmpty: Bool { bytes.isEmpty }
    mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }
    mutating func pick<T>(_ choices: [T]) -> T { choices[Int(byte()) % choices.count] }
    mutating func chance(_ in256: Int) -> Bool { Int(byte()) < in256 }
    mutating func uint16() -> Int { Int(byte()) | Int(byte()) << 8 }
    mutating func take(_ n: Int) -> [UInt8] {
        let part = bytes.prefix(n)
        bytes = bytes.dropFirst(part.count)
        return Array(part)
    }
}

// MARK: Alphabet

/// Path segments: as written in the URL, and the keys they stand for.
private let segments: [(url: String, keys: [String])] = [
    ("a", ["a"]), ("b", ["b"]), ("c", ["c"]), ("%61", ["a"]), ("0", ["0"]), ("1", ["1"]), ("10", ["10"]),
    ("caf%C3%A9", ["café"]), ("a%20b", ["a b"]), ("-x", ["-x"]), ("_", ["_"]), ("%CE%A9", ["Ω"]), ("s", ["s"]),
    ("a%2Fb", ["a", "b"]), ("", []),
]
/// Segments that make a path invalid (answered 400 from the head).
private let badSegments = ["%ZZ", "a.b", "%2E", "x%00", "%C3", "%5B", "$x", "a%", "%7F"]
/// Keys of members in bodies.
private let bodyKeys = ["a", "b", "c", "0", "1", "10", "café", "a b", "-x", "_", "Ω", "s"]
private let numbers: [(String, Double)] = [
    ("0", 0), ("1", 1), ("-1", -1), ("2.5", 2.5), ("1e21", 1e21), ("123456789012345", 123456789012345), ("0.1", 0.1),
    // (2^53 + 1 reads as the nearest double, 2^53.)
    ("-0.0", -0.0), ("1E-7", 1e-7), ("9007199254740993", 9007199254740992), ("-17", -17), ("3.0", 3),
]
private let strings = ["x", "", "café", "line\nbreak", "quote\"", "\u{1F600}", "tab\t", "<script>", "a/b.c", "\\"]

/// Whether the server refuses a write.
enum Refusal: Int, Comparable {
    case never, maybe, always
    static func < (a: Refusal, b: Refusal) -> Bool { a.rawValue < b.rawValue }
}

/// Server values and priorities (written in the export format), and
/// whether the server refuses them (an increment past the largest finite
/// number is refused: maybe).
private let subtleBodies: [(text: String, refused: Refusal)] = [
    (#"{".sv":"timestamp"}"#, .never),
    (#"{".sv":{"increment":1}}"#, .maybe),
    (#"{".sv":{"increment":-2.5}}"#, .maybe),
    (#"{".sv":{"increment":1e308}}"#, .maybe),
    (#"{".value":5,".priority":1}"#, .never),
    (#"{".value":"t",".priority":"p"}"#, .never),
    (#"{"a":1,".priority":2.5}"#, .never),
    (#"{"a":{".sv":"timestamp"},"b":{".sv":{"increment":3}},".priority":null}"#, .maybe),
    (#"{".priority":1}"#, .never),
    (#"{"a":{"b":1,".priority":"q"},".priority":-1}"#, .never),
    (#"{".sv":"bogus"}"#, .always),
    (#"{".sv":{"increment":"x"}}"#, .always),
    (#"{".sv":"timestamp","a":1}"#, .always),
    (#"{".value":1,"a":2}"#, .always),
    (#"{".priority":true,"a":1}"#, .always),
]

/// Bodies that name a member twice, and the value they stand for (the
/// last occurrence wins). More than 64 members are read another way.
private let repeatedNames: [(String, JSONValue)] = {
    let many = (0..<70).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
    var manyValue = JSONObject()
    for i in 0..<70 { manyValue["k\(i)"] = .number(Double(i)) }
    var manyRepeated = manyValue
    manyRepeated["k3"] = .string("again")
    var manyRemoved = manyValue
    manyRemoved["k5"] = nil
    return [
        (#"{"a":1,"b":2,"a":3}"#, ["a": 3, "b": 2]),
        (#"{"a":{"x":1},"b":true,"a":null}"#, ["b": true]),
        (#"{"a":{"x":1,"x":{"y":2}}}"#, ["a": ["x": ["y": 2]]]),
        ("{" + many + #","k3":"again"}"#, .object(manyRepeated)),
        ("{" + many + #","k5":null}"#, .object(manyRemoved)),
        (#"{"a":{},"a":{"b":1}}"#, ["a": ["b": 1]]),
    ]
}()

/// Bodies that are not data (answered 400).
private let badBodies = [
    "{", "[1,]", #"{"a":}"#, "nul", #"{"a.b":1}"#, #"{"$x":1}"#, #"{"a":1} x"#, "", #"{"a":[1,2}"#,
    String(repeating: #"{"a":"#, count: 40) + "1" + String(repeating: "}", count: 40),
]

// MARK: Values

/// A JSON text and the value it is.
struct Body {
    var text: [UInt8]
    var json: JSONValue
}

private func makeValue(_ input: inout Input, depth: Int) -> (String, JSONValue) {
    let kind = input.byte() % 11
    switch kind {
    case 0, 1:
        let (text, value) = input.pick(numbers)
        return (text, .number(value))
    case 2:
        let s = input.pick(strings)
        return (JSONValue.string(s).jsonText(), .string(s))
    case 3:
        return input.byte() & 1 == 0 ? ("true", .bool(true)) : ("false", .bool(false))
    case 4:
        return ("null", .null)
    case 5:
        return (input.byte() & 1 == 0 ? "{}" : "{ }", .object([:]))
    case 6...8 where depth < 4:
        let count = 1 + Int(input.byte() % 3)
        var texts: [String] = []
        var members = JSONObject()
        for _ in 0..<count {
            let key = input.pick(bodyKeys)
            guard members[key] == nil else { continue }
            let (text, value) = makeValue(&input, depth: depth + 1)
            texts.append(JSONValue.string(key).jsonText() + (input.byte() & 1 == 0 ? ":" : " : ") + text)
            members[key] = value
        }
        return ("{" + texts.joined(separator: ",") + "}", .object(members))
    case 9 where depth < 4:
        let count = 1 + Int(input.byte() % 4)
        var texts: [String] = []
        var elements: [JSONValue] = []
        for _ in 0..<count {
            let (text, value) = makeValue(&input, depth: depth + 1)
            texts.append(text)
            elements.append(value)
        }
        return ("[" + texts.joined(separator: ", ") + "]", .array(elements))
    case 10:
        // Large: a string, or many small children (now and then past the
        // chunk sizes and the server's limit).
        let count = (input.uint16() >> (Int(input.byte()) % 8)) * 3
        if input.byte() & 1 == 0 {
            let s = String(repeating: "x", count: count)
            return ("\"" + s + "\"", .string(s))
        }
        let n = count / 8
        return ("[" + Array(repeating: "7", count: n).joined(separator: ",") + "]", .array(Array(repeating: .number(7), count: n)))
    default:
        return ("1", .number(1))
    }
}

private func makeBody(_ input: inout Input) -> Body {
    let (text, json) = makeValue(&input, depth: 0)
    return Body(text: Array(text.utf8), json: json)
}

// MARK: Requests

enum GetQuery {
    case none
    case export
    case silent
    case pretty
    case shallow
    /// orderBy="$key" with limitToFirst (true) or limitToLast, and the limit.
    case ordered(first: Bool, limit: Int, export: Bool)
}

/// What a request is, as the model sees it.
enum Kind {
    case get(GetQuery)
    /// A HEAD, answered with the length the next request (a GET of the same) then reads.
    case head
    case put(Value?)
    /// Members: relative paths and values.
    case patch([(path: [String], value: Value?)])
    case post(Value?)
    case delete
    /// A write of server values or priorities: answered as the server
    /// resolves it, 400 when `refused`.
    case subtlePut(refused: Refusal)
    case subtlePatch(members: [[String]], refused: Refusal)
    /// A write whose body is not data.
    case badBody
    /// Refused with this status (with the connection closed when `closes`).
    case refused(status: Int)
    /// A CORS preflight.
    case preflight
    /// A stream request: its first event (the value, or a query's window:
    /// limitToFirst or limitToLast and the limit).
    case stream(export: Bool, window: (first: Bool, limit: Int)?)
}

struct Request {
    var kind: Kind
    var path: [String]
    var silent = false
    var export = false
    /// If-Match: nil, "null_etag" or a tag that never matches.
    var ifMatch: String?
    var wantsETag = false
    var ifNoneMatch: String?
    /// The request asks for the connection to close (HTTP/1.0, Connection: close).
    var closes = false
    /// Refused from its head: answered at once, and the connection closed.
    var refusedEarly = false
    var bytes: [UInt8] = []
    var summary = ""
}

/// A path in the URL and its keys.
private func makePath(_ input: inout Input) -> (String, [String]) {
    let depth = Int(input.byte() % 4)
    var url = ""
    var keys: [String] = []
    for _ in 0..<depth {
        let (text, segment) = input.pick(segments)
        url += "/" + text
        keys += segment
    }
    if url.isEmpty || input.chance(16) { url += "/" }
    return (url, keys)
}

/// Serialises a request.
private func serialize(_ input: inout Input, method: String, target: String, headers: [(String, String)],
                       body: [UInt8]?, version: String = "HTTP/1.1") -> [UInt8] {
    var text = "\(method) \(target) \(version)\r\n"
    let host = input.pick(["localhost", "127.0.0.1", "[::1]", "", "LOCALHOST", "127.0.0.2"])
    if !host.isEmpty { text += "Host: \(host)\r\n" }
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    var bytes: [UInt8]
    guard let body else {
        text += "\r\n"
        return Array(text.utf8)
    }
    if input.chance(40) {
        // Chunked, in pieces of a size the input chooses (at most about a thousand).
        text += "Transfer-Encoding: chunked\r\n\r\n"
        bytes = Array(text.utf8)
        let size = max([1, 3, 100, 4096, 65536][Int(input.byte()) % 5], body.count / 1000)
        var at = 0
        while at < body.count {
            let n = min(size, body.count - at)
            bytes += Array(String(n, radix: 16).utf8) + [13, 10] + body[at..<(at + n)] + [13, 10]
            at += n
        }
        bytes += Array("0\r\n\r\n".utf8)
    } else {
        text += (input.chance(128) ? "Content-Length" : "content-length") + ": \(body.count)\r\n\r\n"
        bytes = Array(text.utf8) + body
    }
    return bytes
}

/// The server's limit on request bodies in these runs.
let maxRequestBytes = 180_000

/// Decodes one operation into requests; the second result says the
/// connection ends after them.
private func makeRequests(_ input: inout Input) -> ([Request], endsConnection: Bool) {
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

/// A request whose head is refused: always with a length (a chunked body
/// that is too large is read before it is refused).
private func serializeRaw(_ input: inout Input, method: String, target: String, headers: [(String, String)],
                          body: [UInt8]?) -> [UInt8] {
    var text = "\(method) \(target) HTTP/1.1\r\n"
    if !headers.contains(where: { $0.0 == "Host" }) { text += "Host: localhost\r\n" }
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    if let body { text += "Content-Length: \(body.count)\r\n" }
    return Array((text + "\r\n").utf8) + (body ?? [])
}

// MARK: The entry

private let logger = Logger(label: "fuzz-http", factory: { _ in SwiftLogNoOpLogHandler() })

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    var input = Input(bytes: ArraySlice(UnsafeBufferPointer(start: data, count: size)))
    run(&input)
    // Everything the input made is released before the next (and before
    // libFuzzer counts what was allocated and not freed).
    released.waitForAll()
    return 0
}

private func run(_ input: inout Input) {
    var configuration = LiveServerConfiguration()
    configuration.maxRequestBytes = maxRequestBytes
    let core: ServerCore
    do { core = try ServerCore(configuration: configuration, logger: logger) } catch {
        fatalError("FUZZ HARNESS: cannot make a server: \(error)")
    }
    released.watch(core, "the ServerCore")
    var checker = Checker(core: core)
    while !input.isEmpty {
        // One connection: raw bytes, or requests up to one that ends it.
        let chunk = input.pick([65536, 65537, 4096, 1000, 7, 1, 1 << 20, 16_384])
        if input.chance(12) {
            let bytes = input.take(input.uint16() * 3)
            checker.garbage(bytes, chunk: max(chunk, bytes.count / 1000))
            continue
        }
        var requests: [Request] = []
        let count = 1 + Int(input.byte() % 8)
        for _ in 0..<count where !input.isEmpty {
            let (made, ends) = makeRequests(&input)
            requests += made
            if ends { break }
        }
        // At most about a thousand pieces (a byte at a time for short exchanges).
        let total = requests.reduce(0) { $0 + $1.bytes.count }
        checker.run(requests, chunk: max(chunk, total / 1000))
    }
    checker.finish()
}

/// The program's entry (SwiftPM calls an executable's main `fuzz_http_main`):
/// hands over to libFuzzer.
@_cdecl("fuzz_http_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzHTTP(data, size) }
}
