// FuzzSSE.swift — libFuzzer target for the SSE framing parser.
//
// Property: however the bytes are cut into chunks, the parser dispatches
// the same events and retries (or fails with the same error), and it never
// crashes. The first byte of the input chooses the chunk sizes; the rest is
// the stream.

import CFuzzDriver
import LiveFirebase

/// Feeds `bytes` in chunks whose sizes cycle through `sizes`.
private func parse(_ bytes: ArraySlice<UInt8>, sizes: [Int], limit: Int) -> Result<[SSEItem], SSEParserError> {
    var parser = SSEParser(maxEventBytes: limit)
    var items: [SSEItem] = []
    var at = bytes.startIndex
    var i = 0
    while at < bytes.endIndex {
        let end = min(bytes.endIndex, at + sizes[i % sizes.count])
        do { try parser.feed(bytes[at..<end], into: &items) } catch { return .failure(error) }
        at = end
        i += 1
    }
    return .success(items)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSE(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    guard size > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let control = Int(input[0])
    let stream = input[1...]
    // A small limit now and then, so the size check is exercised too.
    let limit = control & 0x80 != 0 ? 64 : 1 << 20
    let whole = parse(stream, sizes: [max(1, stream.count)], limit: limit)
    let cut = parse(stream, sizes: [1 + control % 7, 1 + (control >> 3) % 5, 3], limit: limit)
    let bytewise = parse(stream, sizes: [1], limit: limit)
    switch (whole, cut, bytewise) {
    case (.success(let a), .success(let b), .success(let c)):
        precondition(a == b && b == c, "chunking changed the events: \(a) / \(b) / \(c)")
    case (.failure(let a), .failure(let b), .failure(let c)):
        precondition(a == b && b == c, "chunking changed the error")
    default:
        // A chunk can complete an event just under the limit that the whole
        // input, read at once, holds together with the next line: only
        // compare what all three agree is an event-sized failure.
        if limit > (1 << 19) { preconditionFailure("chunking changed success into failure") }
    }
    return 0
}

/// The program's entry (SwiftPM calls an executable's main `fuzz_sse_main`):
/// hands over to libFuzzer.
@_cdecl("fuzz_sse_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzSSE(data, size) }
}
