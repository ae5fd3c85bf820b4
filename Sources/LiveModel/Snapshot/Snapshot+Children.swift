extension Snapshot {
    /// The children of a snapshot, in the order of the JSON text, as
    /// snapshots whose values are read only on demand.
    public struct Children: RandomAccessCollection, Sendable {
        let document: SnapshotDocument?

        /// The position of the first child: always 0.
        public var startIndex: Int { 0 }
        /// The position after the last child: the number of children.
        /// - Complexity: O(1).
        public var endIndex: Int { document?.count ?? 0 }

        /// The child at `position`: its key is read now, its value when
        /// asked for.
        /// - Complexity: O(length of the key).
        public subscript(position: Int) -> Snapshot {
            precondition(position >= 0 && position < endIndex, "Snapshot.Children index out of range")
            let document = document!
            return Snapshot(location: .child(document, position), key: document.key(at: position))
        }

        /// The keys of the children, in order.
        /// - Complexity: O(total length of the keys).
        public var keys: [Key] {
            guard let document else { return [] }
            return (0..<document.count).compactMap { document.key(at: $0) }
        }
    }
}
