// OrderStatisticTree+Sequence.swift — in-order iteration, bulk construction, invariant checks.

extension OrderStatisticTree: Sequence {
    /// Iterates over the elements in order. It holds the nodes it reads, so
    /// it sees the tree as it was when the iterator was made.
    package struct Iterator: IteratorProtocol {
        /// The leaf being read, and the index of its next element.
        private var leaf: Node
        private var index: Int
        /// The inner nodes above `leaf`, each with the index of the child being visited.
        private var ancestors: [(node: Node, child: Int)] = []

        /// An iterator starting at the first element of `root`.
        init(root: Node) {
            leaf = root
            index = 0
            descendLeftmost(from: root)
        }

        /// An iterator starting at `position` of the tree `root`, which holds `count` elements.
        init(root: Node, count: Int, position: Int) {
            leaf = root
            index = 0
            guard position < count else {
                // Past the end: an exhausted iterator.
                descendRightmost(from: root)
                return
            }
            var node = root
            var offset = position
            while let children = node.children {
                let counts = node.counts.unsafelyUnwrapped
                var k = 0
                while true {
                    let size = counts[k]
                    if offset < size { break }
                    if offset == size {
                        // The element is separator k of this inner node: stand at
                        // the end of child k, so that the next element is the separator.
                        ancestors.append((node, k))
                        descendRightmost(from: children[k])
                        return
                    }
                    offset &-= size &+ 1
                    k &+= 1
                }
                ancestors.append((node, k))
                node = children[k]
            }
            leaf = node
            index = offset
        }

        private mutating func descendLeftmost(from start: Node) {
            var node = start
            while let children = node.children {
                ancestors.append((node, 0))
                node = children[0]
            }
            leaf = node
            index = 0
        }

        private mutating func descendRightmost(from start: Node) {
            var node = start
            while let children = node.children {
                ancestors.append((node, node.elementCount))
                node = children[node.elementCount]
            }
            leaf = node
            index = node.elementCount
        }

        /// The next element in order, or nil at the end.
        ///
        /// - Complexity: O(1) amortised.
        package mutating func next() -> Element? {
            if index < leaf.elementCount {
                defer { index &+= 1 }
                return leaf.elements[index]
            }
            while let (node, child) = ancestors.last {
                if child < node.elementCount {
                    ancestors[ancestors.count - 1].child = child + 1
                    let element = node.elements[child]
                    descendLeftmost(from: node.children.unsafelyUnwrapped[child + 1])
                    return element
                }
                ancestors.removeLast()
            }
            return nil
        }
    }

    /// An iterator over the elements in order.
    ///
    /// - Complexity: O(log n); each element then costs O(1) amortised.
    package func makeIterator() -> Iterator { Iterator(root: root) }

    /// An iterator over the elements from `position` (in `0...count`) to the end.
    ///
    /// - Complexity: O(log n); each element then costs O(1) amortised.
    package func makeIterator(from position: Int) -> Iterator {
        precondition(position >= 0 && position <= count, "OrderStatisticTree: position out of range")
        return Iterator(root: root, count: count, position: position)
    }

    /// The number of elements.
    ///
    /// - Complexity: O(1)
    package var underestimatedCount: Int { count }
}

extension OrderStatisticTree {
    /// Creates a tree holding `elements`, given in any order, ordered by `areInIncreasingOrder`.
    ///
    /// No two elements may be equal under `areInIncreasingOrder` (checked in
    /// debug builds only). The nodes are filled nearly full.
    ///
    /// - Complexity: O(n log n) to sort, then O(n) to build.
    package init<S: Sequence>(_ elements: S, areInIncreasingOrder: @escaping (Element, Element) -> Bool)
    where S.Element == Element {
        // Sorting positions rather than elements keeps the sort itself
        // specialised (on Int) even where this initialiser is not.
        let unsorted = Array(elements)
        var order = Array(0..<unsorted.count)
        unsorted.withUnsafeBufferPointer { items in
            order.sort { areInIncreasingOrder(items[$0], items[$1]) }
        }
        let sorted = order.map { unsorted[$0] }
        guard !sorted.isEmpty else {
            self.init(areInIncreasingOrder: areInIncreasingOrder)
            return
        }
        assert(zip(sorted, sorted.dropFirst()).allSatisfy { areInIncreasingOrder($0, $1) },
               "OrderStatisticTree.init: equal elements")
        // capacities[h]: the most elements a subtree of height h holds.
        var capacities = [Node.maxElements]
        while capacities[capacities.count - 1] < sorted.count {
            let (product, overflow) = capacities[capacities.count - 1]
                .multipliedReportingOverflow(by: Node.maxElements + 1)
            capacities.append(overflow ? Int.max : product &+ Node.maxElements)
        }
        let root = sorted.withUnsafeBufferPointer { buffer in
            Self.build(buffer.baseAddress!, count: buffer.count, height: capacities.count - 1,
                       isRoot: true, capacities: capacities)
        }
        self.init(root: root, count: sorted.count, areInIncreasingOrder: areInIncreasingOrder)
    }

    /// Builds a subtree of `height` from `count` sorted elements at `source`,
    /// using as few children per node as the capacities allow (but at least
    /// the minimum below the root) and spreading the elements evenly.
    private static func build(
        _ source: UnsafePointer<Element>, count: Int, height: Int, isRoot: Bool, capacities: [Int]
    ) -> Node {
        guard height > 0 else {
            let leaf = Node.make(isLeaf: true)
            leaf.elements.initialize(from: source, count: count)
            leaf.elementCount = count
            return leaf
        }
        let childCapacity = capacities[height - 1]
        var childCount = count / (childCapacity + 1) + 1 // ceil((count + 1) / (childCapacity + 1))
        if !isRoot { childCount = Swift.max(childCount, Node.minElements + 1) }
        let inChildren = count - (childCount - 1)
        let quotient = inChildren / childCount
        let remainder = inChildren % childCount
        let node = Node.make(isLeaf: false)
        let children = node.children.unsafelyUnwrapped
        let counts = node.counts.unsafelyUnwrapped
        var offset = 0
        for k in 0..<childCount {
            let size = quotient + (k < remainder ? 1 : 0)
            (children + k).initialize(to: build(source + offset, count: size, height: height - 1,
                                                isRoot: false, capacities: capacities))
            counts[k] = size
            offset += size
            if k < childCount - 1 {
                (node.elements + k).initialize(to: source[offset])
                offset += 1
            }
        }
        node.elementCount = childCount - 1
        return node
    }

    /// Checks every structural invariant: the in-order sequence strictly
    /// increasing, the per-child counts and the total, node occupancy, and
    /// all leaves at one depth. For tests.
    ///
    /// - Returns: A description of the first violation found, or nil.
    /// - Complexity: O(n)
    package func invariantViolation() -> String? {
        var leafDepth: Int?
        func check(_ node: Node, depth: Int, isRoot: Bool) -> Result<Int, InvariantViolation> {
            if node.elementCount > Node.maxElements {
                return .failure(.init("node at depth \(depth) holds \(node.elementCount) > \(Node.maxElements)"))
            }
            if !isRoot && node.elementCount < Node.minElements {
                return .failure(.init("node at depth \(depth) holds \(node.elementCount) < \(Node.minElements)"))
            }
            guard let children = node.children else {
                if let leafDepth, leafDepth != depth {
                    return .failure(.init("leaves at depths \(leafDepth) and \(depth)"))
                }
                leafDepth = depth
                return .success(node.elementCount)
            }
            if node.elementCount == 0 { return .failure(.init("inner node without elements at depth \(depth)")) }
            let counts = node.counts.unsafelyUnwrapped
            var total = node.elementCount
            for k in 0...node.elementCount {
                switch check(children[k], depth: depth + 1, isRoot: false) {
                case .failure(let violation): return .failure(violation)
                case .success(let size):
                    if size != counts[k] {
                        return .failure(.init("child \(k) at depth \(depth) counted \(counts[k]), holds \(size)"))
                    }
                    total += size
                }
            }
            return .success(total)
        }
        switch check(root, depth: 0, isRoot: true) {
        case .failure(let violation): return violation.description
        case .success(let total):
            if total != count { return "count is \(count), tree holds \(total)" }
        }
        var previous: Element?
        var position = 0
        for element in self {
            if let previous, !areInIncreasingOrder(previous, element) {
                return "elements at \(position - 1) and \(position) are not in increasing order"
            }
            previous = element
            position += 1
        }
        if position != count { return "iteration yields \(position) elements, count is \(count)" }
        return nil
    }
}

/// A structural violation found by ``OrderStatisticTree/invariantViolation()``.
private struct InvariantViolation: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
