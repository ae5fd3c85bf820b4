// Input.swift — fuzz-http's input, read a byte at a time, and the alphabet its requests are built from.

import Logging
import LiveModel
@testable import LiveServer
import NIOHTTP1

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
let segments: [(url: String, keys: [String])] = [
    ("a", ["a"]), ("b", ["b"]), ("c", ["c"]), ("%61", ["a"]), ("0", ["0"]), ("1", ["1"]), ("10", ["10"]),
    ("caf%C3%A9", ["café"]), ("a%20b", ["a b"]), ("-x", ["-x"]), ("_", ["_"]), ("%CE%A9", ["Ω"]), ("s", ["s"]),
    ("a%2Fb", ["a", "b"]), ("", []),
]
/// Segments that make a path invalid (answered 400 from the head).
let badSegments = ["%ZZ", "a.b", "%2E", "x%00", "%C3", "%5B", "$x", "a%", "%7F"]
/// Keys of members in bodies.
let bodyKeys = ["a", "b", "c", "0", "1", "10", "café", "a b", "-x", "_", "Ω", "s"]
let numbers: [(String, Double)] = [
    ("0", 0), ("1", 1), ("-1", -1), ("2.5", 2.5), ("1e21", 1e21), ("123456789012345", 123456789012345), ("0.1", 0.1),
    // (2^53 + 1 reads as the nearest double, 2^53.)
    ("-0.0", -0.0), ("1E-7", 1e-7), ("9007199254740993", 9007199254740992), ("-17", -17), ("3.0", 3),
]
let strings = ["x", "", "café", "line\nbreak", "quote\"", "\u{1F600}", "tab\t", "<script>", "a/b.c", "\\"]

/// Whether the server refuses a write.
enum Refusal: Int, Comparable {
    case never, maybe, always
    static func < (a: Refusal, b: Refusal) -> Bool { a.rawValue < b.rawValue }
}

/// Server values and priorities (written in the export format), and
/// whether the server refuses them (an increment past the largest finite
/// number is refused: maybe).
let subtleBodies: [(text: String, refused: Refusal)] = [
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
let repeatedNames: [(String, JSONValue)] = {
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
let badBodies = [
    "{", "[1,]", #"{"a":}"#, "nul", #"{"a.b":1}"#, #"{"$x":1}"#, #"{"a":1} x"#, "", #"{"a":[1,2}"#,
    String(repeating: #"{"a":"#, count: 40) + "1" + String(repeating: "}", count: 40),
]
