// SectionRows.swift — the rows of one section, in the collection's order.
import LiveCollection

/// The rows of one section: the order posts of its models, in the
/// collection's order, boxed so that changes happen in place (a tree kept as
/// a dictionary value would be copied on write).
///
/// Not generic over the model or the section, so that its tree is one
/// concrete type whatever the collection holds.
final class SectionRows {
    var tree: OrderStatisticTree<OrderPost>

    /// The rows of `sorted`, built in bulk.
    /// - Complexity: O(n).
    init(sorted: [OrderPost]) { tree = OrderStatisticTree<OrderPost>(sorted, areInIncreasingOrder: { $0 < $1 }) }
}
