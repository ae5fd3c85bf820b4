// FlightRecorder+Export.swift — a recording written out: its kept entries
// as lines, counted exactly and cut to the limit, then the state they start
// from, on the calling thread or, for the state, off the main actor.
import Foundation
import LiveModel

extension FlightRecorder {
    /// The recording now: its header and state, then the kept entries,
    /// read back from ``jsonLines()`` (which lets go of the oldest entries
    /// past ``limit`` once their lines are counted exactly).
    /// - Complexity: O(size of the recording).
    public var entries: [FlightEntry] {
        (try? FlightRecording(jsonLines: jsonLines()).entries) ?? []
    }

    /// The recording as JSON lines, one entry per line (see ``FlightRecording``).
    ///
    /// The kept entries are written and counted exactly, and the oldest past
    /// ``limit`` let go (folded into the state, as a new entry would have
    /// them go) before the state is written: so reading it can lower
    /// ``byteCount`` and raise ``droppedCount``. The entries written take at
    /// most ``limit`` bytes, but for one entry larger than it (kept alone)
    /// and for a put or a patch the collection has not applied yet (kept,
    /// with what follows, until it has).
    /// - Complexity: O(size of the recording), on the calling thread.
    public func jsonLines() -> String { String(decoding: lines(includingOpen: false), as: UTF8.self) }

    /// Writes the recording (as ``jsonLines()`` says it) to `url`,
    /// replacing it whole: written beside it, synced, then renamed over it,
    /// so that a full disk or a crash leaves the file before or the one
    /// after, never a torn one. A new file is readable by its owner alone
    /// (`0600`); a file replaced keeps its permissions.
    /// - Throws: ``FlightRecordingError`` (line 0) naming the file and why
    ///   it cannot be written; the file is then as it was.
    /// - Complexity: O(size of the recording), on the calling thread. See
    ///   ``save(to:)`` to keep the main actor free meanwhile.
    public func write(to url: URL) throws(FlightRecordingError) {
        writes += 1
        try Self.write(lines(includingOpen: false), to: url)
    }

    /// Writes the recording to `url` as ``write(to:)`` does, holding the
    /// main actor only to take the kept entries: the state they start from
    /// (every child the collection holds), and that of a later part kept,
    /// are redacted and written, and the file replaced, off it. What the
    /// collection does meanwhile is in the next file, not this one; a
    /// ``write(to:)`` or a rejected batch's export made meanwhile is newer,
    /// and is written again once this save is done. Await one save before
    /// starting the next.
    /// - Throws: ``FlightRecordingError`` (line 0) naming the file and why
    ///   it cannot be written; the file is then as it was.
    /// - Complexity: O(size of the kept entries but parts) on the main
    ///   actor, then O(size of the recording) off it.
    public func save(to url: URL) async throws(FlightRecordingError) {
        let (base, pieces) = takeKept(partsLater: true)
        let generation = writes
        let pause = savePause
        let failure: FlightRecordingError? = await Task.detached(priority: .utility) {
            await pause?()
            do throws(FlightRecordingError) {
                try Self.write(Self.text(base, pieces, open: nil), to: url)
                return nil
            } catch {
                return error
            }
        }.value
        if let failure { throw failure }
        // Written over by this older recording: the newer one again.
        if writes != generation { try Self.write(lines(includingOpen: exportPending), to: url) }
    }

    /// The recording's bytes, with the change being told so far when `includingOpen`.
    func lines(includingOpen: Bool) -> [UInt8] {
        let (base, pieces) = takeKept(partsLater: false)
        var open: [UInt8]?
        if includingOpen, var change = self.open {
            change.number = changeCount + 1
            change.before = lastCounts
            change.after = counts.all()
            open = change.line(rows: nil)
        }
        return Self.text(base, pieces, open: open)
    }

    /// Kept lines, or a part whose lines are yet to be written.
    enum Piece: Sendable {
        case lines(ArraySlice<UInt8>)
        case part(FlightBase)
    }

    /// The kept entries' lines, each counted exactly once written, after
    /// the oldest past ``limit`` were let go; and the state they start
    /// from. With `partsLater`, a part kept is left to be written (its
    /// state can be as large as the first), still counted by its estimate.
    /// - Complexity: O(size of the kept entries, and of the parts unless `partsLater`).
    private func takeKept(partsLater: Bool) -> (FlightBase?, [Piece]) {
        guard base != nil else { return (nil, []) }
        var lines: [UInt8] = []
        // Where each kept entry's lines start, and the parts left to write.
        var starts: [Int] = []
        var parts: [Int: FlightBase] = [:]
        starts.reserveCapacity(ring.count)
        var redaction = base!.redaction
        let head = ring.head
        for number in ring.numbers {
            let start = lines.count
            starts.append(start)
            let kept = ring[number]
            if case .part(let part) = kept {
                redaction = part.redaction
                if partsLater {
                    parts[starts.count - 1] = part
                    continue
                }
            }
            kept.write(into: &lines, redaction)
            ring.setSize(lines.count - start, of: number)
        }
        trim()
        var pieces: [Piece] = []
        // Where the lines not taken yet start.
        var run: Int?
        for index in (ring.head - head)..<starts.count {
            guard let part = parts[index] else {
                if run == nil { run = starts[index] }
                continue
            }
            if let start = run { pieces.append(.lines(lines[start..<starts[index]])) }
            run = nil
            pieces.append(.part(part))
        }
        if let start = run { pieces.append(.lines(lines[start...])) }
        return (base, pieces)
    }

    /// The recording's text: the header and state of `base`, the kept
    /// `pieces`, and the `open` change's line.
    /// - Complexity: O(n log n) for each state's order, plus the size of the recording.
    private nonisolated static func text(_ base: FlightBase?, _ pieces: [Piece], open: [UInt8]?) -> [UInt8] {
        guard let base else { return [] }
        var bytes: [UInt8] = []
        FlightRing.Kept.part(base).write(into: &bytes, nil)
        for piece in pieces {
            switch piece {
            case .lines(let lines): bytes += lines
            case .part(let part): FlightRing.Kept.part(part).write(into: &bytes, nil)
            }
        }
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
