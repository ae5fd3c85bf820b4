// OrderStatisticTreeTests.swift — the counted B-tree against a sorted array.
import Testing
@testable import LiveCollection

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An element ordered by (score, key); `payload` is not part of the order,
/// so `replace` can be told apart.
private struct TreeItem: Equatable, CustomStringConvertible {
    var score: Int
    var key: Int
    var payload: Int = 0

    static func less(_ a: TreeItem, _ b: TreeItem) -> Bool { a.score != b.score ? a.score < b.score : a.key < b.key }

    var description: String { "(\(score),\(key),\(payload))" }
}

/// The reference: a sorted array searched by bisection.
private struct TreeSortedModel {
    var items: [TreeItem] = []

    func lowerBound(_ item: TreeItem) -> Int {
        var low = 0
        var high = items.count
        while low < high {
            let mid = (low + high) / 2
            if TreeItem.less(items[mid], item) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    func position(of item: TreeItem) -> Int? {
        let at = lowerBound(item)
        return at < items.count && !TreeItem.less(item, items[at]) ? at : nil
    }
}

@Suite("OrderStatisticTree")
struct OrderStatisticTreeTests {
    @Test("differential against a sorted array, growing and shrinking")
    func differential() {
        let seed = printedSeed("OrderStatisticTree differential")
        var random = Rng(seed: seed)
        var tree = OrderStatisticTree<TreeItem>(areInIncreasingOrder: TreeItem.less)
        var model = TreeSortedModel()
        var present = Set<Int>() // keys in the tree
        let keyRange = 0..<20_000
        // Sizes to reach in turn: up and down, through splits and merges at every level.
        let targets = [3_000, 200, 6_000, 0, 1_500, 5_000, 40, 0]
        var operations = 0

        func fail(_ message: String) -> Bool {
            Issue.record("seed \(seed), operation \(operations): \(message)")
            return false
        }

        func randomItem(present wanted: Bool) -> TreeItem? {
            if wanted {
                guard !model.items.isEmpty else { return nil }
                return model.items[Int.random(in: 0..<model.items.count, using: &random)]
            }
            var key = Int.random(in: keyRange, using: &random)
            while present.contains(key) { key = Int.random(in: keyRange, using: &random) }
            return TreeItem(score: Int.random(in: 0..<100, using: &random), key: key)
        }

        func step(growing: Bool) -> Bool {
            operations += 1
            // Shares out of 100: inserts and removals lean towards the target size.
            let (inserts, removals) = growing ? (30, 12) : (12, 30)
            var roll = Int.random(in: 0..<100, using: &random)
            roll = roll < inserts ? -2 : roll < inserts + removals ? -1 : roll - inserts - removals // 0..<58
            switch roll {
            case -2: // insert
                guard let item = randomItem(present: false) else { return true }
                let expected = model.lowerBound(item)
                let got = tree.insert(item)
                model.items.insert(item, at: expected)
                present.insert(item.key)
                if got != expected { return fail("insert \(item) at \(got), expected \(expected)") }
            case -1: // remove a present element
                guard let item = randomItem(present: true) else { return true }
                let expected = model.position(of: item)!
                var probe = item
                probe.payload = -1 // found by order, the stored element comes back
                guard let got = tree.remove(probe) else { return fail("remove \(item): not found") }
                model.items.remove(at: expected)
                present.remove(item.key)
                if got.position != expected || got.element != item {
                    return fail("remove \(item) gave \(got), expected (\(expected), \(item))")
                }
            case 0..<5: // remove an absent element
                guard let item = randomItem(present: false) else { return true }
                if let got = tree.remove(item) { return fail("remove of absent \(item) gave \(got)") }
            case 5..<17: // position of present or absent
                let wanted = Bool.random(using: &random)
                guard let item = randomItem(present: wanted) else { return true }
                let got = tree.position(of: item)
                if got != model.position(of: item) { return fail("position(of: \(item)) = \(String(describing: got))") }
            case 17..<29: // lowerBound of arbitrary probes, including beyond both ends
                let item = TreeItem(score: Int.random(in: -2..<103, using: &random), key: Int.random(in: -1...20_001, using: &random))
                let got = tree.lowerBound(item)
                if got != model.lowerBound(item) { return fail("lowerBound(\(item)) = \(got), expected \(model.lowerBound(item))") }
            case 29..<43: // subscript
                guard !model.items.isEmpty else { return true }
                let at = Int.random(in: 0..<model.items.count, using: &random)
                if tree[at] != model.items[at] { return fail("tree[\(at)] = \(tree[at]), expected \(model.items[at])") }
            default: // replace, present (new payload) or absent
                if Bool.random(using: &random), var item = randomItem(present: true) {
                    item.payload = Int.random(in: 1..<1_000_000, using: &random)
                    let expected = model.position(of: item)!
                    let got = tree.replace(item)
                    model.items[expected] = item
                    if got != expected { return fail("replace \(item) at \(String(describing: got)), expected \(expected)") }
                } else if let item = randomItem(present: false) {
                    if let got = tree.replace(item) { return fail("replace of absent \(item) gave \(got)") }
                }
            }
            if tree.count != model.items.count { return fail("count \(tree.count), expected \(model.items.count)") }
            if operations % 1_000 == 0, let violation = tree.invariantViolation() { return fail(violation) }
            return true
        }

        for target in targets {
            let growing = tree.count < target
            while growing ? tree.count < target : tree.count > target {
                guard step(growing: growing) else { return }
            }
            // Churn at this size for a while.
            for k in 0..<4_000 {
                guard step(growing: k % 2 == 0 ? tree.count < target : false) else { return }
            }
            if let violation = tree.invariantViolation() { _ = fail("after phase \(target): \(violation)"); return }
            if Array(tree) != model.items { _ = fail("sequence differs after phase \(target)"); return }
        }
        print("OrderStatisticTree differential: \(operations) operations")
        #expect(operations >= 100_000, "seed \(seed): only \(operations) operations")
        #expect(tree.isEmpty)
    }

    @Test("copy-on-write: mutating a copy leaves the original unchanged")
    func copyOnWrite() {
        let seed = printedSeed("OrderStatisticTree copy-on-write")
        var random = Rng(seed: seed)
        let items = (0..<3_000).map { TreeItem(score: Int.random(in: 0..<50, using: &random), key: $0) }
        let original = OrderStatisticTree(items, areInIncreasingOrder: TreeItem.less)
        let snapshot = Array(original)

        var copy = original
        copy.insert(TreeItem(score: 25, key: 10_000))
        copy.remove(items[17])
        var changed = items[42]
        changed.payload = 99
        #expect(copy.replace(changed) != nil)
        #expect(Array(original) == snapshot, "seed \(seed)")
        #expect(original.count == 3_000)
        #expect(original.invariantViolation() == nil)
        #expect(copy.invariantViolation() == nil)
        #expect(copy.count == 3_000)
        #expect(copy.position(of: changed).map { copy[$0].payload } == 99)
        #expect(original.position(of: changed).map { original[$0].payload } == 0)

        // Emptying a copy by removals, and removing absent elements from a shared tree.
        var drained = original
        #expect(drained.remove(TreeItem(score: 1_000, key: -1)) == nil)
        #expect(drained.replace(TreeItem(score: 1_000, key: -1)) == nil)
        for item in items.shuffled(using: &random) { drained.remove(item) }
        #expect(drained.isEmpty)
        #expect(drained.invariantViolation() == nil)
        #expect(Array(original) == snapshot)

        // An iterator sees the tree as it was when it was made.
        var mutated = original
        var iterator = mutated.makeIterator()
        for item in items.prefix(1_500) { mutated.remove(item) }
        mutated.removeAll()
        var seen: [TreeItem] = []
        while let item = iterator.next() { seen.append(item) }
        #expect(seen == snapshot)
        #expect(mutated.isEmpty && Array(mutated).isEmpty)
        #expect(Array(original) == snapshot)
    }

    @Test("a comparator reading a nested field; bulk init from unsorted elements")
    func nestedComparatorAndBulkInit() {
        struct Rank { var value: Double }
        struct Entry { var rank: Rank; var name: String }
        let less: (Entry, Entry) -> Bool = { a, b in
            a.rank.value != b.rank.value ? a.rank.value > b.rank.value : a.name < b.name // descending rank
        }
        let seed = printedSeed("OrderStatisticTree nested comparator")
        var random = Rng(seed: seed)
        let entries = (0..<5_000).map { Entry(rank: Rank(value: Double(Int.random(in: 0..<40, using: &random))), name: "n\($0)") }
        var tree = OrderStatisticTree(entries.shuffled(using: &random), areInIncreasingOrder: less)
        let sorted = entries.sorted(by: less)
        #expect(tree.invariantViolation() == nil, "seed \(seed)")
        #expect(tree.map(\.name) == sorted.map(\.name))
        for (at, entry) in sorted.enumerated() where at % 97 == 0 {
            #expect(tree.position(of: entry) == at)
            #expect(tree[at].name == entry.name)
        }
        tree.insert(Entry(rank: Rank(value: 100), name: "top"))
        #expect(tree[0].name == "top")
        #expect(tree.invariantViolation() == nil)

        // Bulk builds of every size up to a few leaves, and larger ones across heights.
        for size in Array(0...300) + [4_095, 4_096, 4_097, 8_000, 70_000] {
            let items = (0..<size).map { TreeItem(score: Int.random(in: 0..<10, using: &random), key: $0) }
            var built = OrderStatisticTree(items.shuffled(using: &random), areInIncreasingOrder: TreeItem.less)
            if let violation = built.invariantViolation() {
                Issue.record("size \(size): \(violation)")
                continue
            }
            #expect(Array(built) == items.sorted(by: TreeItem.less), "size \(size)")
            // A built tree takes insertions and removals.
            built.insert(TreeItem(score: 5, key: -7))
            if size > 0 { built.remove(items[size / 2]) }
            if let violation = built.invariantViolation() { Issue.record("size \(size) after edits: \(violation)") }
        }
    }

    @Test("reference-counted elements are neither leaked nor over-released")
    func elementLifetimes() {
        final class Counter { var live = 0 }
        final class Token {
            let counter: Counter
            init(_ counter: Counter) { self.counter = counter; counter.live += 1 }
            deinit { counter.live -= 1 }
        }
        struct Tracked { var key: Int; var token: Token }
        let less: (Tracked, Tracked) -> Bool = { $0.key < $1.key }
        let counter = Counter()
        let seed = printedSeed("OrderStatisticTree lifetimes")
        var random = Rng(seed: seed)
        do {
            var tree = OrderStatisticTree((0..<2_000).map { Tracked(key: $0 * 2, token: Token(counter)) }, areInIncreasingOrder: less)
            var keys = Set((0..<2_000).map { $0 * 2 })
            var snapshots: [OrderStatisticTree<Tracked>] = []
            for step in 0..<20_000 {
                let key = Int.random(in: 0..<8_000, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0 where !keys.contains(key):
                    tree.insert(Tracked(key: key, token: Token(counter)))
                    keys.insert(key)
                case 1:
                    let removed = tree.remove(Tracked(key: key, token: Token(counter)))
                    #expect((removed != nil) == keys.contains(key), "seed \(seed)")
                    keys.remove(key)
                default:
                    _ = tree.replace(Tracked(key: key, token: Token(counter)))
                }
                if step % 2_500 == 0 { snapshots.append(tree) }
            }
            #expect(tree.invariantViolation() == nil, "seed \(seed)")
            #expect(tree.count == keys.count)
            snapshots.append(tree)
            tree.removeAll()
            #expect(snapshots.allSatisfy { $0.invariantViolation() == nil })
        }
        #expect(counter.live == 0, "seed \(seed): \(counter.live) elements leaked or over-released")
    }

    @Test("iteration from a position")
    func iterationFromPosition() {
        let items = (0..<2_000).map { TreeItem(score: $0 % 7, key: $0) }
        let tree = OrderStatisticTree(items, areInIncreasingOrder: TreeItem.less)
        let sorted = items.sorted(by: TreeItem.less)
        for start in [0, 1, 31, 32, 33, 63, 64, 65, 1_000, 1_999, 2_000] + Array(stride(from: 0, to: 2_000, by: 37)) {
            var iterator = tree.makeIterator(from: start)
            var seen: [TreeItem] = []
            while let item = iterator.next() { seen.append(item) }
            #expect(seen == Array(sorted[start...]), "start \(start)")
        }
    }

    @Test("edge cases: empty tree, absent elements, lowerBound at both ends")
    func edgeCases() {
        var tree = OrderStatisticTree<TreeItem>(areInIncreasingOrder: TreeItem.less)
        let probe = TreeItem(score: 1, key: 1)
        #expect(tree.isEmpty && tree.count == 0)
        #expect(tree.position(of: probe) == nil)
        #expect(tree.lowerBound(probe) == 0)
        #expect(tree.remove(probe) == nil)
        #expect(tree.replace(probe) == nil)
        #expect(Array(tree).isEmpty)
        var emptyIterator = tree.makeIterator(from: 0)
        #expect(emptyIterator.next() == nil)
        #expect(tree.invariantViolation() == nil)
        tree.removeAll()
        #expect(tree.isEmpty)

        #expect(tree.insert(TreeItem(score: 5, key: 0)) == 0)
        #expect(tree.insert(TreeItem(score: 7, key: 0)) == 1)
        #expect(tree.insert(TreeItem(score: 6, key: 0)) == 1)
        #expect(tree.insert(TreeItem(score: 5, key: -1)) == 0)
        #expect(tree.lowerBound(TreeItem(score: Int.min, key: 0)) == 0)
        #expect(tree.lowerBound(TreeItem(score: Int.max, key: 0)) == 4)
        #expect(tree.lowerBound(TreeItem(score: 6, key: 0)) == 2)
        #expect(tree.lowerBound(TreeItem(score: 6, key: 1)) == 3)
        #expect(tree.remove(TreeItem(score: 6, key: 1)) == nil)
        #expect(tree.remove(TreeItem(score: 5, key: -1))?.position == 0)
        #expect(tree.count == 3)
        #expect(tree[0] == TreeItem(score: 5, key: 0) && tree[2] == TreeItem(score: 7, key: 0))
        #expect(tree.position(of: TreeItem(score: 7, key: 0)) == 2)
        while !tree.isEmpty { tree.remove(tree[0]) }
        #expect(tree.isEmpty && tree.invariantViolation() == nil)

        // lowerBound at both ends of a multi-level tree, removeAll of a large one.
        let big = OrderStatisticTree((0..<10_000).map { TreeItem(score: 0, key: $0) }, areInIncreasingOrder: TreeItem.less)
        #expect(big.lowerBound(TreeItem(score: 0, key: -1)) == 0)
        #expect(big.lowerBound(TreeItem(score: 0, key: 0)) == 0)
        #expect(big.lowerBound(TreeItem(score: 0, key: 9_999)) == 9_999)
        #expect(big.lowerBound(TreeItem(score: 0, key: 10_000)) == 10_000)
        #expect(big.lowerBound(TreeItem(score: 1, key: 0)) == 10_000)
        #expect(big[0].key == 0 && big[9_999].key == 9_999)
        var cleared = big
        cleared.removeAll()
        #expect(cleared.isEmpty && cleared.invariantViolation() == nil && big.count == 10_000)
    }
}
