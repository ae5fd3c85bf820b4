// ValueDigestTests.swift — a snapshot's digest: the same for every spelling
// of a value, different when the value or a priority differs, and the same
// for a child and for the whole document holding that value.

@testable import LiveModel
import Testing

@Suite struct ValueDigestTests {
    private func digest(_ json: String) throws -> ValueDigest {
        try Snapshot.parse(json: json).digest()
    }

    @Test("one value, spelled several ways, has one digest")
    func spellings() throws {
        let groups = [
            [#"{"a":1,"b":[true,null,"x"]}"#, #"{"b":{"2":"x","0":true},"a":1.0,"z":null}"#],
            [#"{"t":"\u00e9","n":-0}"#, #"{"n":0,"t":"é"}"#],
            [#"{".value":5,".priority":"p"}"#, #"{".priority":"p",".value":5e0}"#],
        ]
        for group in groups {
            let digests = try group.map(digest)
            #expect(Set(digests).count == 1, "\(group): \(digests)")
        }
    }

    @Test("a different value, or a different priority, has another digest")
    func differences() throws {
        let values = [#"{"a":1}"#, #"{"a":2}"#, #"{"a":"1"}"#, #"{"b":1}"#, #"{"a":{"b":1}}"#,
                      #"{"a":1,".priority":1}"#, #"{"a":{".value":1,".priority":1}}"#, #"{"a":true}"#]
        let digests = try values.map(digest)
        #expect(Set(digests).count == values.count, "\(zip(values, digests).map { "\($0) \($1)" })")
    }

    @Test("without priorities, only the value counts, as `value` compares")
    func valueOnly() throws {
        let a = try Snapshot.parse(json: #"{"a":{".value":1,".priority":2},".priority":3}"#)
        let b = try Snapshot.parse(json: #"{"a":1}"#)
        #expect(a.digest(priorities: false) == b.digest(priorities: false))
        #expect(a.digest() != b.digest())
        #expect(a.value == b.value)
    }

    @Test("a child's digest is that of a document holding its value; nothing has the absent digest")
    func childAndDocument() throws {
        let parent = try Snapshot.parse(json: #"{"x":{"b":2,"a":1},"y":"s"}"#)
        let children = Dictionary(uniqueKeysWithValues: parent.children.map { ($0.key!, $0.digest()) })
        #expect(children["x"] == (try digest(#"{"a":1,"b":2}"#)))
        #expect(children["y"] == (try digest(#""s""#)))
        #expect(try digest("null") == .absent)
        #expect(try digest(#"{"a":{}}"#) == .absent)
        #expect(Snapshot.absent(key: "k").digest() == .absent)
        #expect(try digest("1") != .absent)
        #expect(ValueDigest.absent.description == String(repeating: "0", count: 32))
    }

    @Test("holdsSameData: the same text at once, another spelling by digest, priorities only when asked")
    func sameData() throws {
        func child(_ json: String) throws -> Snapshot { try Snapshot.parse(json: #"{"k":"# + json + "}").child("k") }
        let a = try child(#"{"x":1,"y":"é"}"#)
        #expect(a.holdsSameData(as: try child(#"{"x":1,"y":"é"}"#), priorities: true))
        #expect(a.holdsSameData(as: try child(#"{"y":"\u00e9","x":1.0}"#), priorities: true))
        #expect(!a.holdsSameData(as: try child(#"{"x":2,"y":"é"}"#), priorities: false))
        let p = try child(#"{"x":1,"y":"é",".priority":3}"#)
        #expect(a.holdsSameData(as: p, priorities: false) && !a.holdsSameData(as: p, priorities: true))
        #expect(Snapshot.absent(key: "k").holdsSameData(as: .absent(key: "j"), priorities: true))
        #expect(!a.holdsSameData(as: .absent(key: "k"), priorities: false))
        #expect(!Snapshot.absent(key: "k").holdsSameData(as: a, priorities: false))
    }
}
