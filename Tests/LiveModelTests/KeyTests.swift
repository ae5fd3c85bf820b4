import Testing
import LiveModel

@Suite("Key")
struct KeyTests {
    @Test("é (U+00E9) and e + U+0301 are different keys")
    func canonicalEquivalentsDiffer() throws {
        // Through the throwing initialiser (a literal argument would use the
        // literal initialiser).
        let composedText = "\u{E9}", decomposedText = "e\u{301}"
        let composed = try Key(composedText)
        let decomposed = try Key(decomposedText)
        #expect("\u{E9}" == "e\u{301}")  // Swift String merges them…
        #expect(composed != decomposed)   // …keys do not.
        #expect(Set([composed, decomposed]).count == 2)
        #expect(composed.hashValue != decomposed.hashValue || composed != decomposed)
        #expect(decomposed < composed)  // 'e' (0x65) < 'é' (0xE9) in UTF-16
        var dict: [Key: Int] = [:]
        dict[composed] = 1
        dict[decomposed] = 2
        #expect(dict.count == 2 && dict[composed] == 1 && dict[decomposed] == 2)
    }

    static let orderedKeys: [String] = [
        "-2147483648", "-1", "0", "-0", "00", "00000000000000000001", "7", "007", "9", "10", "2147483647",
        " 1", "+1", "-", "-2147483649", "-Nabc", "1e3", "2147483648", "A", "Z", "_", "a", "b", "😀", "｡",
    ]

    @Test("orderByKey table sorts and every pair compares consistently")
    func orderTable() throws {
        let keys = try Self.orderedKeys.map { try Key($0) }
        for i in keys.indices {
            for j in keys.indices {
                #expect((keys[i] < keys[j]) == (i < j), "\(keys[i]) vs \(keys[j])")
                #expect((keys[i] == keys[j]) == (i == j), "\(keys[i]) vs \(keys[j])")
            }
        }
        var generator = SplitMix64(seed: testSeed("orderTable"))
        for _ in 0..<20 {
            #expect(keys.shuffled(using: &generator).sorted() == keys)
        }
    }

    @Test("integer keys")
    func integerKeys() throws {
        #expect(Key("-2147483648").integerValue == Int32.min)
        #expect(Key("007").integerValue == 7)
        #expect(Key("-0").integerValue == 0)
        #expect(Key("2147483648").integerValue == nil)
        #expect(Key("-").integerValue == nil)
        #expect(Key("1e3").integerValue == nil)
        #expect(Key(42).string == "42")
        #expect(Key(-3) < Key(2))
    }

    @Test("invalid keys throw a KeyError with reason and byte position",
          arguments: [
              ("", KeyError.Reason.empty, 0),
              ("a.b", .forbiddenCharacter("."), 1),
              ("éa#", .forbiddenCharacter("#"), 3),
              ("$", .forbiddenCharacter("$"), 0),
              ("a/b", .forbiddenCharacter("/"), 1),
              ("x[", .forbiddenCharacter("["), 1),
              ("]", .forbiddenCharacter("]"), 0),
              ("tab\there", .forbiddenCharacter("\t"), 3),
              ("del\u{7F}", .forbiddenCharacter("\u{7F}"), 3),
          ] as [(String, KeyError.Reason, Int)])
    func invalidKeys(text: String, reason: KeyError.Reason, position: Int) {
        do {
            _ = try Key(text)
            Issue.record("\(text.debugDescription) was accepted")
        } catch {
            #expect(error.reason == reason)
            #expect(error.position == position)
            #expect(error.key == text)
            #expect(!error.isPath)
            #expect(!error.description.isEmpty)
        }
    }

    @Test("key length limit is 768 bytes of UTF-8")
    func keyLength() throws {
        _ = try Key(String(repeating: "a", count: 768))
        _ = try Key(String(repeating: "é", count: 384))
        #expect(throws: KeyError(key: String(repeating: "é", count: 385), isPath: false,
                                 reason: .tooLong(byteCount: 770, limit: 768), position: 768)) {
            try Key(String(repeating: "é", count: 385))
        }
    }

    @Test("Codable: encodes the text, decoding validates")
    func codable() throws {
        let value = try JSONValueEncoder().encode(["k": Key("a b")])
        #expect(value == ["k": "a b"])
        #expect(try JSONValueDecoder().decode(Key.self, from: "ok") == Key("ok"))
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Key.self, from: "a.b") }
        let dict = try JSONValueDecoder().decode([Key: Int].self, from: ["b": 2, "a": 1])
        #expect(dict == ["a": 1, "b": 2])
    }
}

@Suite("DatabasePath")
struct PathTests {
    @Test("parsing and printing")
    func parsing() throws {
        #expect(DatabasePath("/a/b").keys == ["a", "b"])
        #expect(DatabasePath("a/b/").description == "/a/b")
        #expect(DatabasePath("//a//b//").keys == ["a", "b"])
        let combining = "a/\u{301}b"  // "/" + U+0301 is one Character
        #expect(try DatabasePath(combining).keys.map(\.string) == ["a", "\u{301}b"])
        #expect(DatabasePath("/").isRoot)
        #expect(DatabasePath("").isRoot)
        #expect(DatabasePath.root.description == "/")
        let p: DatabasePath = "/users/ada/score"
        #expect(p.depth == 3)
        #expect(p.lastKey == "score")
        #expect(p.parent == "/users/ada")
        #expect(DatabasePath.root.parent == nil)
        #expect(try DatabasePath.root.child("x").child(Key("y")) == "/x/y")
        #expect(try p.appending(DatabasePath("a/b")) == "/users/ada/score/a/b")
        #expect(p.starts(with: "/users"))
        #expect(!p.starts(with: "/user"))
        #expect(p.relative(to: "/users") == "/ada/score")
        #expect(p.relative(to: "/other") == nil)
    }

    @Test("invalid paths")
    func invalid() throws {
        #expect(throws: KeyError(key: "/a/b.c", isPath: true, reason: .forbiddenCharacter("."), position: 4)) {
            let text = "/a/b.c"
            return try DatabasePath(text)
        }
        let deep = (0...32).map { "k\($0)" }.joined(separator: "/")
        do {
            _ = try DatabasePath(deep)
            Issue.record("33 segments accepted")
        } catch {
            #expect(error.reason == .tooDeep(depth: 33, limit: 32))
        }
        let keys = try (0..<32).map { try Key("k\($0)") }
        let full = try DatabasePath(keys)
        #expect(throws: KeyError.self) { try full.child("one-more") }
        let long = String(repeating: "a", count: 800)
        do {
            _ = try DatabasePath("/" + long)
            Issue.record("long path accepted")
        } catch {
            #expect(error.reason == .tooLong(byteCount: 801, limit: 768))
        }
    }
}
