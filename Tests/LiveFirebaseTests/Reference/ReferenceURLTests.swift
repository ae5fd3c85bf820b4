// ReferenceURLTests.swift — database URLs accepted and refused, and the
// REST URLs of locations: percent-encoding of odd keys, ns=.

@testable import LiveFirebase
import LiveModel
import Testing

@Suite struct ReferenceURLTests {
    /// Accepted URLs: the text, then scheme, host, port, namespace and the
    /// REST URL of the root.
    static let accepted: [(String, String, String, Int?, String?, String)] = [
        ("https://my-app-default-rtdb.firebaseio.com", "https", "my-app-default-rtdb.firebaseio.com", nil, nil,
         "https://my-app-default-rtdb.firebaseio.com/.json"),
        ("https://my-app.europe-west1.firebasedatabase.app/", "https", "my-app.europe-west1.firebasedatabase.app",
         nil, nil, "https://my-app.europe-west1.firebasedatabase.app/.json"),
        ("http://127.0.0.1:9000?ns=my-app", "http", "127.0.0.1", 9000, "my-app", "http://127.0.0.1:9000/.json?ns=my-app"),
        ("http://localhost:9000/?ns=demo%20db", "http", "localhost", 9000, "demo db",
         "http://localhost:9000/.json?ns=demo%20db"),
        ("HTTPS://Example.COM:443", "https", "example.com", 443, nil, "https://example.com:443/.json"),
        ("http://[::1]:9000", "http", "::1", 9000, nil, "http://[::1]:9000/.json"),
        ("https://db.example.com?", "https", "db.example.com", nil, nil, "https://db.example.com/.json"),
    ]

    /// Refused URLs and a part of the reason.
    static let refused: [(String, String)] = [
        ("", "scheme"),
        ("db.example.com", "scheme"),
        ("ftp://db.example.com", "scheme"),
        ("wss://db.example.com", "scheme"),
        ("https://", "no host"),
        ("https:///path", "no host"),
        ("https://db.example.com/rooms", "no path"),
        ("https://db.example.com/.json", "no path"),
        ("https://db.example.com#top", "fragment"),
        ("https://user:hunter2@db.example.com", "user information"),
        ("https://db.example.com?auth=SECRET-TOKEN", "only the query parameter ns"),
        ("https://db.example.com?ns=", "only the query parameter ns"),
        ("https://db.example.com?ns", "only the query parameter ns"),
        ("https://db.example.com?ns=a&ns=b", "more than once"),
        ("https://db.example.com:0", "out of range"),
        ("https://db.example.com:99999", "out of range"),
        ("https://db example.com", "not a URL"),
    ]

    @Test(arguments: accepted.indices)
    func accepts(_ index: Int) throws {
        let (text, scheme, host, port, namespace, root) = Self.accepted[index]
        let url = try DatabaseURL(text)
        #expect(url.scheme == scheme)
        #expect(url.host == host)
        #expect(url.port == port)
        #expect(url.namespace == namespace)
        #expect(url.restURL(for: .root).absoluteString == root)
        // The description parses back to the same database.
        #expect(try DatabaseURL(url.description) == url, "\(url)")
    }

    @Test(arguments: refused.indices)
    func refuses(_ index: Int) {
        let (text, reason) = Self.refused[index]
        do {
            let url = try DatabaseURL(text)
            Issue.record("accepted \(text) as \(url)")
        } catch {
            guard case .invalidURL(_, let message) = error else {
                Issue.record("\(text): \(error)")
                return
            }
            #expect(message.contains(reason), "\(text): \(message)")
            // Secrets in a refused URL do not reach the error.
            #expect(!error.description.contains("SECRET-TOKEN"))
            #expect(!error.description.contains("hunter2"))
        }
    }

    static let oddKeys: [(String, String)] = [
        ("a b", "a%20b"), ("a+b", "a%2Bb"), ("100%", "100%25"), ("k&v", "k%26v"), ("k=v", "k%3Dv"),
        ("q?", "q%3F"), ("é", "%C3%A9"), ("e\u{301}", "e%CC%81"), ("😀", "%F0%9F%98%80"), ("~-_", "~-_"),
        ("\"'<>\\`{}|^", "%22%27%3C%3E%5C%60%7B%7D%7C%5E"), ("semi;colon,", "semi%3Bcolon%2C"), ("@:!*()", "%40%3A%21%2A%28%29"),
    ]

    @Test(arguments: oddKeys.indices)
    func restURLEncodesOddKeys(_ index: Int) throws {
        let (key, encoded) = Self.oddKeys[index]
        let database = try DatabaseURL("https://db.example.com")
        let path = try DatabasePath([Key("list"), Key(key)])
        #expect(database.restURL(for: path).absoluteString == "https://db.example.com/list/\(encoded).json")
    }

    @Test func canonicallyEquivalentKeysGiveDistinctURLs() throws {
        let database = try DatabaseURL("https://db.example.com")
        let composed = database.restURL(for: try DatabasePath([Key("é")]))
        let decomposed = database.restURL(for: try DatabasePath([Key("e\u{301}")]))
        #expect(composed != decomposed)
        #expect(composed.absoluteString != decomposed.absoluteString)
    }

    @Test func namespaceComesLastAndEncoded() throws {
        let database = try DatabaseURL("http://127.0.0.1:9000?ns=my-app")
        let url = database.restURL(for: "/a/b", parameters: [("orderBy", #""$key""#), ("print", "silent")])
        #expect(url.absoluteString == "http://127.0.0.1:9000/a/b.json?orderBy=%22%24key%22&print=silent&ns=my-app")
        let odd = try DatabaseURL("http://localhost:1?ns=a%26b")
        #expect(odd.namespace == "a&b")
        #expect(odd.restURL(for: .root).absoluteString == "http://localhost:1/.json?ns=a%26b")
    }

    @Test func referenceJoinsPathsAndRefusesTooDeep() throws {
        let reference = try DatabaseReference(url: "https://db.example.com", path: "/rooms/lobby")
        #expect(try reference.child("messages/m1").path == "/rooms/lobby/messages/m1")
        #expect(reference.description == "https://db.example.com/rooms/lobby")
        let deep = try DatabasePath((0..<31).map { Key($0) })
        #expect(throws: DatabaseError.self) { try reference.child(deep) }
        #expect(throws: DatabaseError.self) { try DatabaseReference(url: "https://db.example.com", path: "/a.b") }
    }
}
