// EventsBenchmark.swift — mixed events (40% change of sort value, 30% add,
// 30% remove) on the C index, against a sorted Swift array with binary search.
import CLiveCore
import Foundation

enum EventsBenchmark {
    /// Seconds per event on the C index, every event reporting its old and new index.
    static func index(_ stream: EventStream) -> Double {
        let index = lc_index_new()
        defer { lc_index_free(index) }
        let n = stream.initialScores.count, width = EventStream.keyLength
        stream.initialKeys.withUnsafeBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) { keys in
                for i in 0..<n {
                    var v = lc_value_number(stream.initialScores[i])
                    _ = lc_index_insert(index, keys.baseAddress! + i * width, width, &v, nil, nil)
                }
            }
        }
        var checksum = 0
        let seconds = stream.keys.withUnsafeBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) { keys in
                Timing.seconds {
                    var a = 0, b = 0
                    for e in 0..<stream.ops.count {
                        let key = keys.baseAddress! + e * width
                        var v = lc_value_number(stream.scores[e])
                        switch stream.ops[e] {
                        case .update: _ = lc_index_update(index, key, width, &v, &a, &b)
                        case .add: _ = lc_index_insert(index, key, width, &v, &a, nil)
                        case .remove: _ = lc_index_remove(index, key, width, &a, nil)
                        }
                        checksum &+= a &+ b
                    }
                }
            }
        }
        precondition(lc_index_count(index) == stream.finalCount && checksum != 42, "index diverged")
        return seconds / Double(stream.ops.count)
    }

    /// Seconds per event on the C index when the events come as one batch
    /// (`lc_index_apply`, which overlaps the memory accesses of upcoming events).
    static func indexBatched(_ stream: EventStream) -> Double {
        let index = lc_index_new()
        defer { lc_index_free(index) }
        let n = stream.initialScores.count, width = EventStream.keyLength
        return stream.initialKeys.withUnsafeBufferPointer { rawInitial in
            stream.keys.withUnsafeBufferPointer { raw in
                rawInitial.withMemoryRebound(to: CChar.self) { initial in
                    raw.withMemoryRebound(to: CChar.self) { keys in
                        for i in 0..<n {
                            var v = lc_value_number(stream.initialScores[i])
                            _ = lc_index_insert(index, initial.baseAddress! + i * width, width, &v, nil, nil)
                        }
                        let count = stream.ops.count
                        var events = [lc_event](repeating: lc_event(), count: count)
                        for e in 0..<count {
                            let op: lc_op = switch stream.ops[e] {
                            case .update: LC_OP_UPDATE
                            case .add: LC_OP_INSERT
                            case .remove: LC_OP_REMOVE
                            }
                            events[e] = lc_event(op: op, key: keys.baseAddress! + e * width, key_len: width,
                                                 value: lc_value_number(stream.scores[e]))
                        }
                        var results = [lc_event_result](repeating: lc_event_result(), count: count)
                        var applied = 0
                        let seconds = Timing.seconds {
                            applied = lc_index_apply(index, events, count, &results)
                        }
                        precondition(applied == count && lc_index_count(index) == stream.finalCount, "index diverged")
                        return seconds / Double(count)
                    }
                }
            }
        }
    }

    /// Seconds per event on a sorted Swift array of (score, key) rows: binary
    /// search, then insert or remove in the array. Keys are push ids, whose
    /// Firebase order is their byte order.
    static func sortedArray(_ stream: EventStream, events: Int) -> Double {
        struct Row { var score: Double; var key: Int }  // key: offset into a key buffer
        var keyBytes = stream.initialKeys + stream.keys
        let base = stream.initialKeys.count
        let width = EventStream.keyLength
        var rows = (0..<stream.initialScores.count).map { Row(score: stream.initialScores[$0], key: $0 * width) }
        var checksum = 0
        let seconds = keyBytes.withUnsafeMutableBufferPointer { bytes -> Double in
            let p = bytes.baseAddress!
            func less(_ a: Row, _ b: Row) -> Bool {
                if a.score != b.score { return a.score < b.score }
                return memcmp(p + a.key, p + b.key, width) < 0
            }
            func position(_ row: Row) -> Int {
                var lo = 0, hi = rows.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if less(rows[mid], row) { lo = mid + 1 } else { hi = mid }
                }
                return lo
            }
            rows.sort(by: less)
            return Timing.seconds {
                for e in 0..<events {
                    let key = base + e * width
                    switch stream.ops[e] {
                    case .update:
                        let old = position(Row(score: stream.oldScores[e], key: key))
                        rows.remove(at: old)
                        let row = Row(score: stream.scores[e], key: key)
                        let new = position(row)
                        rows.insert(row, at: new)
                        checksum &+= old &+ new
                    case .add:
                        let row = Row(score: stream.scores[e], key: key)
                        let at = position(row)
                        rows.insert(row, at: at)
                        checksum &+= at
                    case .remove:
                        let at = position(Row(score: stream.oldScores[e], key: key))
                        rows.remove(at: at)
                        checksum &+= at
                    }
                }
            }
        }
        precondition(checksum != 42)
        return seconds / Double(events)
    }
}
