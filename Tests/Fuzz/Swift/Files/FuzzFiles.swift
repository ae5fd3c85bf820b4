// FuzzFiles.swift — libFuzzer target for the readers of files that a crash
// may have cut short: a LiveServer's data file and journal (Journal.load,
// DataNode.reading(snapshot:)), a collection's queue of writes
// (WriteQueue(cache:reference:)) and its cached children
// (CollectionCache.load).
//
// Input: six bytes of control, then the text, split in two: the first part
// is the data file (the snapshot), the second the journal, the queue file
// and the cache file (each cut at the same point, and for the queue and the
// cache after a valid header line when the control asks for one). Every run
// works in a fresh private temporary directory, removed afterwards.
//
// Properties (any divergence is a fatalError):
// - nothing traps or leaks, whatever the files hold;
// - a snapshot reads as a request body reads (the same node, or both
//   refused), however much of it is kept as text;
// - a journal loads exactly what its whole lines say: a line cut short at
//   its end is dropped, and the file cut back to the whole lines; a damaged
//   line is dropped only when nothing but blank space follows it, and
//   otherwise the load is refused. Loading the file cut in the middle of a
//   line gives what loading its whole lines alone gives (or is refused,
//   when a damaged line is followed by the torn one: an acknowledged
//   write was damaged). A second load of what the first left gives the same;
// - a queue file loads writes with unique, increasing ids from 1 to
//   WriteQueue.maxID; cut in the middle of a line it loads what its whole
//   lines alone load; what a load leaves on disk loads again the same, and
//   a write removed and one appended after a load are there at the next;
// - a cache file is read only when its header names the identity, only
//   from a private directory, and a cached payload cut short never parses.

import CFuzzDriver
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LiveModel
@testable import LiveFirebase
@testable import LiveServer

/// FUZZ_FILES_TRACE=1 prints what each reader made of the input.
private let tracing = getenv("FUZZ_FILES_TRACE") != nil

private func trace(_ message: @autoclosure () -> String) {
    if tracing { print("fuzz-files: \(message())") }
}

private func fail(_ message: String) -> Never {
    fatalError("FUZZ DIVERGENCE (fuzz-files): \(message)")
}

private func shown(_ bytes: some Collection<UInt8>) -> String {
    let text = String(decoding: bytes.prefix(300), as: UTF8.self).debugDescription
    return bytes.count > 300 ? text + "… (\(bytes.count) bytes)" : text
}

/// Where the runs' directories go: memory when there is /dev/shm (the
/// readers sync what they write).
private let base: String = {
    var info = stat()
    if stat("/dev/shm", &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, access("/dev/shm", W_OK) == 0 { return "/dev/shm" }
    return NSTemporaryDirectory().hasSuffix("/") ? String(NSTemporaryDirectory().dropLast()) : NSTemporaryDirectory()
}()

/// A fresh private directory (0700, this process's user), removed by `body`'s end.
private func withDirectory<R>(_ body: (String) -> R) -> R {
    var template = Array("\(base)/fuzz-files.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fail("cannot make a temporary directory: \(String(cString: strerror(errno)))") }
    let path = String(cString: made)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return body(path)
}

private func write(_ bytes: some Collection<UInt8>, to path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { fail("cannot write \(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    let bytes = Array(bytes)
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
        guard n > 0 else { fail("cannot write \(path)") }
        done += n
    }
}

private func fileBytes(_ path: String) -> [UInt8]? {
    (try? DurableFile.read(path)) ?? nil
}

private let newline = UInt8(ascii: "\n")

/// `bytes` up to and with its last line break: its whole lines.
private func wholeLines(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    guard let last = bytes.lastIndex(of: newline) else { return bytes[bytes.startIndex..<bytes.startIndex] }
    return bytes[...last]
}

// MARK: Snapshots

/// How a snapshot reads.
private enum Read: Equatable {
    case node(DataNode)
    case refused
}

private func readSnapshot(_ bytes: [UInt8], packLimit: Int?, padded: Bool) -> Read {
    do {
        let node: DataNode
        if padded {
            node = try DataNode.reading(snapshot: bytes + [UInt8](repeating: 0, count: Snapshot.checkPadding),
                                        length: bytes.count, packLimit: packLimit ?? SnapshotReader.packLimit)
        } else {
            node = try DataNode.reading(snapshot: bytes, packLimit: packLimit ?? SnapshotReader.packLimit)
        }
        return .node(node)
    } catch {
        return .refused
    }
}

/// The snapshot read as a request body: the model.
private func readBody(_ bytes: [UInt8]) -> Read {
    guard let json = try? JSONValue(parsingUTF8: bytes), let node = try? DataNode(json: json) else { return .refused }
    return .node(node)
}

private func checkSnapshot(_ bytes: [UInt8], packLimit: Int) -> Read {
    let model = readBody(bytes)
    for (limit, padded) in [(nil, true), (packLimit, false), (0, true)] as [(Int?, Bool)] {
        let read = readSnapshot(bytes, packLimit: limit, padded: padded)
        if read != model {
            fail("the snapshot \(shown(bytes)) reads as \(read) with packLimit \(limit.map(String.init) ?? "default"), "
                 + "padded \(padded), but as a body it is \(model)")
        }
    }
    return model
}

// MARK: Journals

/// What loading a data file gives.
private struct Loaded: Equatable {
    /// The data, or nil when the load was refused.
    var root: DataNode?
    /// The journal's length after the load.
    var journalBytes: Int?
}

/// Loads the data file `dir/data` (with `dir/data.journal`) and releases it.
private func load(_ dir: String) -> Loaded {
    let journal = Journal(file: dir + "/data")
    let root: DataNode?
    do { root = try journal.load().root } catch { root = nil }
    let length = fileBytes(dir + "/data.journal")?.count
    return Loaded(root: root, journalBytes: length)
}

/// The model of a journal's replay: whole lines only, each a JSON array of
/// `["/path", value]` writes; a line that is not is dropped when nothing but
/// spaces and line breaks follow it (a torn last line), else the load fails.
/// Returns the data and the length of the lines applied, or nil.
private func replayModel(_ snapshot: Read, _ journal: ArraySlice<UInt8>) -> (DataNode, Int)? {
    guard case .node(let root) = snapshot else { return nil }
    var store = Store(root: root)
    var good = 0
    var start = journal.startIndex
    while let end = journal[start...].firstIndex(of: newline) {
        let line = journal[start..<end]
        var writes: [Write]? = []
        if case .array(let entries)? = try? JSONValue(parsingUTF8: line) {
            for entry in entries {
                guard case .array(let pair) = entry, pair.count == 2, case .string(let text) = pair[0],
                      let path = try? DatabasePath(text), let node = try? DataNode(json: pair[1]) else { writes = nil; break }
                writes?.append(Write(path: path, node: node))
            }
        } else {
            writes = nil
        }
        guard let writes else {
            let rest = journal[(end + 1)...]
            if rest.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == newline }) { break }
            return nil
        }
        store.apply(writes)
        good = end + 1 - journal.startIndex
        start = end + 1
    }
    return (store.root, good)
}

private func checkJournal(snapshot: [UInt8]?, snapshotRead: Read, journal: ArraySlice<UInt8>, cut: Int) {
    let cutJournal = journal.prefix(cut)
    let whole = wholeLines(cutJournal)
    let model = replayModel(snapshot == nil ? .node(.empty) : snapshotRead, cutJournal)

    func setUp(_ dir: String, _ lines: ArraySlice<UInt8>) {
        if let snapshot { write(snapshot, to: dir + "/data") }
        write(lines, to: dir + "/data.journal")
    }
    let context = { "snapshot \(shown(snapshot ?? [])), journal \(shown(cutJournal))" }

    // The journal as the crash left it.
    let (first, again) = withDirectory { dir -> (Loaded, Loaded) in
        setUp(dir, cutJournal)
        return (load(dir), load(dir))
    }
    switch (first.root, model) {
    case (nil, nil): break
    case (let root?, let (expected, good)?):
        if root != expected { fail("the journal loaded \(root), not \(expected): \(context())") }
        if first.journalBytes != good {
            fail("the journal was left \(first.journalBytes ?? -1) bytes long, not its \(good) bytes of good lines: \(context())")
        }
    case (nil, _?): fail("a journal whose lines are good was refused: \(context())")
    case (_?, nil): fail("a journal with a damaged line before good lines (or a bad snapshot) was loaded: \(context())")
    }
    trace("journal of \(cutJournal.count) bytes (\(whole.count) in whole lines): "
          + (first.root.map { "loaded \($0.description.prefix(80)), \(first.journalBytes ?? -1) bytes kept" } ?? "refused"))
    // What the first load left loads the same.
    if again != first { fail("loading again gave \(again), not \(first): \(context())") }

    // The journal cut in the middle of a line loads as its whole lines alone.
    guard whole.count < cutJournal.count else { return }
    let alone = withDirectory { dir -> Loaded in
        setUp(dir, whole)
        return load(dir)
    }
    switch (first.root, alone.root) {
    case (nil, nil): break
    case (let a?, let b?):
        if a != b || first.journalBytes != alone.journalBytes {
            fail("cut mid-line the journal loaded \(a) (\(first.journalBytes ?? -1) bytes kept), its whole lines alone "
                 + "\(b) (\(alone.journalBytes ?? -1) bytes kept): \(context())")
        }
    case (nil, _?):
        // Only when the whole lines end with a damaged one, which the torn
        // line after it shows was acknowledged.
        let torn = cutJournal[whole.endIndex...]
        if alone.journalBytes == whole.count || torn.allSatisfy({ $0 == UInt8(ascii: " ") }) {
            fail("cut mid-line the journal was refused, but its whole lines alone load: \(context())")
        }
    case (_?, nil):
        fail("cut mid-line the journal loaded, but its whole lines alone are refused: \(context())")
    }
}

// MARK: Write queues

private let reference = try! DatabaseReference(url: "https://db.example.com", path: "/rooms")

/// The queue's entries (and whether it held its file) as a load finds them.
private func loadQueue(_ cache: CollectionCache) -> (entries: [WriteQueue.Entry], onDisk: Bool, failure: DatabaseError?) {
    let queue = WriteQueue(cache: cache, reference: reference)
    return (queue.entries, queue.file != nil, queue.failure)
}

/// Loads the queue, removes its oldest write and appends one; returns what
/// it holds, what it should, and whether the file kept up. (The queue, and
/// its lock, are gone when this returns.)
private func removeAndAppend(_ cache: CollectionCache) -> ([WriteQueue.Entry], [WriteQueue.Entry], Bool) {
    let queue = WriteQueue(cache: cache, reference: reference)
    var expected = queue.entries
    if let oldest = expected.first {
        queue.remove(oldest.id)
        expected.removeFirst()
    }
    let next = (queue.entries.last?.id ?? 0) + 1
    if next <= WriteQueue.maxID {
        let added = DatabaseWrite.set("/z", .number(Double(next)))
        queue.append(next, added)
        expected.append(WriteQueue.Entry(id: next, write: added))
    }
    return (queue.entries, expected, queue.failure == nil)
}

private func checkEntries(_ entries: [WriteQueue.Entry], _ context: @autoclosure () -> String) {
    var last = 0
    for entry in entries {
        if entry.id <= last || entry.id > WriteQueue.maxID {
            fail("queued ids \(entries.map(\.id)) are not unique and increasing from 1 to \(WriteQueue.maxID): \(context())")
        }
        last = entry.id
    }
}

private func checkQueue(_ text: ArraySlice<UInt8>, header: [UInt8], cut: Int) {
    let cutText = header + text.prefix(cut)
    withDirectory { dir in
        let cache = CollectionCache(directory: dir + "/cache")
        let file = cache.path(for: cache.writesIdentity(reference), suffix: ".writes")
        do { try cache.makeDirectory() } catch { fail("cannot make the cache directory: \(error)") }
        let context = { "queue file \(shown(cutText))" }

        write(cutText, to: file)
        let first = loadQueue(cache)
        checkEntries(first.entries, context())
        trace("queue of \(cutText.count) bytes: ids \(first.entries.map(\.id).prefix(20)), on disk \(first.onDisk), "
              + "\(first.failure.map { "\($0)".prefix(100) } ?? "clean")")
        // What the load left is read again the same, and cleanly.
        let again = loadQueue(cache)
        if again.entries != first.entries { fail("loaded again, the queue holds \(again.entries), not \(first.entries): \(context())") }
        if first.onDisk && again.failure != nil {
            fail("what a load left is not clean: \(again.failure!) (first load: \(first.failure.map { "\($0)" } ?? "clean")): \(context())")
        }

        // Cut in the middle of a line: as its whole lines alone.
        let whole = Array(wholeLines(cutText[...]))
        if whole.count < cutText.count {
            write(whole, to: file)
            let alone = loadQueue(cache)
            if alone.entries != first.entries {
                fail("cut mid-line the queue loaded \(first.entries.map(\.id)), its whole lines alone \(alone.entries.map(\.id)): \(context())")
            }
        }

        // A write answered and one made after the load are kept.
        guard first.onDisk else { return }
        let (written, expected, kept) = removeAndAppend(cache)
        if written != expected { fail("after a remove and an append the queue holds \(written), not \(expected): \(context())") }
        guard kept else { return }
        let after = loadQueue(cache)
        if after.entries != expected {
            fail("after a remove and an append, the queue loads \(after.entries), not \(expected): \(context())")
        }
    }
}

// MARK: Cache files

private func checkCache(_ text: ArraySlice<UInt8>, header: [UInt8], cut: Int, shared: Bool) {
    let identity = #"["","https://db.example.com/rooms",["$key",null,null,null]]"#
    withDirectory { dir in
        let cache = CollectionCache(directory: dir + "/cache")
        do { try cache.makeDirectory() } catch { fail("cannot make the cache directory: \(error)") }
        let file = cache.path(for: identity)
        let whole = header + text
        let cutText = header + text.prefix(cut)
        let context = { "cache file \(shown(cutText))" }

        // The model: read when the first line is a header naming the identity, format 1.
        func expected(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
            guard let newline = bytes.firstIndex(of: newline),
                  case .object(let members)? = try? JSONValue(parsingUTF8: bytes[..<newline]),
                  members["identity"] == .string(identity), members["format"] == .number(1) else { return nil }
            return bytes[(newline + 1)...]
        }
        write(cutText, to: file)
        if shared {
            // Others may write to the directory: nothing in it is read.
            chmod(dir + "/cache", 0o770)
            if cache.load(identity) != nil { fail("a cache file was read from a directory others may write to: \(context())") }
            chmod(dir + "/cache", 0o700)
        }
        let loaded = cache.load(identity)
        let model = expected(cutText)
        trace("cache of \(cutText.count) bytes: " + (loaded.map { "read \($0.count) bytes, "
              + ((try? StreamPayload.parse(json: $0, kind: .put, order: .key)) != nil ? "a payload" : "not a payload") } ?? "not read"))
        if loaded.map(Array.init) != model.map(Array.init) {
            fail("the cache read \(loaded.map { shown($0) } ?? "nothing"), not \(model.map { shown($0) } ?? "nothing"): \(context())")
        }
        // A payload cut short never parses as one, however the file was cut.
        guard let cutPayload = loaded, let wholePayload = expected(whole),
              (try? StreamPayload.parse(json: wholePayload, kind: .put, order: .key)) != nil else { return }
        let lost = wholePayload.dropFirst(cutPayload.count)
        let space: Set<UInt8> = [0x20, 0x0A, 0x0D, 0x09]
        if lost.contains(where: { !space.contains($0) }), (try? StreamPayload.parse(json: cutPayload, kind: .put, order: .key)) != nil {
            fail("a cached payload cut short parses: \(shown(cutPayload)) of \(shown(wholePayload))")
        }
    }
}

// MARK: The entry

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFiles(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 6 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let flags = input[0]
    let cutSeed = Int(input[1]) | Int(input[2]) << 8
    let splitSeed = Int(input[3]) | Int(input[4]) << 8 | Int(input[5]) << 16
    let text = input[6...]
    let split = text.startIndex + splitSeed % (text.count + 1)
    let first = Array(text[..<split])
    let second = text[split...]
    // The cut, anywhere in the second part (the whole of it when 0xFFFF).
    let cut = cutSeed == 0xFFFF ? second.count : cutSeed * (second.count + 1) / 0xFFFF

    // The data file: the first part, or none.
    let hasSnapshot = flags & 1 == 0
    let snapshotRead = checkSnapshot(first, packLimit: [16, 40, 200, 4096][Int(flags >> 6)])
    if case .node(let node) = snapshotRead { trace("snapshot: \(node.description.prefix(80))") } else { trace("snapshot refused") }
    checkJournal(snapshot: hasSnapshot ? first : nil, snapshotRead: snapshotRead, journal: second, cut: cut)

    // The queue file: the second part, after its header when asked.
    let identity = CollectionCache(directory: "/").writesIdentity(reference)
    var header: [UInt8] = []
    if flags & 2 != 0 {
        header = JSONValue.object(["format": .number(flags & 4 != 0 ? 1 : 2), "identity": .string(identity)]).jsonBytes(sortedKeys: true)
        header.append(newline)
    }
    checkQueue(second, header: header, cut: cut)

    // The cache file: the second part, after its header when asked.
    var cacheHeader: [UInt8] = []
    if flags & 8 != 0 {
        let identity = #"["","https://db.example.com/rooms",["$key",null,null,null]]"#
        cacheHeader = JSONValue.object(["format": .number(1), "identity": .string(identity)]).jsonBytes(sortedKeys: true)
        cacheHeader.append(newline)
    }
    checkCache(second, header: cacheHeader, cut: cut, shared: flags & 16 != 0)
    return 0
}

/// The program's entry (SwiftPM calls an executable's main `fuzz_files_main`):
/// hands over to libFuzzer.
@_cdecl("fuzz_files_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzFiles(data, size) }
}
