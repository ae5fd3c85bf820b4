// MemoryLatency.swift — the machine's latency for one dependent random memory
// access, the floor under any per-event cost at a million children.
#if canImport(Glibc)
import Glibc
#endif
import LiveModel

enum MemoryLatency {
    /// Nanoseconds per load in a pointer chase through `megabytes` of memory
    /// (one 64-byte line per hop, a single random cycle over every line), on
    /// huge pages where the system grants them, as the index's own memory is.
    /// Each load's address comes from the previous load, so nothing overlaps.
    static func dependentLoadNanoseconds(megabytes: Int = 128, hops: Int = 2_000_000) -> Double {
        let line = 64, bytes = megabytes << 20, lines = bytes / line, huge = 2 << 20
        var raw: UnsafeMutableRawPointer?
        guard posix_memalign(&raw, huge, bytes) == 0, let base = raw else { return .nan }
        defer { free(base) }
        #if canImport(Glibc)
        _ = madvise(base, bytes, MADV_HUGEPAGE)  // advice only
        #endif
        // The lines in a random order, chained into one cycle, so that neither
        // the prefetchers nor the caches can guess the next line.
        var order = Array(0..<lines)
        var random = SplitMix64(seed: 11)
        for i in stride(from: lines - 1, to: 0, by: -1) {
            order.swapAt(i, Int(random.next() % UInt64(i + 1)))
        }
        let slots = base.bindMemory(to: Int.self, capacity: bytes / MemoryLayout<Int>.size)
        let stride = line / MemoryLayout<Int>.size
        for i in 0..<lines { slots[order[i] * stride] = order[(i + 1) % lines] * stride }
        var at = 0
        let seconds = Timing.seconds {
            for _ in 0..<hops { at = slots[at] }
        }
        precondition(at >= 0)
        return seconds / Double(hops) * 1e9
    }
}
