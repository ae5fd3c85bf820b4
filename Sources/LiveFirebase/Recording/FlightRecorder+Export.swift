// FlightRecorder+Export.swift — a recording written out: its kept entries
// as lines, counted exactly and cut to the limit, then the state they start
// from, on the calling thread or, for the state, off the main actor.
import Foundation
import LiveModel

extension FlightRecorder {
    /// The recording now: its header and state, then the kept entries.
    /// - Complexity: O(size of the recording).
    public var entries: [FlightEntry] {
        (try? FlightRecording(jsonLines: jsonLines()).entries) ?? []
    }

    /// The recording as JSON lines, one entry per line (see ``FlightRecording``).
    ///
    /// The kept entries are written, their bytes counted exactly, and the
    /// oldest past ``limit`` let go (folded into the state) before the
    /// state is written: the entries written never take more than ``limit``.
    /// - Complexity: O(size of the recording), on the calling thread.
    public func jsonLines() -> String { String(decoding: lines(includingOpen: false), as: UTF8.self) }

    /// Writes the recording to `url`, replacing it whole: written beside
    /// it, synced, then renamed over it, so that a full disk or a crash
    /// leaves the file before or the one after, never a torn one. A new
    /// file is readable by its owner alone (`0600`); a file replaced keeps
    /// its permissions.
    /// - Throws: ``FlightRecordingError`` (line 0) naming the file and why
    ///   it cannot be written; the file is then as it was.
    /// - Complexity: O(size of the recording), on the calling thread. See
    ///   ``save(to:)`` to keep the main actor free meanwhile.
    public func write(to url: URL) throws(FlightRecordingError) {
        try Self.write(lines(includingOpen: false), to: url)
    }

    /// Writes the recording to `url` as ``write(to:)`` does, holding the
    /// main actor only to take the kept entries: the state they start from
    /// (every child the collection holds) is redacted and written, and the
    /// file replaced, off it. What the collection does meanwhile is not in
    /// this file; it is in the next one. Saves to one file follow each
    /// other: await one before starting the next.
    /// - Throws: ``FlightRecordingError`` (line 0) naming the file and why
    ///   it cannot be written; the file is then as it was.
    /// - Complexity: O(size of the kept entries) on the main actor, then
    ///   O(size of the recording) off it.
    public func save(to url: URL) async throws(FlightRecordingError) {
        let (base, kept) = takeKept()
        let failure: FlightRecordingError? = await Task.detached(priority: .utility) {
            do throws(FlightRecordingError) {
                try Self.write(Self.text(base, kept, open: nil), to: url)
                return nil
            } catch {
                return error
            }
        }.value
        if let failure { throw failure }
    }

    /// The recording's bytes, with the change being told so far when `includingOpen`.
    func lines(includingOpen: Bool) -> [UInt8] {
        let (base, kept) = takeKept()
        var open: [UInt8]?
        if includingOpen, var change = self.open {
            change.number = changeCount + 1
            change.before = lastCounts
            change.after = counts.all()
            open = change.line(rows: nil)
        }
        return Self.text(base, kept, open: open)
    }

    /// The kept entries' lines, each counted exactly once written, after
    /// the oldest past ``limit`` were let go; and the state they start from.
    /// - Complexity: O(size of the kept entries).
    private func takeKept() -> (FlightBase?, ArraySlice<UInt8>) {
        guard base != nil else { return (nil, []) }
        var lines: [UInt8] = []
        var starts: [Int] = []
        starts.reserveCapacity(ring.count)
        var redaction = base!.redaction
        let head = ring.head
        for number in ring.numbers {
            let start = lines.count
            starts.append(start)
            let kept = ring[number]
            kept.write(into: &lines, redaction)
            if case .part(let part) = kept { redaction = part.redaction }
            ring.setSize(lines.count - start, of: number)
        }
        trim()
        let dropped = ring.head - head
        return (base, dropped < starts.count ? lines[starts[dropped]...] : [])
    }

    /// The recording's text: the header and state of `base`, the `kept`
    /// lines, and the `open` change's line.
    /// - Complexity: O(n log n) for the state's order, plus the size of the recording.
    private nonisolated static func text(_ base: FlightBase?, _ kept: ArraySlice<UInt8>, open: [UInt8]?) -> [UInt8] {
        guard let base else { return [] }
        var bytes = Array(FlightEntry.header(base.header).jsonLine.utf8)
        bytes.append(UInt8(ascii: "\n"))
        bytes += base.line()
        bytes.append(UInt8(ascii: "\n"))
        bytes += kept
        if let open {
            bytes += open
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    nonisolated static func write(_ bytes: [UInt8], to url: URL) throws(FlightRecordingError) {
        do { try DurableFile.replace(url.path, bytes: bytes) } catch {
            throw FlightRecordingError(line: 0, error.description)
        }
    }
}
