// FuzzHTTP.swift — libFuzzer target for LiveServer's HTTP/1.1 REST API:
// raw request bytes into the server's own pipeline (NIO's HTTP server
// pipeline and HTTPHandler, see Connection.swift) on a ServerCore in
// memory, in open mode.
//
// The input is decoded as a sequence of operations, sent pipelined several
// to a connection: PUT, PATCH, POST, DELETE, GET and HEAD at paths built
// from a small alphabet (percent-escapes, `%2F`, empty segments, unicode)
// with the `.json` suffix, query parameters (print=silent, format=export,
// shallow, orderBy/limitToFirst/limitToLast), x-http-method-override (as a
// header or a parameter, on POST and on GET), X-Firebase-ETag, If-Match and
// If-None-Match, server values and priorities, overlapping PATCH paths,
// bodies sent with a length or chunked, large enough to cross 64 KiB
// chunk boundaries and the server's size limit, requests refused from their
// head (a bad path, no `.json`, another Host or Origin, a too large
// length), HTTP/1.0 and Connection: close, CORS preflights, a stream's
// first event; and raw garbage on connections of its own. Bytes are handed
// to the server in chunks of any size, from one byte to past 64 KiB.
//
// Properties (any divergence is a fatalError):
// - nothing traps, hangs or leaks;
// - every request is answered, in order, with the status the model
//   expects, until a response that closes the connection (which is
//   exactly one that should) or a stream;
// - every read (GET, a HEAD's length, a shallow read, a query's window, a
//   stream's first put) answers what the model holds; every write echoes
//   what the model then holds; a refused request changes nothing;
// - server values and priorities are not modelled: what the server
//   echoed is what it reads back;
// - after each input, the server's data is the model's.

import CFuzzDriver
import Logging
import LiveModel
@testable import LiveServer
import NIOHTTP1

func fail(_ message: String) -> Never {
    fatalError("FUZZ DIVERGENCE (fuzz-http): \(message)")
}

// MARK: The entry

private let logger = Logger(label: "fuzz-http", factory: { _ in SwiftLogNoOpLogHandler() })

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    var input = Input(bytes: ArraySlice(UnsafeBufferPointer(start: data, count: size)))
    run(&input)
    // Everything the input made is released before the next (and before
    // libFuzzer counts what was allocated and not freed).
    released.waitForAll()
    return 0
}

private func run(_ input: inout Input) {
    var configuration = LiveServerConfiguration()
    configuration.maxRequestBytes = maxRequestBytes
    let core: ServerCore
    do { core = try ServerCore(configuration: configuration, logger: logger) } catch {
        fatalError("FUZZ HARNESS: cannot make a server: \(error)")
    }
    released.watch(core, "the ServerCore")
    var checker = Checker(core: core)
    while !input.isEmpty {
        // One connection: raw bytes, or requests up to one that ends it.
        let chunk = input.pick([65536, 65537, 4096, 1000, 7, 1, 1 << 20, 16_384])
        if input.chance(12) {
            let bytes = input.take(input.uint16() * 3)
            checker.garbage(bytes, chunk: max(chunk, bytes.count / 1000))
            continue
        }
        var requests: [Request] = []
        let count = 1 + Int(input.byte() % 8)
        for _ in 0..<count where !input.isEmpty {
            let (made, ends) = makeRequests(&input)
            requests += made
            if ends { break }
        }
        // At most about a thousand pieces (a byte at a time for short exchanges).
        let total = requests.reduce(0) { $0 + $1.bytes.count }
        checker.run(requests, chunk: max(chunk, total / 1000))
    }
    checker.finish()
}

/// The program's entry (SwiftPM calls an executable's main `fuzz_http_main`):
/// hands over to libFuzzer.
@_cdecl("fuzz_http_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzHTTP(data, size) }
}
