// Request.swift — a request as the model sees it, and how its path, body and bytes are made.

import Logging
import LiveModel
@testable import LiveServer
import NIOHTTP1

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

func makeBody(_ input: inout Input) -> Body {
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
func makePath(_ input: inout Input) -> (String, [String]) {
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
func serialize(_ input: inout Input, method: String, target: String, headers: [(String, String)],
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

/// A request whose head is refused: always with a length (a chunked body
/// that is too large is read before it is refused).
func serializeRaw(_ input: inout Input, method: String, target: String, headers: [(String, String)],
                          body: [UInt8]?) -> [UInt8] {
    var text = "\(method) \(target) HTTP/1.1\r\n"
    if !headers.contains(where: { $0.0 == "Host" }) { text += "Host: localhost\r\n" }
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    if let body { text += "Content-Length: \(body.count)\r\n" }
    return Array((text + "\r\n").utf8) + (body ?? [])
}
