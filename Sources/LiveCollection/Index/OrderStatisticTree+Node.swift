// OrderStatisticTree+Node.swift — the nodes of the counted B-tree: storage, copying, insertion.

/// The header of an ``OrderStatisticTree`` node.
struct OrderStatisticTreeNodeHeader {
    var elementCount: Int
    let isLeaf: Bool
}

extension OrderStatisticTree {
    /// A node of the counted B-tree, in one allocation: the header, then the
    /// elements and, in an inner node, the per-child counts and the children.
    ///
    /// Storage is fixed-capacity: room for `maxElements + 1` elements and, in
    /// inner nodes, `maxElements + 2` counts and children, so an insertion may
    /// overflow a node by one element before the node splits. `counts[i]` is
    /// the number of elements in the subtree `children[i]`, so descending by
    /// position never touches the children themselves. A leaf has
    /// `children == nil` and `counts == nil`.
    ///
    /// Invariant outside a mutation in progress: an inner node holds exactly
    /// `elementCount + 1` initialised children (`deinit` relies on it).
    ///
    /// Nodes are shared between copies of a tree; a mutation first makes the
    /// path it changes unique (``copy()`` of each shared node on it).
    final class Node: ManagedBuffer<OrderStatisticTreeNodeHeader, UInt64> {
        /// Most elements in a node. Odd (`2 * minElements + 1`), so that a node
        /// overflowing by one splits into two halves of at least `minElements`.
        static var maxElements: Int { 63 }
        /// Fewest elements in a node other than the root.
        static var minElements: Int { 31 }

        /// Bytes from the (8-aligned) start of the tail to the counts of an
        /// inner node: the elements, with room to align them, rounded up to 8.
        private static var countsOffset: Int {
            let elementBytes = (maxElements + 1) * MemoryLayout<Element>.stride
            let padding = Swift.max(MemoryLayout<Element>.alignment - 8, 0)
            return (padding + elementBytes + 7) & ~7
        }

        /// An empty node. An inner node must be given its children before it can be released.
        static func make(isLeaf: Bool) -> Node {
            let innerBytes = (maxElements + 2) * (MemoryLayout<Int>.stride + MemoryLayout<Node>.stride)
            let bytes = countsOffset + (isLeaf ? 0 : innerBytes)
            let buffer = create(minimumCapacity: bytes / 8) { _ in
                OrderStatisticTreeNodeHeader(elementCount: 0, isLeaf: isLeaf)
            }
            let node = unsafeDowncast(buffer, to: Node.self)
            node.withUnsafeMutablePointerToElements { tail in
                let raw = UnsafeMutableRawPointer(tail)
                raw.alignedUp(for: Element.self).bindMemory(to: Element.self, capacity: maxElements + 1)
                if !isLeaf {
                    (raw + countsOffset).bindMemory(to: Int.self, capacity: maxElements + 2)
                    (raw + countsOffset + (maxElements + 2) * MemoryLayout<Int>.stride)
                        .bindMemory(to: Node.self, capacity: maxElements + 2)
                }
            }
            return node
        }

        deinit {
            elements.deinitialize(count: elementCount)
            children?.deinitialize(count: elementCount + 1)
        }

        /// The start of the tail, 8-aligned.
        @inline(__always)
        private var tail: UnsafeMutableRawPointer {
            withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0) }
        }

        /// Number of elements in this node.
        @inline(__always)
        var elementCount: Int {
            get { header.elementCount }
            set { header.elementCount = newValue }
        }

        @inline(__always)
        var isLeaf: Bool { header.isLeaf }

        /// The elements, room for `maxElements + 1`.
        @inline(__always)
        var elements: UnsafeMutablePointer<Element> {
            let tail = tail
            if MemoryLayout<Element>.alignment <= 8 { return tail.assumingMemoryBound(to: Element.self) }
            return tail.alignedUp(for: Element.self).assumingMemoryBound(to: Element.self)
        }

        /// The element counts of the children (room for `maxElements + 2`); nil in a leaf.
        @inline(__always)
        var counts: UnsafeMutablePointer<Int>? {
            if isLeaf { return nil }
            return (tail + Self.countsOffset).assumingMemoryBound(to: Int.self)
        }

        /// The children (room for `maxElements + 2`); nil in a leaf.
        @inline(__always)
        var children: UnsafeMutablePointer<Node>? {
            if isLeaf { return nil }
            return (tail + Self.countsOffset + (Self.maxElements + 2) * MemoryLayout<Int>.stride)
                .assumingMemoryBound(to: Node.self)
        }

        /// A shallow copy: the same elements, the same (now shared) children.
        func copy() -> Node {
            let node = Node.make(isLeaf: isLeaf)
            node.elements.initialize(from: elements, count: elementCount)
            if let children {
                node.children.unsafelyUnwrapped.initialize(from: children, count: elementCount + 1)
                node.counts.unsafelyUnwrapped.initialize(from: counts.unsafelyUnwrapped, count: elementCount + 1)
            }
            node.elementCount = elementCount
            return node
        }

        /// Number of elements in the subtrees `children[0..<i]`.
        @inline(__always)
        func countBefore(child i: Int) -> Int {
            let counts = counts.unsafelyUnwrapped
            var total = 0
            for k in 0..<i { total &+= counts[k] }
            return total
        }

        /// Elements between the samples of ``lowerBound(_:_:)``: about one per
        /// 64-byte cache line, and at least 4 so that large elements do not
        /// cost too many comparisons.
        @inline(__always)
        static var sampleStride: Int { Swift.max(4, 64 / Swift.max(1, MemoryLayout<Element>.stride)) }

        /// Index of the first element of this node that does not order before `element`.
        ///
        /// Compares every `sampleStride`-th element in turn, then the elements
        /// between the last two samples. Unlike the probes of a binary search,
        /// the loads of successive samples do not depend on one another, so the
        /// processor fetches the cache lines of a node that is not cached in
        /// parallel, in about one memory latency rather than one per probe.
        /// At a million elements this roughly halved the time per operation.
        @inline(__always)
        func lowerBound(_ element: Element, _ less: (Element, Element) -> Bool) -> Int {
            let elements = elements
            let count = elementCount
            let stride = Self.sampleStride
            var sample = stride &- 1
            while sample < count && less(elements[sample], element) { sample &+= stride }
            // Everything before sample - stride + 1 orders before `element`.
            var index = sample &- stride &+ 1
            let end = Swift.min(sample, count)
            while index < end && less(elements[index], element) { index &+= 1 }
            return index
        }

        /// Makes `children[i]` uniquely referenced (copying it if shared) and returns it.
        @inline(__always)
        func uniqueChild(_ i: Int) -> Node {
            let children = children.unsafelyUnwrapped
            if !isKnownUniquelyReferenced(&children[i]) { children[i] = children[i].copy() }
            return children[i]
        }

        // MARK: Insertion

        // Insertion and removal return plain integers and pass elements through
        // pointers rather than returning tuples or optionals of generic types:
        // unspecialized generic code would look up the metadata of such types
        // at every level of the recursion.

        /// Inserts `element` into this subtree, which is uniquely referenced,
        /// and returns its position in the subtree. This node may be left
        /// overflowing by one element, for the caller to split with ``splitChild(_:)``.
        func insert(_ element: Element, _ less: (Element, Element) -> Bool) -> Int {
            let i = lowerBound(element, less)
            assert(i == elementCount || less(element, elements[i]),
                   "OrderStatisticTree.insert: an equal element is already present")
            guard let counts else {
                (elements + i + 1).moveInitialize(from: elements + i, count: elementCount - i)
                (elements + i).initialize(to: element)
                elementCount += 1
                return i
            }
            let before = i &+ countBefore(child: i)
            let child = uniqueChild(i)
            let inChild = child.insert(element, less)
            counts[i] &+= 1
            if child.elementCount > Self.maxElements { splitChild(i) }
            return before &+ inChild
        }

        /// Splits `children[i]`, which overflows by one element
        /// (`maxElements + 1`): it keeps its first `minElements + 1` elements,
        /// its median becomes element `i` of this node, and the rest
        /// (`minElements`) moves to a new child `i + 1`. This node may be left
        /// overflowing in turn.
        func splitChild(_ i: Int) {
            let children = children.unsafelyUnwrapped
            let counts = counts.unsafelyUnwrapped
            let child = children[i]
            let moved = elementCount - i
            (elements + i + 1).moveInitialize(from: elements + i, count: moved)
            (children + i + 2).moveInitialize(from: children + i + 1, count: moved)
            (counts + i + 2).moveInitialize(from: counts + i + 1, count: moved)

            let leftCount = Self.minElements + 1
            let rightElements = child.elementCount - leftCount - 1
            let right = Node.make(isLeaf: child.isLeaf)
            right.elements.moveInitialize(from: child.elements + leftCount + 1, count: rightElements)
            (elements + i).moveInitialize(from: child.elements + leftCount, count: 1)
            var rightCount = rightElements
            if let childChildren = child.children {
                let childCounts = child.counts.unsafelyUnwrapped
                let rightCounts = right.counts.unsafelyUnwrapped
                right.children.unsafelyUnwrapped
                    .moveInitialize(from: childChildren + leftCount + 1, count: rightElements + 1)
                rightCounts.initialize(from: childCounts + leftCount + 1, count: rightElements + 1)
                for k in 0...rightElements { rightCount &+= rightCounts[k] }
            }
            right.elementCount = rightElements
            child.elementCount = leftCount
            (children + i + 1).initialize(to: right)
            counts[i] -= rightCount &+ 1
            counts[i + 1] = rightCount
            elementCount += 1
        }
    }
}
