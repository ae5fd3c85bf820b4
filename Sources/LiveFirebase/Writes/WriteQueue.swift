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
/// With a file, every change is on disk before the call returns: the file
/// (`<hash>.writes` in the cache's directory, one per scope and location)
/// is replaced whole — written beside, synced, renamed over — so a kill at
/// any moment leaves the queue as it was before or after the change. It
/// holds a header line, then one line per write:
/// `{"id": 3, "attempted": false, "write": {"set": "/a", "value": 1}}`.
/// `attempted` is set before a write is sent: after a crash, such a write
/// may have reached the server (``WriteAttempt/again``).
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

    /// The writes, oldest first.
    private(set) var entries: [Entry] = []
    /// The file, when the queue is kept on disk and this queue holds it.
    private(set) var file: String?
    private let identity: String
    private var lock: FileLock?
    /// Why the file could not be read, locked or written last; nil once a
    /// write succeeds.
    private(set) var failure: DatabaseError?

    /// A queue kept in memory only.
    init() { identity = "" }

    /// The queue kept in `cache` for `reference`: its file is locked and
    /// read. A file this process cannot lock or read leaves the queue in
    /// memory (``failure`` says why); a line that is not a write is skipped
    /// (``failure`` names it) and the rest kept.
    init(cache: CollectionCache, reference: DatabaseReference) {
        identity = cache.writesIdentity(reference)
        let path = cache.path(for: identity, suffix: ".writes")
        do { try DurableFile.makeDirectory(cache.directory, mode: 0o700) } catch {
            failure = .cache("writes are kept in memory only: \(error.description)")
            return
        }
        guard let lock = FileLock(path + ".lock") else {
            failure = .cache("writes are kept in memory only: another collection of \(reference) holds \(path)")
            return
        }
        self.lock = lock
        file = path
        guard let bytes = DurableFile.read(path) else {
            // Missing: an empty queue. There but unreadable: not written over.
            if access(path, F_OK) == 0 {
                file = nil
                failure = .cache("writes are kept in memory only: \(path) cannot be read: \(DurableFile.errnoText())")
            }
            return
        }
        var lines = bytes.split(separator: UInt8(ascii: "\n"))
        guard let first = lines.first, let header = try? JSONValue(parsingUTF8: first),
              header["identity"]?.stringValue == identity, header["format"] == .number(1) else {
            // Another identity under the same hash, or not a queue: left as it is.
            file = nil
            failure = .cache("writes are kept in memory only: \(path) is not this location's queue")
            return
        }
        lines.removeFirst()
        for line in lines {
            do throws(DatabaseError) {
                guard let json = try? JSONValue(parsingUTF8: line), case .number(let number)? = json["id"],
                      let id = Int(exactly: number), let write = json["write"] else {
                    throw .invalidValue("a line of \(path) is not a write")
                }
                entries.append(Entry(id: id, write: try DatabaseWrite(json: write),
                                     attempted: json["attempted"] == .bool(true)))
            } catch {
                failure = .cache("a queued write was skipped: \(error.description)")
            }
        }
    }

    /// Whether no write is queued.
    var isEmpty: Bool { entries.isEmpty }

    /// The write `id`, if queued.
    func entry(_ id: Int) -> Entry? { entries.first { $0.id == id } }

    /// Queues `write` as `id`, after every other.
    /// - Complexity: O(q) for q writes queued, on disk when kept there.
    func append(_ id: Int, _ write: DatabaseWrite) {
        entries.append(Entry(id: id, write: write))
        save()
    }

    /// Notes whether an attempt to send write `id` may have reached the server.
    /// - Returns: Whether the note is kept (on disk, when the queue is).
    /// - Complexity: O(q), on disk when kept there.
    @discardableResult
    func setAttempted(_ id: Int, _ attempted: Bool) -> Bool {
        guard let i = entries.firstIndex(where: { $0.id == id }) else { return false }
        guard entries[i].attempted != attempted else { return true }
        entries[i].attempted = attempted
        return save()
    }

    /// Takes write `id` out (answered).
    /// - Complexity: O(q), on disk when kept there.
    func remove(_ id: Int) {
        guard let i = entries.firstIndex(where: { $0.id == id }) else { return }
        entries.remove(at: i)
        save()
    }

    /// Replaces the file with the queue (deletes it when the queue is empty).
    /// - Returns: Whether the file holds the queue now (true without a file).
    @discardableResult
    private func save() -> Bool {
        guard let file else { return true }
        if entries.isEmpty {
            guard unlink(file) == 0 || errno == ENOENT else {
                failure = .cache("Cannot delete \(file): \(DurableFile.errnoText())")
                return false
            }
            DurableFile.syncDirectory(of: file)
            failure = nil
            return true
        }
        var text = JSONValue.object(["format": .number(1), "identity": .string(identity)]).jsonText(sortedKeys: true) + "\n"
        for entry in entries {
            let line: JSONValue = .object(["id": .number(Double(entry.id)), "attempted": .bool(entry.attempted),
                                           "write": entry.write.json])
            text += line.jsonText(sortedKeys: true) + "\n"
        }
        do {
            var handed = false
            try DurableFile.replace(file, mode: 0o600) { chunk in
                if !handed { chunk.append(contentsOf: text.utf8) }
                handed = true
                return false
            }
            failure = nil
            return true
        } catch {
            failure = .cache(error.description)
            return false
        }
    }
}
