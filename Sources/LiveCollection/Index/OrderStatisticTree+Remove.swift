// OrderStatisticTree+Remove.swift — removal from the counted B-tree and rebalancing.

extension OrderStatisticTree.Node {
    /// Removes the element equal to `element` from this subtree, which is
    /// uniquely referenced, moves the stored element to `removed`
    /// (uninitialised memory) and returns its position in the subtree, or
    /// returns -1 if there is no such element. Children left short are
    /// rebalanced; this node may be left short, which is its parent's
    /// business. `knownPresent` says that the element is known to be in this
    /// subtree (checked before copying shared nodes, so that removing an
    /// absent element copies nothing).
    func remove(
        _ element: Element, knownPresent: Bool, _ less: (Element, Element) -> Bool,
        into removed: UnsafeMutablePointer<Element>
    ) -> Int {
        let i = lowerBound(element, less)
        let found = i < elementCount && !less(element, elements[i])
        guard let counts else {
            guard found else { return -1 }
            removed.moveInitialize(from: elements + i, count: 1)
            (elements + i).moveInitialize(from: elements + i + 1, count: elementCount - i - 1)
            elementCount -= 1
            return i
        }
        let before = i &+ countBefore(child: i)
        if found {
            // Replace it by its predecessor, the last element of the subtree before it.
            let position = before &+ counts[i]
            removed.moveInitialize(from: elements + i, count: 1)
            uniqueChild(i).removeLast(into: elements + i)
            counts[i] -= 1
            rebalance(child: i)
            return position
        }
        let children = children.unsafelyUnwrapped
        var present = knownPresent
        if !isKnownUniquelyReferenced(&children[i]) {
            guard present || children[i].contains(element, less) else { return -1 }
            present = true
            children[i] = children[i].copy()
        }
        let inChild = children[i].remove(element, knownPresent: present, less, into: removed)
        guard inChild >= 0 else { return -1 }
        counts[i] -= 1
        rebalance(child: i)
        return before &+ inChild
    }

    /// Whether this subtree holds an element equal to `element`, so that a
    /// removal of an absent element does not copy shared nodes.
    func contains(_ element: Element, _ less: (Element, Element) -> Bool) -> Bool {
        unowned(unsafe) var node = self // the tree keeps its nodes alive
        while true {
            let i = node.lowerBound(element, less)
            if i < node.elementCount && !less(element, node.elements[i]) { return true }
            guard let children = node.children else { return false }
            node = children[i]
        }
    }

    /// Moves the last element of this subtree, which is uniquely referenced,
    /// to `destination` (uninitialised memory).
    func removeLast(into destination: UnsafeMutablePointer<Element>) {
        guard let counts else {
            elementCount -= 1
            destination.moveInitialize(from: elements + elementCount, count: 1)
            return
        }
        let last = elementCount
        uniqueChild(last).removeLast(into: destination)
        counts[last] -= 1
        rebalance(child: last)
    }

    /// Restores the occupancy of `children[i]` after a removal left it with
    /// fewer than `minElements`: borrows through this node from a sibling that
    /// can spare an element, or else merges with a sibling.
    func rebalance(child i: Int) {
        let children = children.unsafelyUnwrapped
        guard children[i].elementCount < Self.minElements else { return }
        if i > 0 && children[i - 1].elementCount > Self.minElements {
            rotateRight(into: i)
        } else if i < elementCount && children[i + 1].elementCount > Self.minElements {
            rotateLeft(into: i)
        } else if i > 0 {
            merge(at: i - 1)
        } else {
            merge(at: i)
        }
    }

    /// Moves the last element of `children[i - 1]` up and separator `i - 1` down into `children[i]`.
    private func rotateRight(into i: Int) {
        let children = children.unsafelyUnwrapped
        let counts = counts.unsafelyUnwrapped
        let left = uniqueChild(i - 1)
        let child = children[i] // already unique: the removal went through it
        let childCount = child.elementCount
        (child.elements + 1).moveInitialize(from: child.elements, count: childCount)
        child.elements.initialize(to: (elements + i - 1).move())
        left.elementCount -= 1
        (elements + i - 1).initialize(to: (left.elements + left.elementCount).move())
        var moved = 1
        if let childChildren = child.children {
            let childCounts = child.counts.unsafelyUnwrapped
            let last = left.elementCount + 1
            (childChildren + 1).moveInitialize(from: childChildren, count: childCount + 1)
            childChildren.moveInitialize(from: left.children.unsafelyUnwrapped + last, count: 1)
            (childCounts + 1).moveInitialize(from: childCounts, count: childCount + 1)
            childCounts[0] = left.counts.unsafelyUnwrapped[last]
            moved &+= childCounts[0]
        }
        child.elementCount = childCount + 1
        counts[i - 1] -= moved
        counts[i] += moved
    }

    /// Moves the first element of `children[i + 1]` up and separator `i` down into `children[i]`.
    private func rotateLeft(into i: Int) {
        let children = children.unsafelyUnwrapped
        let counts = counts.unsafelyUnwrapped
        let right = uniqueChild(i + 1)
        let child = children[i]
        let childCount = child.elementCount
        (child.elements + childCount).initialize(to: (elements + i).move())
        (elements + i).initialize(to: right.elements.move())
        let rightCount = right.elementCount
        right.elements.moveInitialize(from: right.elements + 1, count: rightCount - 1)
        var moved = 1
        if let childChildren = child.children {
            let childCounts = child.counts.unsafelyUnwrapped
            let rightChildren = right.children.unsafelyUnwrapped
            let rightCounts = right.counts.unsafelyUnwrapped
            (childChildren + childCount + 1).moveInitialize(from: rightChildren, count: 1)
            childCounts[childCount + 1] = rightCounts[0]
            moved &+= rightCounts[0]
            rightChildren.moveInitialize(from: rightChildren + 1, count: rightCount)
            rightCounts.moveInitialize(from: rightCounts + 1, count: rightCount)
        }
        right.elementCount = rightCount - 1
        child.elementCount = childCount + 1
        counts[i] += moved
        counts[i + 1] -= moved
    }

    /// Merges `children[j]`, separator `j` and `children[j + 1]` into `children[j]`.
    /// The right child is copied from rather than moved from, so it need not be unique.
    private func merge(at j: Int) {
        let children = children.unsafelyUnwrapped
        let counts = counts.unsafelyUnwrapped
        let left = uniqueChild(j)
        let right = children[j + 1]
        let leftCount = left.elementCount
        let rightCount = right.elementCount
        (left.elements + leftCount).initialize(to: (elements + j).move())
        (left.elements + leftCount + 1).initialize(from: right.elements, count: rightCount)
        if let leftChildren = left.children {
            (leftChildren + leftCount + 1).initialize(from: right.children.unsafelyUnwrapped, count: rightCount + 1)
            (left.counts.unsafelyUnwrapped + leftCount + 1)
                .initialize(from: right.counts.unsafelyUnwrapped, count: rightCount + 1)
        }
        left.elementCount = leftCount + 1 + rightCount
        counts[j] &+= 1 &+ counts[j + 1]
        let after = elementCount - j - 1
        (elements + j).moveInitialize(from: elements + j + 1, count: after)
        (children + j + 1).deinitialize(count: 1)
        (children + j + 1).moveInitialize(from: children + j + 2, count: after)
        (counts + j + 1).moveInitialize(from: counts + j + 2, count: after)
        elementCount -= 1
    }
}
