// Journal.swift — the data file of a LiveServer: a snapshot plus a journal
// of acknowledged writes, both fsync'd, so a crash or kill loses no
// acknowledged write and never leaves a torn file.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LiveModel

/// Durable storage for a ``Store``.
///
/// - `<file>` holds a snapshot (the data in `format=export` JSON; a plain
///   JSON file works as initial data). It is only ever replaced whole: a new
///   snapshot is written to `<file>.tmp`, fsync'd and renamed over it.
/// - `<file>.journal` holds one line per acknowledged request, appended and
///   fsync'd before the request is answered: `[["/path", value], ...]`.
///   A line cut short by a crash was never acknowledged and is dropped; a
///   failed append is cut back before the request is answered.
/// - `<file>.lock` is locked (a ``FileLock``) while a server uses the file:
///   a second server on the same file is refused at start.
/// - New files are made `0600`; a replaced snapshot keeps the old one's mode.
///
/// Replaying a journal over a snapshot that already holds some of its
/// writes gives the same data (every write replaces a whole location), so a
/// crash between renaming a snapshot and emptying the journal is harmless.
///
/// Thread safety: everything but ``writeSnapshot(_:)`` runs under the
/// server's lock; ``writeSnapshot(_:)`` touches only the data file (never
/// the journal), so it runs beside them.
final class Journal: @unchecked Sendable {
    let file: String
    /// Held from ``load()`` on: one server per data file.
    private var lock: FileLock?
    private var journalFD: Int32 = -1
    private(set) var journalBytes = 0
    /// Why writes are refused, once an append failed and could not be
    /// taken back (the journal's end is then unknown).
    private(set) var refusal: String?
    /// The journal is folded into the snapshot past this size.
    var compactionBytes = 64 << 20

    init(file: String) { self.file = file }

    /// The size of the pieces a snapshot is written in.
    private static let chunkBytes = 1 << 20

    deinit { if journalFD >= 0 { DurableFile.close(journalFD) } }

    var journalPath: String { file + ".journal" }
    var lockPath: String { file + ".lock" }

    /// Locks the data file, reads the snapshot and replays the journal;
    /// opens the journal for appends.
    ///
    /// Only a missing file is taken as empty: a file that cannot be read,
    /// or a journal damaged before its last line (acknowledged writes
    /// follow the damage), stops the start and nothing is written.
    /// - Throws: ``StoreError`` naming the file and what is wrong with it.
    func load() throws(StoreError) -> Store {
        do {
            lock = try FileLock(lockPath)
        } catch {
            throw StoreError(status: 500, message: "Cannot use the data file \(file): \(error.description)")
        }
        var store = Store()
        let snapshot: [UInt8]?
        do {
            snapshot = try DurableFile.read(file, padding: Snapshot.checkPadding)
        } catch {
            throw StoreError(status: 500, message: "\(error.description) (the data file is left as it is)")
        }
        if let bytes = snapshot {
            do {
                let length = bytes.count - Snapshot.checkPadding
                store = Store(root: try DataNode.reading(snapshot: bytes, length: length))
            } catch let error as StoreError {
                throw StoreError(status: 500, message: "The data file \(file) is not valid: \(error.message)")
            } catch {
                throw StoreError(status: 500, message: "The data file \(file) is not valid JSON: \(error)")
            }
        }
        let journal: [UInt8]?
        do {
            journal = try DurableFile.read(journalPath, followingLinks: false)
        } catch {
            throw StoreError(status: 500, message: "\(error.description) (the journal is left as it is)")
        }
        if let bytes = journal {
            let good = try replay(bytes, into: &store)
            if good < bytes.count && truncate(journalPath, off_t(good)) != 0 {
                throw StoreError(status: 500, message: "Cannot drop the torn last line of \(journalPath): \(DurableFile.errnoText())")
            }
            journalBytes = good
        }
        journalFD = open(journalPath, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard journalFD >= 0 else {
            throw StoreError(status: 500, message: "Cannot open the journal \(journalPath): \(DurableFile.errnoText())")
        }
        return store
    }

    /// Applies the journal's lines to `store`.
    /// - Returns: The length of the lines applied: all of them but a torn
    ///   last one (a crash while it was written: never acknowledged).
    /// - Throws: ``StoreError`` when a line that is not a write has whole
    ///   lines after it: those were acknowledged, and are not dropped.
    private func replay(_ bytes: [UInt8], into store: inout Store) throws(StoreError) -> Int {
        var good = 0
        var number = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let end = good + line.count
            number += 1
            guard end < bytes.count else { break } // unterminated tail
            guard let writes = Self.decode(line) else {
                let rest = bytes[(end + 1)...]
                if rest.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") }) { break } // torn last line
                throw StoreError(status: 500, message: """
                    The journal \(journalPath) is damaged at line \(number) (byte \(good)), and \(rest.count) bytes of \
                    acknowledged writes follow: live-server does not start rather than drop them. Nothing was changed. \
                    Repair or remove that line, or move the journal aside to start from the data file alone.
                    """)
            }
            store.apply(writes)
            good = end + 1
        }
        return good
    }

    /// Appends one request's writes and waits until they are on disk.
    ///
    /// A failure takes the line back (the journal is cut to its length
    /// before), so a write that was refused is never replayed; if even that
    /// fails, every later write is refused (``refusal`` says why) until the
    /// server is restarted.
    /// - Throws: ``StoreError``: 507 when the disk (or the file's size
    ///   limit) is full, 503 when writes are refused, else 500.
    func append(_ writes: [Write]) throws(StoreError) {
        if let refusal { throw StoreError(status: 503, message: refusal) }
        // `[[path, value], …]`, written straight from the nodes.
        var line: [UInt8] = [UInt8(ascii: "[")]
        for (i, write) in writes.enumerated() {
            line.append(contentsOf: i == 0 ? "[".utf8 : ",[".utf8)
            JSONValue.writeString(write.path.description, to: &line)
            line.append(UInt8(ascii: ","))
            write.node.write(to: &line, export: true)
            line.append(UInt8(ascii: "]"))
        }
        line.append(contentsOf: "]\n".utf8)
        do {
            try DurableFile.appendSynced(journalFD, line, to: journalPath, length: journalBytes)
        } catch {
            guard error.isCutBack else {
                refusal = "Writes are refused until live-server is restarted: \(error.description)."
                throw StoreError(status: 503, message: refusal!)
            }
            throw StoreError(status: error.isFull ? 507 : 500, message: "The write was not kept: \(error.description).")
        }
        journalBytes += line.count
    }

    /// Closes the journal and releases the data file (at shutdown): any
    /// write after it is refused.
    func close() {
        if journalFD >= 0 { DurableFile.close(journalFD) }
        journalFD = -1
        refusal = "Writes are refused: the server has shut down."
        lock = nil
    }

    /// Writes `store` as the new snapshot, without touching the journal:
    /// safe to call without the server's lock while appends go on (the
    /// journal still holds every write, and replaying writes the snapshot
    /// already holds gives the same data).
    /// - Throws: ``StoreError`` naming the file; the old snapshot stays.
    func writeSnapshot(_ store: Store) throws(StoreError) {
        var text = JSONTextChunks(store.root, export: true)
        do {
            try DurableFile.replace(file) { chunk in
                chunk.reserveCapacity(Self.chunkBytes + Self.chunkBytes / 4)
                return text.next(into: &chunk, size: Self.chunkBytes)
            }
        } catch {
            throw StoreError(status: 500, message: error.description)
        }
    }

    /// Drops the journal's first `length` bytes, which a snapshot written
    /// meanwhile holds (``writeSnapshot(_:)``): the lines appended since
    /// are written to a new journal, synced and renamed over it. Does
    /// nothing when the journal was emptied or closed meanwhile.
    /// - Throws: ``StoreError``; the journal is then as it was.
    func dropPrefix(_ length: Int) throws(StoreError) {
        guard journalFD >= 0, refusal == nil, length > 0, length <= journalBytes else { return }
        if length == journalBytes {
            guard ftruncate(journalFD, 0) == 0, fsync(journalFD) == 0 else {
                throw StoreError(status: 500, message: "Cannot empty the journal \(journalPath): \(DurableFile.errnoText())")
            }
            journalBytes = 0
            return
        }
        var tail = [UInt8](repeating: 0, count: journalBytes - length)
        var read = 0
        while read < tail.count {
            let n = tail.withUnsafeMutableBytes { pread(journalFD, $0.baseAddress! + read, $0.count - read, off_t(length + read)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw StoreError(status: 500, message: "Cannot read the journal \(journalPath): \(DurableFile.errnoText())")
            }
            read += n
        }
        do {
            try DurableFile.replace(journalPath, mode: 0o600, bytes: tail)
        } catch {
            throw StoreError(status: 500, message: error.description)
        }
        let fd = open(journalPath, O_RDWR | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            refusal = "Writes are refused until live-server is restarted: the journal \(journalPath) cannot be opened again (\(DurableFile.errnoText()))."
            throw StoreError(status: 500, message: refusal!)
        }
        DurableFile.close(journalFD)
        journalFD = fd
        journalBytes = tail.count
    }

    /// Writes `store` as the new snapshot (with the old one's permissions;
    /// `0600` when there was none) and empties the journal.
    func compact(_ store: Store) throws(StoreError) {
        // Written a chunk at a time: the snapshot's text is never held whole.
        try writeSnapshot(store)
        guard ftruncate(journalFD, 0) == 0, fsync(journalFD) == 0 else {
            throw StoreError(status: 500, message: "Cannot empty the journal \(journalPath): \(DurableFile.errnoText())")
        }
        journalBytes = 0
    }

    private static func decode(_ line: ArraySlice<UInt8>) -> [Write]? {
        guard let json = try? JSONValue(parsingUTF8: line), case .array(let entries) = json else { return nil }
        var writes: [Write] = []
        for entry in entries {
            guard case .array(let pair) = entry, pair.count == 2, case .string(let text) = pair[0],
                  let path = try? DatabasePath(text), let node = try? DataNode(json: pair[1]) else { return nil }
            writes.append(Write(path: path, node: node))
        }
        return writes
    }
}
