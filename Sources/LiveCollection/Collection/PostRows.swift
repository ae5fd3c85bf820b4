// PostRows.swift — a subset of a collection's models (a section's rows),
// kept in the collection's order.
import LiveModel

/// The order posts of a subset of a collection's models (a section's rows,
/// say), in the collection's order, with positions.
///
/// A class, so that changes happen in place where it is kept as a
/// dictionary's value; and not generic, so that its tree is compiled here,
/// specialised for ``OrderPost``, whichever module uses it: a generic tree
/// called from another module runs unspecialised, with a runtime type
/// lookup and a witness call for each copy and comparison of an element.
@usableFromInline
package final class PostRows {
    private var tree: OrderStatisticTree<OrderPost>

    /// The rows of `sorted` (ascending, no two equal), built in bulk.
    /// - Complexity: O(n).
    @usableFromInline
    package init(sorted: [OrderPost]) {
        tree = OrderStatisticTree<OrderPost>(sorted, areInIncreasingOrder: { $0 < $1 })
    }

    /// - Complexity: O(1).
    @usableFromInline
    package var count: Int { tree.count }

    /// - Complexity: O(1).
    @usableFromInline
    package var isEmpty: Bool { tree.isEmpty }

    /// Puts `post` in and returns its position. - Complexity: O(log n).
    @usableFromInline @discardableResult
    package func insert(_ post: OrderPost) -> Int { tree.insert(post) }

    /// Takes `post` out; returns its former position, or nil if it was not in.
    /// - Complexity: O(log n).
    @usableFromInline @discardableResult
    package func remove(_ post: OrderPost) -> Int? { tree.remove(post)?.position }

    /// The position of `post`, or nil. - Complexity: O(log n).
    @usableFromInline
    package func position(of post: OrderPost) -> Int? { tree.position(of: post) }

    /// The key of the model at `position`. - Complexity: O(log n).
    @usableFromInline
    package func key(at position: Int) -> Key { tree[position].key }

    /// Every key, in order. - Complexity: O(n).
    package var keys: [Key] { tree.map(\.key) }
}
