// SSEParser.swift — the WHATWG event-stream format, read incrementally from
// chunks of bytes.
import Foundation

/// Reads a `text/event-stream` body chunk by chunk, however the chunks are
/// cut, and dispatches its events.
///
/// It follows the WHATWG rules: a line ends with LF, CR or CRLF (a CR that
/// ends one chunk and an LF that starts the next are one line end); a UTF-8
/// byte order mark at the very start is skipped; `field: value` loses one
/// space after the colon; a line without a colon is a field with an empty
/// value; a line starting with `:` is a comment; `data` lines are joined
/// with LF; `event`, `id` and `retry` (ASCII digits only) are honoured and
/// other fields ignored; an empty line dispatches the event unless its data
/// buffer is empty. An event that is not finished when the bytes end is
/// never dispatched.
///
/// One event may hold at most ``maxEventBytes`` bytes (its data and its
/// unfinished line together); past that, ``feed(_:into:)`` throws instead of
/// growing without bound, and the parser stays failed.
package struct SSEParser: Sendable {
    /// The most bytes one event may hold.
    package let maxEventBytes: Int

    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var eventName: String?
    private var lastEventID = ""
    private var afterCR = false
    private var start: [UInt8]? = []
    private var failed = false

    private static let lf = UInt8(ascii: "\n")
    private static let cr = UInt8(ascii: "\r")
    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    /// A line buffer that grew past this is released rather than kept.
    private static let keptCapacity = 1 << 16

    package init(maxEventBytes: Int = 256 << 20) {
        self.maxEventBytes = max(1, maxEventBytes)
    }

    /// Reads `bytes` and returns what they complete.
    /// - Throws: ``SSEParserError/eventTooLarge(limit:)``.
    /// - Complexity: O(`bytes.count`), amortised.
    package mutating func feed(_ bytes: some Collection<UInt8>) throws(SSEParserError) -> [SSEItem] {
        var items: [SSEItem] = []
        try feed(bytes, into: &items)
        return items
    }

    /// Reads `bytes`, appending what they complete to `items`.
    /// - Throws: ``SSEParserError/eventTooLarge(limit:)``; the parser then
    ///   throws on every later call.
    /// - Complexity: O(`bytes.count`), amortised.
    package mutating func feed(_ bytes: some Collection<UInt8>, into items: inout [SSEItem]) throws(SSEParserError) {
        guard !failed else { throw .eventTooLarge(limit: maxEventBytes) }
        let result: Result<Void, SSEParserError>
        if let done = bytes.withContiguousStorageIfAvailable({ consumeStart($0, into: &items) }) {
            result = done
        } else {
            result = Array(bytes).withUnsafeBufferPointer { consumeStart($0, into: &items) }
        }
        if case .failure(let error) = result {
            failed = true
            line = []
            data = []
            throw error
        }
    }

    /// Skips a byte order mark at the very start (possibly cut across
    /// chunks), then reads the rest.
    private mutating func consumeStart(_ buffer: UnsafeBufferPointer<UInt8>,
                                       into items: inout [SSEItem]) -> Result<Void, SSEParserError> {
        guard var pending = start else { return consume(buffer, into: &items) }
        var i = 0
        while i < buffer.count, pending.count < 3, pending == Array(Self.bom.prefix(pending.count)) {
            pending.append(buffer[i])
            i += 1
        }
        let rest = UnsafeBufferPointer(rebasing: buffer[i...])
        if pending == Self.bom {
            start = nil
            return consume(rest, into: &items)
        }
        if pending == Array(Self.bom.prefix(pending.count)) {
            start = pending  // still possibly a mark: wait for more bytes
            return .success(())
        }
        start = nil
        let head = pending.withUnsafeBufferPointer { consume($0, into: &items) }
        guard case .success = head else { return head }
        return consume(rest, into: &items)
    }

    /// Splits `buffer` into lines, completing the pending one first.
    private mutating func consume(_ buffer: UnsafeBufferPointer<UInt8>,
                                  into items: inout [SSEItem]) -> Result<Void, SSEParserError> {
        let n = buffer.count
        guard n > 0, let base = buffer.baseAddress else { return .success(()) }
        var i = 0
        if afterCR {
            afterCR = false
            if base[0] == Self.lf { i = 1 }
        }
        var nextLF = -1  // the next LF at or after i, or n; recomputed when passed
        while i < n {
            if nextLF < i {
                nextLF = memchr(base + i, Int32(Self.lf), n - i).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? n
            }
            let end = memchr(base + i, Int32(Self.cr), nextLF - i).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
                ?? nextLF
            let segment = UnsafeBufferPointer(rebasing: buffer[i..<end])
            guard end < n else {
                line.append(contentsOf: segment)
                if line.count + data.count > maxEventBytes { return .failure(.eventTooLarge(limit: maxEventBytes)) }
                return .success(())
            }
            let outcome: Result<Void, SSEParserError>
            if line.isEmpty {
                outcome = process(segment, into: &items)
            } else {
                var full: [UInt8] = []
                swap(&full, &line)
                full.append(contentsOf: segment)
                outcome = full.withUnsafeBufferPointer { process($0, into: &items) }
                full.removeAll(keepingCapacity: full.capacity <= Self.keptCapacity)
                swap(&full, &line)
            }
            guard case .success = outcome else { return outcome }
            if base[end] == Self.cr {
                if end + 1 < n {
                    i = base[end + 1] == Self.lf ? end + 2 : end + 1
                } else {
                    afterCR = true
                    i = n
                }
            } else {
                i = end + 1
            }
        }
        return .success(())
    }

    /// Interprets one complete line (without its line end).
    private mutating func process(_ line: UnsafeBufferPointer<UInt8>,
                                  into items: inout [SSEItem]) -> Result<Void, SSEParserError> {
        guard let first = line.first else {
            dispatch(into: &items)
            return .success(())
        }
        if first == UInt8(ascii: ":") { return .success(()) }
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.count
        let field = UnsafeBufferPointer(rebasing: line[..<colon])
        var valueStart = min(colon + 1, line.count)
        if valueStart < line.count, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = UnsafeBufferPointer(rebasing: line[valueStart...])
        switch String(decoding: field, as: UTF8.self) {
        case "data":
            data.append(contentsOf: value)
            data.append(Self.lf)
            if data.count > maxEventBytes { return .failure(.eventTooLarge(limit: maxEventBytes)) }
        case "event":
            eventName = String(decoding: value, as: UTF8.self)
        case "id":
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case "retry":
            if let milliseconds = Self.digits(value) { items.append(.retry(milliseconds: milliseconds)) }
        default:
            break
        }
        return .success(())
    }

    /// Dispatches the pending event, if its data buffer is not empty.
    private mutating func dispatch(into items: inout [SSEItem]) {
        defer { eventName = nil }
        guard !data.isEmpty else { return }
        data.removeLast()
        var event: [UInt8] = []
        swap(&event, &data)
        let name = eventName.flatMap { $0.isEmpty ? nil : $0 } ?? "message"
        items.append(.event(ServerSentEvent(name: name, data: event, id: lastEventID.isEmpty ? nil : lastEventID)))
    }

    /// The value of a string of ASCII digits, or nil (also when it
    /// overflows).
    private static func digits(_ value: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !value.isEmpty else { return nil }
        var result = 0
        for byte in value {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (times, o1) = result.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !o1, !o2 else { return nil }
            result = sum
        }
        return result
    }
}
