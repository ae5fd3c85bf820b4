import Testing
import LiveModel

@Suite("Snapshot")
struct SnapshotTests {
    @Test("children in document order, values read lazily, count without parsing")
    func children() throws {
        let snapshot = try Snapshot.parse(json: #"{"b": {"n": 2}, "a": "x", "c": [true]}"#, key: "list")
        #expect(snapshot.key == "list")
        #expect(snapshot.exists)
        #expect(snapshot.childrenCount == 3)
        #expect(snapshot.children.keys == ["b", "a", "c"])
        let b = snapshot.children[0]
        #expect(b.key == "b")
        #expect(b.value == ["n": 2])
        #expect(snapshot.children[1].value == "x")
        #expect(snapshot.children[2].value == ["0": true])  // arrays are objects keyed 0, 1, …
        #expect(snapshot.value == ["b": ["n": 2], "a": "x", "c": ["0": true]])
        #expect(snapshot.children.map(\.key) == ["b", "a", "c"])
        #expect(b.children.keys == ["n"])
        #expect(b.child("n").value == 2)
    }

    @Test("arrays with holes: null elements are absent children")
    func arraysWithHoles() throws {
        let snapshot = try Snapshot.parse(json: "[10, null, 30, null]")
        #expect(snapshot.key == nil)
        #expect(snapshot.children.keys == ["0", "2"])
        #expect(snapshot.value == ["0": 10, "2": 30])
        #expect(try snapshot.decode([Int?].self) == [10, nil, 30])
        #expect(!snapshot.child("1").exists)
        let nested = try Snapshot.parse(json: #"{"list": [null, "a", null, "b"]}"#)
        #expect(nested.child("list").children.keys == ["1", "3"])
        #expect(nested.child(at: "list/3").value == "b")
    }

    @Test("null members and empty containers are absent")
    func absentMembers() throws {
        let snapshot = try Snapshot.parse(json: #"{"a": null, "b": {}, "c": {"d": null}, "e": 1, "f": []}"#)
        #expect(snapshot.children.keys == ["e"])
        #expect(snapshot.value == ["e": 1])
        #expect(!(try Snapshot.parse(json: "null")).exists)
        #expect(!(try Snapshot.parse(json: "{}")).exists)
        #expect(!(try Snapshot.parse(json: #"{"x": {"y": null}}"#)).exists)
        #expect(try Snapshot.parse(json: "null").value == nil)
    }

    @Test("export format: priorities and .value wrappers")
    func exportFormat() throws {
        let json = #"{".priority": 3, "a": {".value": 5, ".priority": 1}, "b": {".priority": "x", "c": {".priority": 2, ".value": "v"}}, "d": true}"#
        let snapshot = try Snapshot.parse(json: json)
        #expect(snapshot.priority == .number(3))
        #expect(snapshot.children.keys == ["a", "b", "d"])
        let a = snapshot.child("a"), b = snapshot.child("b"), d = snapshot.child("d")
        #expect(a.value == 5 && a.priority == .number(1))
        #expect(b.value == ["c": "v"] && b.priority == .string("x"))
        #expect(b.child("c").priority == .number(2))
        #expect(b.child("c").value == "v")
        #expect(d.priority == nil)
        #expect(snapshot.value == ["a": 5, "b": ["c": "v"], "d": true])
        // Default (priority) order: sort values are the priorities.
        #expect(snapshot.children.map(\.sortValue) == [.number(1), .string("x"), .null])
    }

    @Test("sort values follow the order given at parse time")
    func sortValues() throws {
        let json = #"{"x": {"score": 5, "user": {"name": "b"}}, "y": {"score": "s"}, "z": 7}"#
        let byChild = try Snapshot.parse(json: json, order: .child("score"))
        #expect(byChild.children.map(\.sortValue) == [.number(5), .string("s"), .null])
        let byNested = try Snapshot.parse(json: json, order: .child("user/name"))
        #expect(byNested.children.map(\.sortValue) == [.string("b"), .null, .null])
        let byValue = try Snapshot.parse(json: json, order: .value)
        #expect(byValue.children.map(\.sortValue) == [.object, .object, .number(7)])
        let byKey = try Snapshot.parse(json: json, order: .key)
        #expect(byKey.children.map(\.sortValue) == [.null, .null, .null])
        // The same as computing them from the values.
        for child in byChild.children {
            #expect(child.sortValue == QueryOrder.child("score").sortValue(of: child.value, priority: child.priority))
        }
    }

    @Test("a .value wrapper at the top is a leaf")
    func valueWrapperAtTop() throws {
        let snapshot = try Snapshot.parse(json: #"{".value": "v", ".priority": 2}"#)
        #expect(snapshot.value == "v")
        #expect(snapshot.priority == .number(2))
        #expect(!snapshot.hasChildren)
        #expect(snapshot.exists)
        #expect(!(try Snapshot.parse(json: #"{".value": null, ".priority": 1}"#)).exists)
    }

    @Test("primitive at the top")
    func leafRoot() throws {
        let snapshot = try Snapshot.parse(json: " 42 ", key: "n")
        #expect(snapshot.exists && snapshot.value == 42)
        #expect(snapshot.childrenCount == 0 && !snapshot.hasChildren)
        #expect(!snapshot.child("x").exists)
        #expect(snapshot.child("x").key == "x")
    }

    @Test("paths, canonically equivalent keys, duplicates")
    func childLookups() throws {
        let snapshot = try Snapshot.parse(json: #"{"\u00e9": 1, "e\u0301": 2, "k": 1, "k": {"deep": {"er": true}}}"#)
        let composedText = "\u{E9}", decomposedText = "e\u{301}"
        #expect(snapshot.child(try Key(composedText)).value == 1)
        #expect(snapshot.child(try Key(decomposedText)).value == 2)
        #expect(snapshot.childrenCount == 3)
        #expect(snapshot.child(at: "k/deep/er").value == true)
        #expect(snapshot.hasChild(at: "k/deep"))
        #expect(!snapshot.hasChild(at: "k/deep/er/x"))
        #expect(!snapshot.hasChild(at: "nope/deep"))
        #expect(snapshot.child(at: .root).value == snapshot.value)
    }

    @Test("decode and models")
    func decoding() throws {
        struct Item: LiveModelProtocol, Codable, Equatable {
            var identifier: Key
            var title: String
            var tags: [String]?
        }
        let snapshot = try Snapshot.parse(json: #"{"i1": {"title": "One", "tags": ["a", "b"]}, "i2": {"title": "Two"}}"#)
        let items = try snapshot.children.map { try Item(snapshot: $0) }
        #expect(items == [Item(identifier: "i1", title: "One", tags: ["a", "b"]), Item(identifier: "i2", title: "Two")])
        #expect(try snapshot.child("i2").decode([String: String].self) == ["title": "Two"])
        #expect(throws: DecodingError.self) { try Item(snapshot: snapshot) }  // the root has no key
    }

    @Test("bad input: code, line, column and byte position",
          arguments: [
              ("{\n  \"a\": 1,\n  \"b\": }", ParseError.Code.jsonSyntax, 3, nil),
              ("[1, 2", .jsonTruncated, 1, nil),
              ("{} {}", .jsonTrailing, 1, nil),
              ("{\n  \"ok\": 1,\n  \"a.b\": 2}", .keyInvalid, 3, 15),
              ("{\"\": 1}", .keyInvalid, 1, 1),
              ("{\"a\": {\".priority\": true}}", .valueInvalid, 1, nil),
              ("[\"\\u0000\"]", .nulCharacter, 1, nil),
              ("[1e999]", .numberRange, 1, nil),
          ] as [(String, ParseError.Code, Int, Int?)])
    func badInput(json: String, code: ParseError.Code, line: Int, position: Int?) {
        do {
            _ = try Snapshot.parse(json: json)
            Issue.record("\(json.debugDescription) was accepted")
        } catch {
            #expect(error.code == code, "\(error)")
            #expect(error.line == line, "\(error)")
            #expect(error.column > 0, "\(error)")
            if let position { #expect(error.position == position, "\(error)") }
            #expect(!error.message.isEmpty)
        }
    }

    @Test("depth limit: 32 levels")
    func depth() throws {
        let ok = String(repeating: "[", count: 32) + "1" + String(repeating: "]", count: 32)
        #expect(try Snapshot.parse(json: ok).exists)
        let deep = String(repeating: "[", count: 33) + "1" + String(repeating: "]", count: 33)
        #expect(throws: ParseError.self) { try Snapshot.parse(json: deep) }
        do { _ = try Snapshot.parse(json: deep) } catch { #expect(error.code == .tooDeep) }
    }

    @Test("invalid UTF-8 bytes")
    func invalidUTF8() {
        do {
            _ = try Snapshot.parse(json: [UInt8(ascii: "\""), 0xFF, UInt8(ascii: "\"")])
            Issue.record("accepted")
        } catch {
            #expect(error.code == .invalidUTF8)
        }
    }

    @Test("large documents: many children, random access")
    func large() throws {
        var generator = SplitMix64(seed: testSeed("Snapshot large"))
        let count = 20_000
        var text = "{"
        for i in 0..<count {
            if i > 0 { text += "," }
            text += "\"k\(i)\":{\"score\":\(i % 97),\"name\":\"n\(i)\"}"
        }
        text += "}"
        let snapshot = try Snapshot.parse(json: text, order: .child("score"))
        #expect(snapshot.childrenCount == count)
        for _ in 0..<200 {
            let i = Int.random(in: 0..<count, using: &generator)
            let child = snapshot.children[i]
            #expect(child.key == Key(i).prefixed("k"))
            #expect(child.sortValue == .number(Double(i % 97)))
            #expect(child.value["name"] == .string("n\(i)"))
        }
    }

    @Test("snapshots are shared safely between tasks")
    func concurrentReads() async throws {
        let snapshot = try Snapshot.parse(json: #"{"a": {"x": 1}, "b": {"x": 2}, "c": {"x": 3}}"#)
        let sums = await withTaskGroup(of: Double.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    snapshot.children.reduce(0) { $0 + ($1.value["x"]?.numberValue ?? 0) }
                }
            }
            return await group.reduce(into: [Double]()) { $0.append($1) }
        }
        #expect(sums == Array(repeating: 6, count: 16))
    }
}

extension Key {
    /// `"k" + key`, for building expected keys in tests.
    func prefixed(_ prefix: String) -> Key { try! Key(prefix + string) }
}

@Suite("StreamPayload")
struct StreamPayloadTests {
    @Test("put: path and data")
    func put() throws {
        let payload = try StreamPayload.parse(json: #"{"path": "/rooms/r1", "data": {"name": "Lobby", ".priority": 1}}"#, kind: .put)
        #expect(payload.kind == .put)
        #expect(payload.path == "/rooms/r1")
        #expect(payload.data.key == "r1")
        #expect(payload.data.value == ["name": "Lobby"])
        #expect(payload.data.priority == .number(1))
        #expect(payload.updates.count == 1)
        #expect(payload.updates[0].path == .root)
        let root = try StreamPayload.parse(json: #"{"path": "/", "data": null}"#, kind: .put)
        #expect(root.path.isRoot && root.data.key == nil && !root.data.exists)
    }

    @Test("patch: members are relative paths")
    func patch() throws {
        let payload = try StreamPayload.parse(
            json: #"{"path": "/users", "data": {"ada/score": 3, "bob": {"name": "Bob"}}}"#, kind: .patch)
        let updates = payload.updates
        #expect(updates.map(\.path) == ["/ada/score", "/bob"])
        #expect(updates.map(\.value.key) == ["score", "bob"])
        #expect(updates[0].value.value == 3)
        #expect(updates[1].value.value == ["name": "Bob"])
        #expect(throws: ParseError.self) {
            try StreamPayload.parse(json: #"{"path": "/", "data": {"a/b.c": 1}}"#, kind: .patch)
        }
    }

    @Test("patch: a null member is a deletion")
    func patchDeletion() throws {
        let payload = try StreamPayload.parse(
            json: #"{"path": "/users", "data": {"ada": null, "bob/age": 4, "cy": {}, "dee/x": {"y": null}, "eve": {".value": 1}}}"#,
            kind: .patch)
        let updates = payload.updates
        #expect(updates.map(\.path) == ["/ada", "/bob/age", "/cy", "/dee/x", "/eve"])  // the payload's order
        #expect(updates.map(\.value.exists) == [false, true, false, false, true])
        #expect(updates.map(\.value.key) == ["ada", "age", "cy", "x", "eve"])
        #expect(updates[4].value.value == 1)
    }

    @Test("payload errors",
          arguments: [
              (#"[1]"#, ParseError.Code.payloadShape),
              (#"{"data": 1}"#, .payloadShape),
              (#"{"path": 1, "data": 1}"#, .payloadShape),
              (#"{"path": "/a.b", "data": 1}"#, .pathInvalid),
              (#"{"path": "/", "data": {"a": 1}"#, .jsonTruncated),
          ] as [(String, ParseError.Code)])
    func errors(json: String, code: ParseError.Code) {
        do {
            _ = try StreamPayload.parse(json: json, kind: .put)
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.code == code, "\(error)")
        }
    }
}
