// WriteQueueTests.swift — the queue of writes on disk: kept in order across
// runs, one holder at a time, never read from a file that is not its own.
import Foundation
@testable import LiveFirebase
import Testing

@Suite("WriteQueue")
struct WriteQueueTests {
    static let reference = try! DatabaseReference(url: "http://127.0.0.1:9", path: "/items")

    static let writes: [DatabaseWrite] = [
        .set("/a", ["s": 1, "t": [".sv": "timestamp"]]),
        .set("/a/s", 2, ifMatch: "etag\"1"),
        .update("/", ["a/s": 3, "b": .null, "c d/é": ["x": [1, 2]]]),
        .remove("/b"),
        .remove("/c", ifMatch: "e"),
    ]

    @Test("each kind of write is kept as JSON and read back the same")
    func json() throws {
        for write in Self.writes {
            #expect(try DatabaseWrite(json: write.json) == write)
        }
        #expect(throws: DatabaseError.self) { try DatabaseWrite(json: ["put": "/a"]) }
        #expect(throws: DatabaseError.self) { try DatabaseWrite(json: ["set": "/a b/\u{7f}"]) }
    }

    @Test("the queue is on disk after each change, and read back in order by the next run")
    func persisted() throws {
        let cache = CollectionCache(directory: OfflineWriteTests.directory())
        do {
            let queue = WriteQueue(cache: cache, reference: Self.reference)
            #expect(queue.failure == nil && queue.file != nil)
            for (i, write) in Self.writes.enumerated() { queue.append(i + 1, write) }
            queue.setAttempted(1, true)
            queue.remove(2)
            let second = WriteQueue(cache: cache, reference: Self.reference)
            #expect(second.file == nil && second.failure != nil, "held by the first")
        }
        let again = WriteQueue(cache: cache, reference: Self.reference)
        #expect(again.entries.map(\.id) == [1, 3, 4, 5])
        #expect(again.entries.map(\.attempted) == [true, false, false, false])
        #expect(again.entries.map(\.write) == [Self.writes[0]] + Self.writes[2...])
        for id in [1, 3, 4, 5] { again.remove(id) }
        #expect(!FileManager.default.fileExists(atPath: again.file ?? ""), "an empty queue leaves no file")
    }

    @Test("a line that is not a write is skipped and named; a file of another location is left alone")
    func damaged() throws {
        let cache = CollectionCache(directory: OfflineWriteTests.directory())
        let path = cache.path(for: cache.writesIdentity(Self.reference), suffix: ".writes")
        let header = #"{"format":1,"identity":"# + JSONValue.string(cache.writesIdentity(Self.reference)).jsonText() + "}"
        try (header + "\n" + #"{"id":1,"write":{"set":"/a","value":1}}"# + "\nnot json\n"
             + #"{"id":2,"write":{"remove":"/b"}}"# + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        do {
            let queue = WriteQueue(cache: cache, reference: Self.reference)
            #expect(queue.entries.map(\.id) == [1, 2])
            #expect(queue.failure != nil)
        }
        try (#"{"format":1,"identity":"someone else"}"# + "\n" + #"{"id":1,"write":{"set":"/a","value":1}}"# + "\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let foreign = WriteQueue(cache: cache, reference: Self.reference)
        #expect(foreign.entries.isEmpty && foreign.file == nil && foreign.failure != nil)
        foreign.append(1, .remove("/a"))
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("someone else"), "not written over")
    }
}
