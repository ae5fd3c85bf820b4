// Input.swift — fuzz-stream's input, read a byte at a time, and what its events are made of.

import Foundation
@testable import LiveFirebase
import LiveModel

/// Reads the fuzz input a byte at a time; zero once it is used up.
struct Input {
    var bytes: ArraySlice<UInt8>
    var isEmpty: Bool { bytes.isEmpty }
    mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }
    mutating func uint16() -> Int { Int(byte()) | Int(byte()) << 8 }
    mutating func take(_ n: Int) -> [UInt8] {
        let part = bytes.prefix(n)
        bytes = bytes.dropFirst(part.count)
        return Array(part)
    }
}

/// Where the stream starts: its query URL, and the host whose domain the
/// credential may follow a redirect to.
let origins = [
    "https://db.example.com/rooms.json?orderBy=%22%24key%22",
    "http://127.0.0.1:9000/rooms.json",
    "https://db.example.com:8443/a/b.json",
    "http://localhost:9000/rooms.json?auth=TOKEN",
]

/// Redirect locations: the same host (absolute, relative), a server of the
/// same domain, other hosts, https → http, unusable ones.
let locations: [String?] = [
    "/other/rooms.json?ns=x",
    "next.json",
    "https://db.example.com/x.json",
    "https://s-nss-2.example.com:9001/rooms.json?auth=abc",
    "http://db.example.com/rooms.json",
    "https://evil.test/rooms.json",
    "//evil.test/x.json",
    "https://a.b.example.com/x.json",
    "https://example.com/x.json",
    "ftp://x/y",
    "http://",
    "",
    nil,
    "HTTPS://DB.EXAMPLE.COM/up.json",
    "https://db.example.com.evil.test/x.json",
    "http://127.0.0.1:9001/x.json",
    "https://127.0.0.1:9001/x.json",
    "http://localhost:9001/x.json",
    "https://db.example.com@evil.test/x.json",
    "https://evil.test#@db.example.com/x.json",
    "https://evil.test\\@db.example.com/",
    "https://xn--db-example.com/x.json",
    "http://[::1]:9000/x.json",
    "https://db.example.com:443/x.json",
]

/// The numbers of events handed over whole start here.
let wholeEvents = 1_000_000

let errorStatuses = [401, 403, 404, 400, 408, 429, 500, 503, 204, 299, 600, 100, 0, 302, 418, 599]

/// The JSON of a value chosen by a byte; `large`, the input's bytes as a
/// string, when asked.
func dataText(_ choice: UInt8, large: [UInt8]) -> String {
    switch choice % 8 {
    case 0: return "1"
    case 1: return #""text""#
    case 2: return #"{"a":1,"b":{"c":true}}"#
    case 3: return "null"
    case 4: return #"[1,2,{"x":"y"}]"#
    case 5: return #""\u00e9\n\"q\"""#
    case 6:
        // (NUL, which the database refuses in text, read as a space.)
        return JSONValue.string(String(decoding: large.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)).jsonText()
    default: return #"{"k":{".priority":1,".value":"v"}}"#
    }
}
