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
///   A line cut short by a crash was never acknowledged and is dropped.
///
/// Replaying a journal over a snapshot that already holds some of its
/// writes gives the same data (every write replaces a whole location), so a
/// crash between renaming a snapshot and emptying the journal is harmless.
final class Journal {
    let file: String
    private var journalFD: Int32 = -1
    private(set) var journalBytes = 0
    /// The journal is folded into the snapshot past this size.
    var compactionBytes = 64 << 20

    init(file: String) { self.file = file }

    /// The size of the pieces a snapshot is written in.
    private static let chunkBytes = 1 << 20

    deinit { if journalFD >= 0 { DurableFile.close(journalFD) } }

    var journalPath: String { file + ".journal" }

    /// Reads the snapshot and replays the journal; opens the journal for appends.
    /// - Throws: ``StoreError`` naming the file and what is wrong with it.
    func load() throws(StoreError) -> Store {
        var store = Store()
        if let bytes = DurableFile.read(file, padding: Snapshot.checkPadding) {
            do {
                let length = bytes.count - Snapshot.checkPadding
                store = Store(root: try DataNode.reading(snapshot: bytes, length: length))
            } catch let error as StoreError {
                throw StoreError(status: 500, message: "The data file \(file) is not valid: \(error.message)")
            } catch {
                throw StoreError(status: 500, message: "The data file \(file) is not valid JSON: \(error)")
            }
        }
        if let bytes = DurableFile.read(journalPath) {
            var good = 0
            for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                let end = good + line.count
                guard end < bytes.count, let writes = Self.decode(line) else { break } // torn or unterminated tail
                store.apply(writes)
                good = end + 1
            }
            if good < bytes.count { _ = truncate(journalPath, off_t(good)) }
            journalBytes = good
        }
        journalFD = open(journalPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard journalFD >= 0 else {
            throw StoreError(status: 500, message: "Cannot open the journal \(journalPath): \(DurableFile.errnoText())")
        }
        return store
    }

    /// Appends one request's writes and waits until they are on disk.
    func append(_ writes: [Write]) throws(StoreError) {
        let entries = writes.map { JSONValue.array([.string($0.path.description), $0.node.json(export: true)]) }
        var line = Array(JSONValue.array(entries).jsonText().utf8)
        line.append(UInt8(ascii: "\n"))
        do { try DurableFile.writeAll(journalFD, line, to: journalPath) } catch {
            throw StoreError(status: 500, message: error.description)
        }
        guard fsync(journalFD) == 0 else {
            throw StoreError(status: 500, message: "Cannot sync the journal \(journalPath): \(DurableFile.errnoText())")
        }
        journalBytes += line.count
    }

    /// Writes `store` as the new snapshot and empties the journal.
    func compact(_ store: Store) throws(StoreError) {
        // Written a chunk at a time: the snapshot's text is never held whole.
        var text = JSONTextChunks(store.root, export: true)
        do {
            try DurableFile.replace(file) { chunk in
                chunk.reserveCapacity(Self.chunkBytes + Self.chunkBytes / 4)
                return text.next(into: &chunk, size: Self.chunkBytes)
            }
        } catch {
            throw StoreError(status: 500, message: error.description)
        }
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
