// FlightRing.swift — a recording's kept entries, as the recorder was given
// them: written as lines only when the recording is, each counted until
// then by an estimate of its line's bytes.
import LiveModel

/// The kept entries of a recording, oldest first, each with the bytes of
/// its line. An entry is kept as the recorder was given it (a message's
/// payload, a change's stages and events, shared rather than copied) and
/// is written only when the recording is: until then its bytes are an
/// estimate, and writing the recording sets them exactly.
struct FlightRing {
    /// An entry, and what dropping it changes in the state the recording starts from.
    enum Kept {
        /// What the collection was given.
        case input(FlightEntry)
        /// A change, and the counts it left.
        case change(FlightChange, FlightCounts.Changed)
        /// A refused stage of change `change`.
        case rejected(change: Int, reason: String)
        /// A put or a patch, and the children it wrote to.
        case data(FlightFold)
        /// A new part's header and state.
        case part(FlightBase)

        var isOutput: Bool {
            switch self {
            case .change, .rejected: return true
            case .input, .data, .part: return false
            }
        }

        /// Appends the entry's line (or a part's two lines) and its newline,
        /// redacted unless `redaction` is nil.
        /// - Complexity: O(size of the line), or O(n log n) for a part's state.
        func write(into bytes: inout [UInt8], _ redaction: FlightRedaction?) {
            // The bytes are lent to the line and taken back: written in place.
            var line = FlightLine()
            swap(&line.bytes, &bytes)
            switch self {
            case .input(let entry): line.raw(entry.jsonLine.utf8)
            case .rejected(let change, let reason): line.raw(FlightEntry.rejected(change: change, reason: reason).jsonLine.utf8)
            case .change(let change, let counts):
                line.open("change")
                change.write(into: &line, counts)
                line.append("}")
            case .data(let fold):
                line.open(fold.payload.kind == .put ? "put" : "patch")
                fold.write(into: &line, redaction)
                line.append("}")
            case .part(let base):
                line.raw(FlightEntry.header(base.header).jsonLine.utf8)
                line.append("\n")
                line.raw(base.line())
            }
            line.append("\n")
            swap(&line.bytes, &bytes)
        }
    }

    /// Each entry and the bytes of its line, from the absolute entry number `first`.
    private var entries: [(kept: Kept, size: Int)] = []
    private var first = 0
    /// The oldest kept entry's number.
    private(set) var head = 0
    /// The bytes of the kept entries' lines, newlines included: exact for
    /// those written since they were kept, estimated for the others.
    private(set) var byteCount = 0

    /// The number of kept entries.
    var count: Int { first + entries.count - head }
    /// The number the next entry gets.
    var nextNumber: Int { first + entries.count }
    /// The kept entries' numbers.
    var numbers: Range<Int> { head..<nextNumber }

    /// The entry numbered `number` (kept).
    subscript(number: Int) -> Kept {
        get { entries[number - first].kept }
        set { entries[number - first].kept = newValue }
    }

    /// Keeps an entry whose line takes about `size` bytes.
    mutating func append(_ kept: Kept, size: Int) {
        entries.append((kept, size))
        byteCount += size
    }

    /// Sets the bytes of entry `number`'s line, now that it was written.
    mutating func setSize(_ size: Int, of number: Int) {
        byteCount += size - entries[number - first].size
        entries[number - first].size = size
    }

    /// Lets the oldest entry go, returning it.
    mutating func dropOldest() -> Kept {
        let index = head - first
        // Moved out, not copied.
        var kept = Kept.rejected(change: 0, reason: "")
        swap(&kept, &entries[index].kept)
        byteCount -= entries[index].size
        head += 1
        // Space is given back once the entries let go outnumber those kept.
        if head - first > 64, (head - first) * 2 > entries.count {
            entries.removeFirst(head - first)
            first = head
        }
        return kept
    }
}
