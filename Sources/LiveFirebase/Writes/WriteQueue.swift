// WriteQueue.swift — the writes a collection made and the server has not
// answered, in order; on disk when the collection has a cache, so that they
// survive the process.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LiveModel

/// The writes made through a collection and not answered yet, oldest first.
///
/// With a file, every change is on disk before the call returns. The file
/// (`<hash>.writes` in the cache's directory, one per scope and location)
/// is a log: a header line, then one line per change, each appended and
/// synced —
/// `{"id": 3, "attempted": false, "write": {"set": "/a", "value": 1}}` (a
/// write queued), `{"mark": 3, "attempted": true}` (whether an attempt to
/// send it may have reached the server: after a crash, such a write may
/// have, ``WriteAttempt/again``) and `{"done": 3}` (answered). So a change
/// costs the bytes of its line, not the queue's. When the lines of changes
/// no longer needed pass the lines still needed (and 64 KiB), the log is
/// written anew — beside, synced, renamed over — and an empty queue leaves
/// no file. A line cut short by a crash is the last, and is dropped: its
/// call never returned.
///
/// One collection at a time holds a queue's file (a lock beside it,
/// `<hash>.writes.lock`, a `FileLock`, released when the collection goes
/// or the process ends, however it ends);
/// another collection of the same location and cache keeps its writes in
/// memory only.
final class WriteQueue {
    struct Entry: Equatable {
        let id: Int
        let write: DatabaseWrite
        /// Whether an attempt to send it may have reached the server.
        var attempted = false
    }

    /// The largest id read back from a file: ids count up from 1, and a
    /// larger one (a file not written by this code) is refused.
    static let maxID = 1 << 52

    /// The writes, oldest first.
    private(set) var entries: [Entry] = []
    /// The file, when the queue is kept on disk and this queue holds it.
    private(set) var file: String?
    private let identity: String
    private var lock: FileLock?
    /// Why the file could not be read, locked or written last; nil once a
    /// write succeeds.
    private(set) var failure: DatabaseError?
    /// The log's descriptor, open for appends; -1 when not open.
    private var fd: Int32 = -1
    /// The log's length, and how much of it the queue still needs.
    private(set) var fileBytes = 0
    private var neededBytes = 0
    /// Each queued write's line length, by id.
    private var lineBytes: [Int: Int] = [:]

    /// A queue kept in memory only.
    init() { identity = "" }

    deinit { if fd >= 0 { DurableFile.close(fd) } }

    /// The queue kept in `cache` for `reference`: its file is locked and
    /// read. A file this process cannot lock or read leaves the queue in
    /// memory (``failure`` says why); a line that is not a change, or names
    /// an id already queued, is skipped (``failure`` names it) and the rest
    /// kept.
    init(cache: CollectionCache, reference: DatabaseReference) {
        identity = cache.writesIdentity(reference)
        let path = cache.path(for: identity, suffix: ".writes")
        do { try cache.makeDirectory() } catch {
            failure = .cache("writes are kept in memory only: \(error.description)")
            return
        }
        let lock: FileLock
        do {
            lock = try FileLock(path + ".lock")
        } catch .held {
            failure = .cache("writes are kept in memory only: another collection of \(reference) holds \(path)")
            return
        } catch {
            failure = .cache("writes are kept in memory only: \(error.description)")
            return
        }
        self.lock = lock
        file = path
        let read: [UInt8]?
        do {
            read = try DurableFile.read(path, followingLinks: false)
        } catch {
            // There but unreadable: never written over.
            file = nil
            failure = .cache("writes are kept in memory only: \(error.description)")
            return
        }
        // Missing: an empty queue.
        guard let bytes = read else { return }
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard let first = lines.first, let header = try? JSONValue(parsingUTF8: first),
              header["identity"]?.stringValue == identity,
              header["format"] == .number(1) || header["format"] == .number(2) else {
            // Another identity under the same hash, or not a queue: left as it is.
            file = nil
            failure = .cache("writes are kept in memory only: \(path) is not this location's queue")
            return
        }
        lines.removeFirst()
        // The last piece follows the last line break: empty, or a line
        // whose append was cut short.
        var damaged = header["format"] != .number(2)
        if let torn = lines.popLast(), !torn.isEmpty {
            damaged = true
            failure = .cache("the last line of \(path) was cut short (a crash while it was written) and is dropped")
        }
        var replay = Replay()
        for line in lines {
            do throws(DatabaseError) { try replay.apply(line) } catch {
                damaged = true
                failure = .cache("a line of \(path) was skipped: \(error.description)")
            }
        }
        entries = replay.entries()
        let readFailure = failure
        if damaged {
            // Written anew from what was read: a torn or skipped line is
            // never appended to, and an older format is not extended.
            rewrite()
        } else {
            openLog(length: bytes.count)
        }
        failure = failure ?? readFailure
    }

    /// Opens the log, `length` bytes long and holding the queue, for appends.
    private func openLog(length: Int) {
        guard let file else { return }
        fd = open(file, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            failure = .cache("Cannot open \(file): \(DurableFile.errnoText())")
            return
        }
        fileBytes = length
        neededBytes = Self.text(["format": .number(2), "identity": .string(identity)]).count
        for entry in entries {
            let count = Self.line(entry).count
            lineBytes[entry.id] = count
            neededBytes += count
        }
    }

    /// Whether no write is queued.
    var isEmpty: Bool { entries.isEmpty }

    /// The write `id`, if queued.
    func entry(_ id: Int) -> Entry? { entries.first { $0.id == id } }

    /// Queues `write` as `id`, after every other.
    /// - Complexity: O(size of the write), on disk when kept there.
    func append(_ id: Int, _ write: DatabaseWrite) {
        let entry = Entry(id: id, write: write)
        entries.append(entry)
        let line = Self.line(entry)
        lineBytes[id] = line.count
        neededBytes += line.count
        log(line)
    }

    /// Notes whether an attempt to send write `id` may have reached the server.
    /// - Returns: Whether the note is kept (on disk, when the queue is).
    /// - Complexity: O(1) for the oldest write, on disk when kept there.
    @discardableResult
    func setAttempted(_ id: Int, _ attempted: Bool) -> Bool {
        guard let i = entries.firstIndex(where: { $0.id == id }) else { return false }
        guard entries[i].attempted != attempted else { return true }
        entries[i].attempted = attempted
        return log(Self.text(["mark": .number(Double(id)), "attempted": .bool(attempted)]))
    }

    /// Takes write `id` out (answered).
    /// - Complexity: O(1) for the oldest write (amortised over the log's
    ///   rewrites), on disk when kept there.
    func remove(_ id: Int) {
        guard let i = entries.firstIndex(where: { $0.id == id }) else { return }
        entries.remove(at: i)
        neededBytes -= lineBytes.removeValue(forKey: id) ?? 0
        if entries.isEmpty || fileBytes > 2 * neededBytes + (64 << 10) {
            rewrite()
        } else {
            log(Self.text(["done": .number(Double(id))]))
        }
    }

    // MARK: The file

    /// A queued write's line.
    private static func line(_ entry: Entry) -> [UInt8] {
        text(["id": .number(Double(entry.id)), "attempted": .bool(entry.attempted), "write": entry.write.json])
    }

    /// `members` as one line of JSON.
    private static func text(_ members: JSONObject) -> [UInt8] {
        var bytes = JSONValue.object(members).jsonBytes(sortedKeys: true)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Appends `line` to the log and syncs it (opening the log, with its
    /// header, first). On failure the log is cut back to its length
    /// before, and ``failure`` says why.
    /// - Returns: Whether the log holds the change (true without a file).
    @discardableResult
    private func log(_ line: [UInt8]) -> Bool {
        guard let file else { return true }
        if fd < 0 { return rewrite() }
        do {
            try DurableFile.appendSynced(fd, line, to: file, length: fileBytes)
        } catch {
            failure = .cache(error.description)
            // Not cut back: the next change writes the log anew.
            if !error.isCutBack { closeLog() }
            return false
        }
        fileBytes += line.count
        failure = nil
        return true
    }

    /// Writes the log anew with the queue as it is (deletes it when the
    /// queue is empty) and opens it for appends.
    /// - Returns: Whether the file holds the queue now (true without a file).
    @discardableResult
    private func rewrite() -> Bool {
        guard let file else { return true }
        closeLog()
        if entries.isEmpty {
            guard unlink(file) == 0 || errno == ENOENT else {
                failure = .cache("Cannot delete \(file): \(DurableFile.errnoText())")
                return false
            }
            DurableFile.syncDirectory(of: file)
            fileBytes = 0
            neededBytes = 0
            failure = nil
            return true
        }
        var text = Self.text(["format": .number(2), "identity": .string(identity)])
        lineBytes.removeAll(keepingCapacity: true)
        for entry in entries {
            let line = Self.line(entry)
            lineBytes[entry.id] = line.count
            text += line
        }
        do {
            try DurableFile.replace(file, mode: 0o600, bytes: text)
        } catch {
            failure = .cache(error.description)
            return false
        }
        openLog(length: text.count)
        guard fd >= 0 else { return false }
        failure = nil
        return true
    }

    private func closeLog() {
        if fd >= 0 { DurableFile.close(fd) }
        fd = -1
    }
}

/// The queue as its log's lines leave it, read in one pass: a write
/// answered is marked, not searched for and removed, so that reading n
/// lines costs O(n).
private struct Replay {
    private var queued: [WriteQueue.Entry] = []
    /// Where each write still queued is in `queued`.
    private var places: [Int: Int] = [:]
    private var lastID = 0

    /// The writes still queued, oldest first.
    func entries() -> [WriteQueue.Entry] { queued.filter { places[$0.id] != nil } }

    /// Applies one line of the log.
    mutating func apply(_ line: ArraySlice<UInt8>) throws(DatabaseError) {
        guard let json = try? JSONValue(parsingUTF8: line) else { throw .invalidValue("not JSON") }
        func id(_ member: String) throws(DatabaseError) -> Int {
            guard case .number(let number)? = json[member], let id = Int(exactly: number), (1...WriteQueue.maxID).contains(id) else {
                throw .invalidValue("\"\(member)\" is not a write's id (a whole number from 1 to \(WriteQueue.maxID))")
            }
            return id
        }
        if json["done"] != nil {
            places[try id("done")] = nil
        } else if json["mark"] != nil {
            let marked = try id("mark")
            guard let i = places[marked] else { throw .invalidValue("no write \(marked) is queued") }
            queued[i].attempted = json["attempted"] == .bool(true)
        } else {
            let new = try id("id")
            guard let write = json["write"] else { throw .invalidValue("a queued write has no \"write\"") }
            guard new > lastID else { throw .invalidValue("write \(new) is queued after write \(lastID)") }
            let entry = WriteQueue.Entry(id: new, write: try DatabaseWrite(json: write), attempted: json["attempted"] == .bool(true))
            lastID = new
            places[new] = queued.count
            queued.append(entry)
        }
    }
}
