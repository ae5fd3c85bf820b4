// FuzzFiles.swift — libFuzzer target for the readers of files that a crash
// may have cut short: a LiveServer's data file and journal (Journal.load,
// DataNode.reading(snapshot:)), a collection's queue of writes
// (WriteQueue(cache:reference:)), its cached children (CollectionCache.load)
// and a flight recording (FlightRecording(jsonLines:)).
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
// - a cache file is read only when its header names the identity and the
//   format, only from a private directory; it reads as its children line
//   with each whole change line after it applied (a torn last line is
//   ignored), or not at all when one of those lines is not what it should be;
// - a recording is read or refused with the line at fault; what is read
//   writes back to lines that read the same.

import CFuzzDriver
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LiveModel
@testable import LiveFirebase
@testable import LiveServer


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
        if flags & 4 != 0 {
            // An older format: never read.
            cacheHeader = JSONValue.object(["format": .number(1), "identity": .string(identity)]).jsonBytes(sortedKeys: true)
            cacheHeader.append(newline)
        } else {
            cacheHeader = CollectionCache.header(identity)
        }
    }
    checkCache(second, header: cacheHeader, cut: cut, shared: flags & 16 != 0)

    // A flight recording: the second part, after a header and state when asked.
    checkRecording(second, header: flags & 32 != 0 ? recordingStart : [], cut: cut)
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
