// QueueFile.swift — checks the reader of a collection's queue of writes (WriteQueue).

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LiveModel
@testable import LiveFirebase
@testable import LiveServer

let reference = try! DatabaseReference(url: "https://db.example.com", path: "/rooms")

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

func checkQueue(_ text: ArraySlice<UInt8>, header: [UInt8], cut: Int) {
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
