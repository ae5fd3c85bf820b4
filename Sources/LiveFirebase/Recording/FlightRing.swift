// FlightRing.swift — a recording's kept entries: their lines written one
// after another on one tape, and what dropping each changes in the state
// the recording starts from.
import LiveModel

/// The kept entries of a recording, oldest first. Their lines (each with
/// its newline) lie end to end on one buffer, written in place: keeping an
/// entry allocates nothing once the buffer has grown to the ring's size,
/// and dropping one only moves where the kept lines start.
struct FlightRing {
    /// What dropping an entry changes in the state the recording starts from.
    enum Kept {
        /// What the collection was given.
        case input(FlightEntry)
        /// A change, and the counts it left.
        case change(FlightCounts.Changed)
        /// A refused stage.
        case rejected
        /// A put or a patch: the children it wrote to.
        case data(FlightFold)
        /// A new part's header and state.
        case part(FlightBase)

        var isOutput: Bool {
            switch self {
            case .change, .rejected: return true
            case .input, .data, .part: return false
            }
        }
    }

    /// The lines, from the absolute position `tapeStart`.
    private var tape: [UInt8] = []
    private var tapeStart = 0
    /// Each entry and the absolute position where its line ends (after its
    /// newline), from the absolute entry number `first`.
    private var entries: [(kept: Kept, end: Int)] = []
    private var first = 0
    /// The oldest kept entry's number, and where its line starts.
    private(set) var head = 0
    private var headStart = 0

    /// The bytes of the kept lines, newlines included.
    var byteCount: Int { tapeStart + tape.count - headStart }
    /// The number of kept entries.
    var count: Int { first + entries.count - head }
    /// The number the next entry gets.
    var nextNumber: Int { first + entries.count }
    /// The kept lines, each with its newline.
    var lines: ArraySlice<UInt8> { tape[(headStart - tapeStart)...] }

    /// The entry numbered `number` (kept).
    subscript(number: Int) -> Kept {
        get { entries[number - first].kept }
        set { entries[number - first].kept = newValue }
    }

    /// Keeps an entry whose line `write` writes (given a line of `kind`,
    /// which it leaves open: the line is closed here).
    mutating func write(_ kept: Kept, _ kind: StaticString, _ write: (inout FlightLine) -> Void) {
        // The tape is lent to the line and taken back: written in place.
        var line = FlightLine()
        swap(&line.bytes, &tape)
        line.open(kind)
        write(&line)
        line.append("}")
        swap(&line.bytes, &tape)
        end(kept)
    }

    /// Keeps an entry whose lines are `bytes` (without the last newline).
    mutating func append(_ kept: Kept, _ bytes: some Collection<UInt8>) {
        tape.append(contentsOf: bytes)
        end(kept)
    }

    private mutating func end(_ kept: Kept) {
        tape.append(UInt8(ascii: "\n"))
        entries.append((kept, tapeStart + tape.count))
    }

    /// Lets the oldest entry go, returning it.
    mutating func dropOldest() -> Kept {
        let index = head - first
        let (kept, end) = entries[index]
        entries[index].kept = .rejected
        head += 1
        headStart = end
        // Space is given back once the entries and bytes let go outnumber those kept.
        if head - first > 64, (head - first) * 2 > entries.count {
            entries.removeFirst(head - first)
            first = head
        }
        let dead = headStart - tapeStart
        if dead > 4096, dead * 2 > tape.count {
            tape.removeFirst(dead)
            tapeStart = headStart
        }
        return kept
    }
}
