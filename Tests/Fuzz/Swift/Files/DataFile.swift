// DataFile.swift — checks the readers of a LiveServer's data file (snapshot) and journal.

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LiveModel
@testable import LiveFirebase
@testable import LiveServer

// MARK: Snapshots

/// How a snapshot reads.
enum Read: Equatable {
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

func checkSnapshot(_ bytes: [UInt8], packLimit: Int) -> Read {
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

func checkJournal(snapshot: [UInt8]?, snapshotRead: Read, journal: ArraySlice<UInt8>, cut: Int) {
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
