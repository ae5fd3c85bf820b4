// MemberTable.swift — the members of a large object of a data file, found
// by name where their text lies.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LiveModel

/// The members of a large object read from a data file, kept where the
/// file's text holds them and found by a hash of their names.
///
/// A member costs a 16-byte entry (where its name and value lie in the
/// text) and one or two 4-byte slots of the hash table: about 24 bytes,
/// where a dictionary of keys and nodes costs about 110 at a million
/// members. A member whose value is not plain text (see ``PlainText``) is
/// kept as a node beside the entries.
///
/// A table never changes once built (``Builder``), so the copies of a node
/// share it; writes below the object go to the node's overlay (see
/// ``TableChildren``).
final class MemberTable: Sendable {
    /// Where one member lies in ``buffer``.
    struct Entry: Sendable {
        let keyStart: UInt32
        let keyEnd: UInt32
        /// The start of a plain value's text, or ``MemberTable/nodeValue``
        /// (its node is `nodes[valueEnd]`), or ``MemberTable/noValue``
        /// (an absent member: `null`, or a name given again later).
        var valueStart: UInt32
        let valueEnd: UInt32
    }

    static let nodeValue = UInt32.max
    static let noValue = UInt32.max - 1

    /// The text (valid JSON, validated when it was read).
    let buffer: [UInt8]
    /// The members in text order, absent ones included.
    private let entries: [Entry]
    /// The values that are not plain text.
    private let nodes: [DataNode]
    /// Open addressing: 0 for a free slot, else an entry's index plus one
    /// in the low ``indexBits`` bits, and above them the top bits of its
    /// name's hash, so that most names that differ are told apart without
    /// reading the text. The slot of a name given twice holds its last
    /// occurrence.
    private let slots: [UInt32]

    static let indexBits = 24
    /// The most entries a table holds.
    static let capacity = (1 << indexBits) - 2
    private static let indexMask = UInt32(1 << indexBits) - 1
    /// How many members are present.
    let count: Int

    private init(buffer: [UInt8], entries: [Entry], nodes: [DataNode], slots: [UInt32], count: Int) {
        self.buffer = buffer
        self.entries = entries
        self.nodes = nodes
        self.slots = slots
        self.count = count
    }

    /// The member named `key`, or `nil` when the object has none.
    /// - Complexity: O(1) on average.
    func member(_ key: Key) -> DataNode? {
        key.withUTF8 { name in slot(of: UnsafeRawBufferPointer(name)) }.flatMap { entryIndex in
            node(at: entryIndex)
        }
    }

    /// The node of entry `i`, or `nil` when the member is absent.
    func node(at i: Int) -> DataNode? {
        let entry = entries[i]
        switch entry.valueStart {
        case Self.noValue: return nil
        case Self.nodeValue: return nodes[Int(entry.valueEnd)]
        default:
            return DataNode(packed: PackedJSON(buffer, start: Int(entry.valueStart), end: Int(entry.valueEnd)))
        }
    }

    /// The key of entry `i`.
    func key(at i: Int) -> Key {
        let entry = entries[i]
        return buffer.withUnsafeBufferPointer { p in
            Key(uncheckedUTF8: UnsafeRawPointer(p.baseAddress! + Int(entry.keyStart)).assumingMemoryBound(to: CChar.self),
                count: Int(entry.keyEnd - entry.keyStart))
        }
    }

    /// The value of a present member: its text when plain, else its node.
    enum Value {
        case text(UnsafeBufferPointer<UInt8>)
        case node(DataNode)
    }

    /// Calls `body` with the name (its bytes) and the value of each member
    /// present, in text order, without making a key or a node of them.
    /// - Complexity: O(number of members).
    func forEachMember(_ body: (UnsafeBufferPointer<UInt8>, Value) -> Void) {
        buffer.withUnsafeBufferPointer { p in
            for entry in entries where entry.valueStart != Self.noValue {
                let name = UnsafeBufferPointer(rebasing: p[Int(entry.keyStart)..<Int(entry.keyEnd)])
                if entry.valueStart == Self.nodeValue {
                    body(name, .node(nodes[Int(entry.valueEnd)]))
                } else {
                    body(name, .text(UnsafeBufferPointer(rebasing: p[Int(entry.valueStart)..<Int(entry.valueEnd)])))
                }
            }
        }
    }

    /// The members of the digest of the table's own members (the writes
    /// since it was read left out: see ``TableChildren``), once computed.
    /// The table never changes, so neither do they.
    let digestMemo = DigestMemo()

    /// The members present, as a dictionary.
    /// - Complexity: O(number of members).
    var dictionary: [Key: DataNode] {
        var members: [Key: DataNode] = [:]
        members.reserveCapacity(count)
        for i in 0..<entries.count {
            if let node = node(at: i) { members[key(at: i)] = node }
        }
        return members
    }

    /// The number of entries, present or not: entry indices are below it.
    var entryCount: Int { entries.count }

    /// The index of the last entry named `name`, or `nil`.
    private func slot(of name: UnsafeRawBufferPointer) -> Int? {
        let mask = slots.count - 1
        let hash = Self.hash(name)
        let tag = Self.tag(hash)
        var s = hash & mask
        return buffer.withUnsafeBytes { text in
            while true {
                let slot = slots[s]
                if slot == 0 { return nil }
                let i = Int(slot & Self.indexMask) - 1
                if slot & ~Self.indexMask == tag, Self.same(name, text, entries[i]) { return i }
                s = (s + 1) & mask
            }
        }
    }

    /// The bits of `hash` a slot keeps beside its entry's index.
    private static func tag(_ hash: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: UInt(bitPattern: hash) >> (UInt.bitWidth - 32)) & ~indexMask
    }

    private static func same(_ name: UnsafeRawBufferPointer, _ text: UnsafeRawBufferPointer, _ entry: Entry) -> Bool {
        let count = Int(entry.keyEnd - entry.keyStart)
        guard count == name.count else { return false }
        return count == 0 || memcmp(name.baseAddress!, text.baseAddress! + Int(entry.keyStart), count) == 0
    }

    private static func hash(_ name: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: name)
        return hasher.finalize()
    }

    /// Collects an object's members in text order, then indexes them.
    struct Builder {
        let buffer: [UInt8]
        private var entries: [Entry] = []
        private var nodes: [DataNode] = []

        init(buffer: [UInt8]) {
            self.buffer = buffer
        }

        /// The member named by the plain (unescaped) text
        /// `buffer[keyStart..<keyEnd]`, whose value is the plain text
        /// `buffer[valueStart..<valueEnd]`.
        mutating func add(keyStart: Int, keyEnd: Int, valueStart: Int, valueEnd: Int) {
            entries.append(Entry(keyStart: UInt32(keyStart), keyEnd: UInt32(keyEnd),
                                 valueStart: UInt32(valueStart), valueEnd: UInt32(valueEnd)))
        }

        /// The member named by `buffer[keyStart..<keyEnd]`, whose value is
        /// `node` (an empty node: the member is absent).
        mutating func add(keyStart: Int, keyEnd: Int, node: DataNode) {
            if node.isEmpty {
                return entries.append(Entry(keyStart: UInt32(keyStart), keyEnd: UInt32(keyEnd),
                                            valueStart: MemberTable.noValue, valueEnd: 0))
            }
            entries.append(Entry(keyStart: UInt32(keyStart), keyEnd: UInt32(keyEnd),
                                 valueStart: MemberTable.nodeValue, valueEnd: UInt32(nodes.count)))
            nodes.append(node)
        }

        /// The members whose slots are read together.
        private static let batch = 16

        /// Keeps the reads that made `value` from being left out.
        @inline(never)
        private static func keep(_ value: UInt32) {
            withExtendedLifetime(value) {}
        }

        /// Whether the table can take another member (see
        /// ``MemberTable/capacity``).
        var isFull: Bool { entries.count >= MemberTable.capacity }

        /// The table: a name given twice is its last occurrence.
        /// - Complexity: O(number of members) on average.
        mutating func finish() -> MemberTable {
            precondition(entries.count <= MemberTable.capacity, "MemberTable: more than \(MemberTable.capacity) members")
            var entries = self.entries
            self.entries = []  // (so that `entries` is changed in place)
            var capacity = 8
            while capacity < entries.count * 2 { capacity <<= 1 }
            var slots = [UInt32](repeating: 0, count: capacity)
            let mask = capacity - 1
            var count = 0
            buffer.withUnsafeBytes { text in
                func name(_ entry: Entry) -> UnsafeRawBufferPointer {
                    UnsafeRawBufferPointer(rebasing: text[Int(entry.keyStart)..<Int(entry.keyEnd)])
                }
                // The slots are read at random: the hashes of a batch are
                // found and their slots read first, all at once, so that
                // the processor waits for their memory once per batch
                // rather than once per member.
                var hashes = [Int](repeating: 0, count: Self.batch)
                var touched: UInt32 = 0
                for batchStart in stride(from: 0, to: entries.count, by: Self.batch) {
                    let batch = batchStart..<min(batchStart + Self.batch, entries.count)
                    for i in batch {
                        let hash = MemberTable.hash(name(entries[i]))
                        hashes[i - batchStart] = hash
                        touched &+= slots[hash & mask]
                    }
                    for i in batch {
                        let entry = entries[i]
                        let hash = hashes[i - batchStart]
                        let tag = MemberTable.tag(hash)
                        var s = hash & mask
                        while slots[s] != 0 {
                            let earlier = Int(slots[s] & MemberTable.indexMask) - 1
                            if slots[s] & ~MemberTable.indexMask == tag,
                               MemberTable.same(name(entry), text, entries[earlier]) {
                                if entries[earlier].valueStart != MemberTable.noValue { count -= 1 }
                                entries[earlier].valueStart = MemberTable.noValue
                                break
                            }
                            s = (s + 1) & mask
                        }
                        slots[s] = tag | UInt32(i + 1)
                        if entry.valueStart != MemberTable.noValue { count += 1 }
                    }
                }
                Self.keep(touched)
            }
            return MemberTable(buffer: buffer, entries: entries, nodes: nodes, slots: slots, count: count)
        }
    }
}
