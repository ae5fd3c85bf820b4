// LocationTree.swift — the streams' locations as a tree of keys, so that a
// write finds the streams it concerns without visiting the others.

import LiveModel

/// Stream ids by the location each listens at, as a tree of keys: a write
/// at a path concerns the streams on the way down to it (at or above the
/// path) and every stream below it, and no other.
///
/// Not thread-safe: held by the server's ``ListenerRegistry``, under its
/// lock.
struct LocationTree {
    private final class Node {
        /// The streams at this location, in the order they were added.
        var ids: [Int] = []
        var children: [Key: Node] = [:]
        var isEmpty: Bool { ids.isEmpty && children.isEmpty }
    }

    private let root = Node()

    /// Whether no stream is left (and so no location is kept).
    var isEmpty: Bool { root.isEmpty }

    /// Adds stream `id` at `path`. Ids must grow from one call to the next,
    /// so that each location keeps its streams in the order they came.
    /// - Complexity: O(depth of `path`).
    func insert(_ id: Int, at path: DatabasePath) {
        var node = root
        for key in path.keys {
            if let next = node.children[key] {
                node = next
            } else {
                let next = Node()
                node.children[key] = next
                node = next
            }
        }
        node.ids.append(id)
    }

    /// Removes stream `id` from `path`, and the locations left empty.
    /// - Complexity: O(depth of `path` + streams at `path`).
    func remove(_ id: Int, at path: DatabasePath) {
        var trail = [root]
        for key in path.keys {
            guard let next = trail.last!.children[key] else { return }
            trail.append(next)
        }
        guard let index = trail.last!.ids.firstIndex(of: id) else { return }
        trail.last!.ids.remove(at: index)
        // Empty locations go, deepest first; the root stays.
        for depth in stride(from: path.keys.count, to: 0, by: -1) where trail[depth].isEmpty {
            trail[depth - 1].children[path.keys[depth - 1]] = nil
        }
    }

    /// The ids of the streams a write at `path` concerns: at `path` or above
    /// it, and below it. Unordered; a stream appears once.
    /// - Complexity: O(depth of `path` + the streams returned + the
    ///   locations below `path`).
    func concerned(by path: DatabasePath, into ids: inout [Int]) {
        var node = root
        ids.append(contentsOf: node.ids)
        for key in path.keys {
            guard let next = node.children[key] else { return }
            node = next
            ids.append(contentsOf: node.ids)
        }
        var below = Array(node.children.values)
        while let next = below.popLast() {
            ids.append(contentsOf: next.ids)
            below.append(contentsOf: next.children.values)
        }
    }
}
