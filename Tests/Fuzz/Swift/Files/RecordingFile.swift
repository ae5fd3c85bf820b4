// RecordingFile.swift — checks the reader of flight recordings (FlightRecording(jsonLines:)).

import Foundation
import LiveModel
@testable import LiveFirebase

/// The first two lines of a recording, for inputs to continue.
let recordingStart: [UInt8] = Array((
    FlightEntry.header(FlightHeader(path: DatabasePath(uncheckedKeys: [Key(unchecked: "rooms")]), query: DatabaseQuery(order: .key)))
        .jsonLine + "\n" + FlightEntry.state(FlightState()).jsonLine + "\n").utf8)

/// Reads `header + text.prefix(cut)` as a recording. Properties: nothing
/// traps; a refusal names a line of the text (or 0, the file as a whole);
/// what is read writes back to lines that read as the same entries.
func checkRecording(_ text: ArraySlice<UInt8>, header: [UInt8], cut: Int) {
    let bytes = header + text.prefix(cut)
    let context = { "recording \(shown(bytes))" }
    let lineCount = bytes.split(separator: newline, omittingEmptySubsequences: false).count
    let read: FlightRecording
    do {
        read = try FlightRecording(jsonLines: String(decoding: bytes, as: UTF8.self))
    } catch {
        if error.line < 0 || error.line > lineCount { fail("refused at line \(error.line) of \(lineCount): \(context())") }
        trace("recording refused: \(error)")
        return
    }
    trace("recording of \(read.entries.count) entries")
    let again = read.entries.map(\.jsonLine).joined(separator: "\n")
    do {
        let reread = try FlightRecording(jsonLines: again)
        if reread != read { fail("a recording written back reads differently: \(context())") }
    } catch {
        fail("a recording written back is refused (\(error)): \(context())")
    }
}
