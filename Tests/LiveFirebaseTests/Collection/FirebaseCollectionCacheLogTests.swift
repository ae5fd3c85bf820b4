// FirebaseCollectionCacheLogTests.swift — the disk cache as a log: a save
// appends the children that changed, read back as one value; written whole
// when the changes would outgrow the children, when another writer changed
// the file, and never when the children are over the limit.
import Foundation
@testable import LiveFirebase
import LiveModel
import Testing

@MainActor
@Suite("FirebaseCollection's disk cache as a log")
struct FirebaseCollectionCacheLogTests {
    typealias Tests = FirebaseCollectionSetQueryTests
    typealias Fixture = FirebaseCollectionCacheTests

    static func size(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
    }

    static func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// The children a fresh read of the file holds, as `key=s` text.
    static func read(_ cache: CollectionCache, _ identity: String) throws -> [String] {
        let read = try #require(cache.load(identity, order: .child("s")))
        return read.payload.data.orderedChildren().map { "\($0.key!)=\($0.value["s"]?.jsonText() ?? "-")" }
    }

    /// A collection of `n` children with a cache, saved once.
    static func saved(_ n: Int) async throws -> (CollectionCache, Fixture.Collection) {
        let cache = CollectionCache(directory: Fixture.directory())
        let c = try Fixture.make(cache)
        try await c.receive(.put, at: .root, json: Tests.value(n))
        try await c.saveCache()
        return (cache, c)
    }

    @Test("a save after one change appends its line alone; the file reads back as the children now")
    func appendsWhatChanged() async throws {
        let (cache, c) = try await Self.saved(200)
        defer { c.stop() }
        let file = cache.path(for: c.cacheIdentity)
        let whole = try Self.size(file)
        try await c.receive(.put, at: DatabasePath("/k7"), json: #"{"s": 1000}"#)
        try await c.saveCache()
        let line = #"{"path":"/","data":{"k7":{"s": 1000}}}"# + "\n"
        #expect(try Self.size(file) == whole + line.utf8.count)
        try await c.receive(.put, at: DatabasePath("/k8"), json: "null")
        try await c.receive(.put, at: DatabasePath("/k9/s"), json: "-1")
        try await c.saveCache()
        let lines = try Self.lines(file)
        #expect(lines.count == 4, "header, children, k7, then k8 and k9 in one line: \(lines.suffix(2))")
        #expect(lines.last?.contains(#""k8":null"#) == true && lines.last?.contains(#""k9":"#) == true)
        let read = try Self.read(cache, c.cacheIdentity)
        #expect(read.count == 199 && read.first == "k9=-1" && read.last == "k7=1000" && !read.contains("k8=8"))
        // A collection started on it shows the same.
        let d = try Fixture.make(cache)
        defer { d.stop() }
        let start = try await Fixture.startCached(d)
        #expect(d.collection.count == 199 && Tests.keys(d).first == "k9" && Tests.keys(d).last == "k7")
        d.stop()
        _ = try? await start.value
    }

    @Test("a change while the first save is being written is in the next save")
    func changeDuringFirstSave() async throws {
        let cache = CollectionCache(directory: Fixture.directory())
        let c = try Fixture.make(cache)
        defer { c.stop() }
        try await c.receive(.put, at: .root, json: Tests.value(50))
        // The save starts; the change is applied before it ends.
        c.saveCacheSoon(now: true)
        try await c.receive(.put, at: DatabasePath("/k3"), json: #"{"s": 300}"#)
        try await c.saveCache()
        #expect(try Self.read(cache, c.cacheIdentity).last == "k3=300")
        // Many changes at once: the file is written whole, and holds them.
        var many: [String] = []
        for i in 0..<40 { many.append(#""k\#(i)/s": \#(1000 + i)"#) }
        try await c.receive(.patch, at: .root, json: "{" + many.joined(separator: ",") + "}")
        try await c.saveCache()
        #expect(try Self.lines(cache.path(for: c.cacheIdentity)).count == 2)
        #expect(try Self.read(cache, c.cacheIdentity).suffix(2) == ["k38=1038", "k39=1039"])
    }

    @Test("a save asked for while saveCache() writes (as stop() asks) follows it")
    func saveAskedDuringSaveCache() async throws {
        let cache = CollectionCache(directory: Fixture.directory())
        let c = try Fixture.make(cache)
        try await c.receive(.put, at: .root, json: Tests.value(50))
        try await c.saveCache()
        try await c.receive(.put, at: DatabasePath("/k1/s"), json: "100")
        let save = Task { try await c.saveCache() }
        // While it writes: another change, then the stop's save.
        while !c.cacheWriting { await Task.yield() }
        try await c.receive(.put, at: DatabasePath("/k2/s"), json: "200")
        c.stop()
        try await save.value
        while c.cacheWriting { await c.lastCacheWrite?.value }
        let read = try Self.read(cache, c.cacheIdentity)
        #expect(read.suffix(2) == ["k1=100", "k2=200"], "\(read.suffix(3))")
    }

    @Test("changes that would take more than the children: the file is written whole again")
    func compacts() async throws {
        let (cache, c) = try await Self.saved(10)
        defer { c.stop() }
        let file = cache.path(for: c.cacheIdentity)
        var longest = 0
        for round in 0..<40 {
            try await c.receive(.put, at: DatabasePath("/k\(round % 10)"), json: #"{"s": \#(round), "g": 0}"#)
            try await c.saveCache()
            longest = max(longest, try Self.size(file))
        }
        let whole = try Self.size(file) - (try Self.lines(file).dropFirst(2).reduce(0) { $0 + $1.utf8.count + 1 })
        #expect(longest <= 2 * whole + 64, "the log grew to \(longest) bytes over \(whole) bytes of children")
        #expect(try Self.read(cache, c.cacheIdentity).count == 10)
        #expect(try Self.read(cache, c.cacheIdentity).contains("k9=39"))
    }

    @Test("started from the cache: what the server's value changes is appended, not the whole file")
    func cachedStartAppends() async throws {
        let cache = CollectionCache(directory: Fixture.directory())
        try await Fixture.saved(cache, Tests.value(100))
        let c = try Fixture.make(cache)
        defer { c.stop() }
        let file = cache.path(for: c.cacheIdentity)
        let before = try Self.size(file)
        let inode = try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as! Int
        let start = try await Fixture.startCached(c)
        try await c.receive(.put, at: .root, json: Tests.value(100, changed: [3]))
        try await start.value
        try await c.saveCache()
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as! Int == inode)
        #expect(try Self.lines(file).count == 3 && Self.size(file) > before)
        #expect(try Self.lines(file).last?.hasPrefix(#"{"path":"/","data":{"k3":"#) == true)
    }

    @Test("a torn last line is ignored; a damaged line before others, or another writer's file, is not appended to")
    func damagedAndReplaced() async throws {
        let (cache, c) = try await Self.saved(5)
        defer { c.stop() }
        try await c.receive(.put, at: DatabasePath("/k1"), json: #"{"s": 50}"#)
        try await c.saveCache()
        let file = cache.path(for: c.cacheIdentity)
        // Torn: a kill during an append.
        let handle = try #require(FileHandle(forWritingAtPath: file))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"path":"/","data":{"k2":{"s""#.utf8))
        try handle.close()
        #expect(try Self.read(cache, c.cacheIdentity) == ["k0=0", "k2=2", "k3=3", "k4=4", "k1=50"])
        // The next save does not append after the torn line: the file is written whole.
        try await c.receive(.put, at: DatabasePath("/k2"), json: #"{"s": 60}"#)
        try await c.saveCache()
        #expect(try Self.lines(file).count == 2)
        #expect(try Self.read(cache, c.cacheIdentity) == ["k0=0", "k3=3", "k4=4", "k1=50", "k2=60"])
        // Damaged before a whole line: nothing is read from it.
        var text = try String(contentsOfFile: file, encoding: .utf8)
        text += "{\"path\":\"/\",\"data\":{\"k0\":nul}}\n{\"path\":\"/\",\"data\":{\"k3\":null}}\n"
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        #expect(cache.load(c.cacheIdentity, order: .child("s")) == nil)
        // Another writer (another collection of the same query) replaced it.
        try await c.receive(.put, at: DatabasePath("/k4"), json: #"{"s": 70}"#)
        try await Fixture.saved(cache, Tests.value(3))
        try await c.saveCache()
        #expect(try Self.read(cache, c.cacheIdentity) == ["k0=0", "k3=3", "k1=50", "k2=60", "k4=70"])
    }

    @Test("children over the limit: nothing is written, and no save is tried again until there are fewer")
    func tooLargeIsNotWritten() async throws {
        let directory = Fixture.directory()
        let cache = CollectionCache(directory: directory, limitBytes: 2_000)
        let c = try Fixture.make(cache)
        defer { c.stop() }
        try await c.receive(.put, at: .root, json: Tests.value(100))
        try await c.saveCache()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".cache") || $0.contains(".tmp") }.isEmpty)
        #expect(c.cacheTooLargeAt == 100 && c.cacheError == nil)
        try await c.receive(.put, at: DatabasePath("/k1"), json: #"{"s": 50}"#)
        c.saveCacheSoon(now: true)
        #expect(c.lastCacheWrite == nil || !c.cacheWriting, "a save was started for a window known to be too large")
        // Fewer children: saved again.
        var fewer: [String] = []
        for i in 10..<100 { fewer.append(#""k\#(i)": null"#) }
        try await c.receive(.patch, at: .root, json: "{" + fewer.joined(separator: ",") + "}")
        try await c.saveCache()
        #expect(try Self.read(cache, c.cacheIdentity).count == 10)
    }
}
