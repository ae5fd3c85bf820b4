// WriteQueueLogTests.swift — the queue of writes as a log on disk: a change
// costs its own line, a crash mid-line loses only that change, a crafted
// file never traps, and a directory another user could write to is never
// read or written.
import Foundation
@testable import LiveFirebase
import LiveModel
import Testing

@Suite("WriteQueue log")
struct WriteQueueLogTests {
    static let reference = WriteQueueTests.reference

    static func header(_ cache: CollectionCache, format: Int = 2) -> String {
        #"{"format":\#(format),"identity":"# + JSONValue.string(cache.writesIdentity(reference)).jsonText() + "}\n"
    }

    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    @Test("n writes queued and answered write O(their bytes) to disk, not O(n²)")
    func linear() throws {
        let cache = CollectionCache(directory: OfflineWriteTests.directory())
        let queue = WriteQueue(cache: cache, reference: Self.reference)
        let path = try #require(queue.file)
        let count = 2_000
        for id in 1...count { queue.append(id, .set(try DatabasePath("/k\(id)"), ["n": .number(Double(id))])) }
        let queued = Self.size(path)
        // Each write's own line, and the header: no write written twice.
        #expect(queued < count * 80, "\(queued) bytes for \(count) writes")
        for id in 1...count / 2 {
            queue.setAttempted(id, true)
            queue.remove(id)
        }
        #expect(Self.size(path) < 3 * queued, "answered writes are written anew once their lines pass the queue's")
        let again = WriteQueue(cache: cache, reference: Self.reference)
        #expect(again.file == nil, "held by the first")
        _ = queue  // held until here
    }

    @Test("read back after changes: order, attempts and removals as they were")
    func replayed() throws {
        let cache = CollectionCache(directory: OfflineWriteTests.directory())
        do {
            let queue = WriteQueue(cache: cache, reference: Self.reference)
            for (i, write) in WriteQueueTests.writes.enumerated() { queue.append(i + 1, write) }
            queue.setAttempted(2, true)
            queue.setAttempted(3, true)
            queue.setAttempted(3, false)
            queue.remove(1)
            queue.remove(4)
        }
        let again = WriteQueue(cache: cache, reference: Self.reference)
        #expect(again.failure == nil)
        #expect(again.entries.map(\.id) == [2, 3, 5])
        #expect(again.entries.map(\.attempted) == [true, false, false])
        #expect(again.entries.map(\.write) == [WriteQueueTests.writes[1], WriteQueueTests.writes[2], WriteQueueTests.writes[4]])
    }

    @Test("a last line cut short is dropped and named; the log is written anew without it")
    func torn() throws {
        let cache = CollectionCache(directory: OfflineWriteTests.directory())
        try cache.makeDirectory()
        let path = cache.path(for: cache.writesIdentity(Self.reference), suffix: ".writes")
        try (Self.header(cache) + #"{"id":1,"write":{"set":"/a","value":1}}"# + "\n" + #"{"done":1}"# + "\n"
             + #"{"id":2,"write":{"remove":"/b"}}"# + "\n" + #"{"id":3,"write":{"se"#)
            .write(toFile: path, atomically: true, encoding: .utf8)
        do {
            let queue = WriteQueue(cache: cache, reference: Self.reference)
            #expect(queue.entries.map(\.id) == [2])
            #expect(queue.failure?.description.contains("cut short") == true)
            queue.append(4, .remove("/c"))
        }
        let again = WriteQueue(cache: cache, reference: Self.reference)
        #expect(again.entries.map(\.id) == [2, 4] && again.failure == nil)
    }

    @Test("crafted ids (beyond 2^52, zero, negative, repeated, out of order) are skipped and never trap")
    func craftedIDs() throws {
        let cache = CollectionCache(directory: OfflineWriteTests.directory())
        try cache.makeDirectory()
        let path = cache.path(for: cache.writesIdentity(Self.reference), suffix: ".writes")
        var text = Self.header(cache, format: 1)
        for id in ["9223372036854775807", "-9223372036854775808", "0", "1e300", "1.5", "3", "3", "2", "\"4\""] {
            text += #"{"id":\#(id),"write":{"remove":"/a"}}"# + "\n"
        }
        text += #"{"mark":9223372036854775807,"attempted":true}"# + "\n" + #"{"done":-1}"# + "\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let queue = WriteQueue(cache: cache, reference: Self.reference)
        #expect(queue.entries.map(\.id) == [3])
        #expect(queue.failure != nil)
    }

    @Test("a directory another user could write to is refused: a planted queue is neither read nor sent")
    func foreignDirectory() throws {
        let directory = OfflineWriteTests.directory()
        let cache = CollectionCache(directory: directory)
        let path = cache.path(for: cache.writesIdentity(Self.reference), suffix: ".writes")
        try (Self.header(cache) + #"{"id":1,"write":{"set":"/admin","value":true}}"# + "\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        chmod(directory, 0o777)
        var queue = WriteQueue(cache: cache, reference: Self.reference)
        #expect(queue.entries.isEmpty && queue.file == nil)
        #expect(queue.failure?.description.contains("chmod 700") == true, "\(String(describing: queue.failure))")
        if geteuid() == 0 {
            // Owned by someone else (root can give it away).
            chmod(directory, 0o700)
            chown(directory, 65534, 65534)
            queue = WriteQueue(cache: cache, reference: Self.reference)
            #expect(queue.entries.isEmpty && queue.failure?.description.contains("belongs to user 65534") == true)
        }
    }

    @Test("a queue file that is a symbolic link is not followed")
    func link() throws {
        let directory = OfflineWriteTests.directory()
        let cache = CollectionCache(directory: directory)
        let path = cache.path(for: cache.writesIdentity(Self.reference), suffix: ".writes")
        try (Self.header(cache) + #"{"id":1,"write":{"remove":"/a"}}"# + "\n")
            .write(toFile: directory + "/elsewhere", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: directory + "/elsewhere")
        let queue = WriteQueue(cache: cache, reference: Self.reference)
        #expect(queue.entries.isEmpty && queue.file == nil && queue.failure != nil)
    }
}
