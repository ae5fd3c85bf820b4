// FuzzCommands.swift — libFuzzer target for the REPL's command parser.
//
// Properties: any line parses or fails with a REPLError, never crashes; an
// error that names a column names one inside the line (or just past it);
// a parsed injection carries JSON text that parses to the same value.

import CFuzzDriver
import LiveModel
import LiveREPL

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommands(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let line = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let length = line.count
    do {
        let command = try CommandParser.parse(line)
        switch command {
        case .put(_, let value, let json), .patch(_, let value, let json):
            precondition((try? JSONValue(parsing: json)) == value, "an injection's text and value differ")
        default:
            break
        }
    } catch {
        switch error {
        case .malformedJSON(let column, _), .invalidPath(_, let column, _):
            precondition(column >= 1 && column <= length + 1, "column \(column) outside a line of \(length)")
        default:
            break
        }
        precondition(!error.description.isEmpty)
    }
    return 0
}

/// The program's entry (SwiftPM calls an executable's main `fuzz_commands_main`):
/// hands over to libFuzzer.
@_cdecl("fuzz_commands_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzCommands(data, size) }
}
