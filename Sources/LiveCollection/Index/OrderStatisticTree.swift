// OrderStatisticTree.swift — a sorted sequence ordered by a Swift comparator, with positions.

/// A sorted sequence of elements ordered by a caller-supplied comparator, with
/// access by position: insertion, removal, search and access at a position
/// all take O(log n).
///
/// It is a counted B-tree: nodes hold up to 63 elements in contiguous storage,
/// and inner nodes keep the number of elements under each child, so a
/// position is found by summing counts rather than by visiting subtrees.
///
/// The comparator must be a strict total order over the elements that are in
/// the tree at the same time: callers break ties themselves (for example by
/// key), so equal elements (neither ordering before the other) never coexist.
///
/// `OrderStatisticTree` is a value type with copy-on-write: copying is O(1),
/// and the first mutation of a copy copies the nodes on the path it changes.
/// It is not `Sendable` (its comparator is an arbitrary closure): confine a
/// tree to one isolation domain.
package struct OrderStatisticTree<Element> {
    /// The root: a leaf while the tree is small, otherwise an inner node with at least one element.
    var root: Node
    /// The order of the elements.
    let areInIncreasingOrder: (Element, Element) -> Bool

    /// The number of elements.
    ///
    /// - Complexity: O(1)
    package private(set) var count: Int

    /// Creates an empty tree ordered by `areInIncreasingOrder`.
    ///
    /// - Parameter areInIncreasingOrder: A strict total order over the
    ///   elements that are in the tree at the same time (callers break ties
    ///   themselves, e.g. by key), so equal elements never coexist.
    /// - Complexity: O(1)
    package init(areInIncreasingOrder: @escaping (Element, Element) -> Bool) {
        root = Node.make(isLeaf: true)
        self.areInIncreasingOrder = areInIncreasingOrder
        count = 0
    }

    /// A tree of `count` elements under `root`.
    init(root: Node, count: Int, areInIncreasingOrder: @escaping (Element, Element) -> Bool) {
        self.root = root
        self.count = count
        self.areInIncreasingOrder = areInIncreasingOrder
    }

    /// Whether the tree has no elements.
    ///
    /// - Complexity: O(1)
    package var isEmpty: Bool { count == 0 }

    /// Inserts `element` and returns its position.
    ///
    /// No element equal to `element` may be present (checked in debug builds only).
    ///
    /// - Complexity: O(log n)
    @discardableResult
    package mutating func insert(_ element: Element) -> Int {
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        let position = root.insert(element, areInIncreasingOrder)
        if root.elementCount > Node.maxElements {
            // Grow a level: a new root above the old one, which it splits.
            let newRoot = Node.make(isLeaf: false)
            newRoot.children.unsafelyUnwrapped.initialize(to: root)
            newRoot.counts.unsafelyUnwrapped[0] = count + 1
            newRoot.splitChild(0)
            root = newRoot
        }
        count += 1
        return position
    }

    /// Removes the element equal to `element` (neither orders before the
    /// other), and returns its former position and the stored element, or
    /// nil if there is none.
    ///
    /// - Complexity: O(log n)
    @discardableResult
    package mutating func remove(_ element: Element) -> (position: Int, element: Element)? {
        var present = false
        if !isKnownUniquelyReferenced(&root) {
            guard root.contains(element, areInIncreasingOrder) else { return nil }
            present = true
            root = root.copy()
        }
        return withUnsafeTemporaryAllocation(of: Element.self, capacity: 1) { removed in
            let position = root.remove(element, knownPresent: present, areInIncreasingOrder, into: removed.baseAddress!)
            guard position >= 0 else { return nil }
            count -= 1
            if root.elementCount == 0, let children = root.children {
                root = children[0] // shrink a level
            }
            return (position, removed.baseAddress!.move())
        }
    }

    /// Replaces the element equal to `element` (for example an updated model
    /// whose sort fields did not change) by `element`, in place, and returns
    /// its position, or nil (changing nothing) if there is no equal element.
    ///
    /// - Complexity: O(log n)
    package mutating func replace(_ element: Element) -> Int? {
        let less = areInIncreasingOrder
        var present = false
        if !isKnownUniquelyReferenced(&root) {
            guard root.contains(element, less) else { return nil }
            present = true
            root = root.copy()
        }
        unowned(unsafe) var node = root // the tree keeps every node on the path alive
        var position = 0
        while true {
            let i = node.lowerBound(element, less)
            if i < node.elementCount && !less(element, node.elements[i]) {
                node.elements[i] = element
                if node.children == nil { return position &+ i }
                return position &+ i &+ node.countBefore(child: i + 1)
            }
            guard let children = node.children else { return nil }
            position &+= i &+ node.countBefore(child: i)
            if !isKnownUniquelyReferenced(&children[i]) {
                guard present || children[i].contains(element, less) else { return nil }
                present = true
                children[i] = children[i].copy()
            }
            node = children[i]
        }
    }

    /// Removes every element, keeping the order.
    ///
    /// - Complexity: O(n) to release the elements (O(1) if the storage is shared with a copy).
    package mutating func removeAll() {
        root = Node.make(isLeaf: true)
        count = 0
    }

    /// The position of the element equal to `element`, or nil if there is none.
    ///
    /// - Complexity: O(log n)
    package func position(of element: Element) -> Int? {
        let less = areInIncreasingOrder
        unowned(unsafe) var node = root // the tree keeps its nodes alive: no reference counting
        var position = 0
        while true {
            let i = node.lowerBound(element, less)
            let found = i < node.elementCount && !less(element, node.elements[i])
            guard let children = node.children else { return found ? position &+ i : nil }
            if found { return position &+ i &+ node.countBefore(child: i + 1) }
            position &+= i &+ node.countBefore(child: i)
            node = children[i]
        }
    }

    /// The number of elements that order before `element`, whether or not
    /// `element` is present: the position where it is or would be inserted.
    ///
    /// - Complexity: O(log n)
    package func lowerBound(_ element: Element) -> Int {
        let less = areInIncreasingOrder
        unowned(unsafe) var node = root
        var position = 0
        while true {
            let i = node.lowerBound(element, less)
            position &+= i
            guard let children = node.children else { return position }
            position &+= node.countBefore(child: i)
            node = children[i]
        }
    }

    /// The element at `position`, which must be in `0..<count`.
    ///
    /// - Complexity: O(log n)
    package subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "OrderStatisticTree: position out of range")
        unowned(unsafe) var node = root
        var offset = position
        while let children = node.children {
            let counts = node.counts.unsafelyUnwrapped
            var k = 0
            while true {
                let size = counts[k]
                if offset < size { break }
                if offset == size { return node.elements[k] }
                offset &-= size &+ 1
                k &+= 1
            }
            node = children[k]
        }
        return node.elements[offset]
    }
}
