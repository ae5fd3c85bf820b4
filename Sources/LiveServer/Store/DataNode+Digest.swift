import LiveModel

extension DataNode {
    /// The core's digest of the node's export value (its value and the
    /// priorities in it; see ``ValueDigest``): the digest a client computes
    /// for the same data from its text.
    ///
    /// Equal values have equal digests, whatever order their children were
    /// written in: members are summed, not ordered. A node still kept as
    /// the text it was read from is digested from that text by the core.
    /// - Complexity: O(size of the node); O(1) for a node of many children
    ///   (``DigestMemo/threshold``) whose digest was computed before, or
    ///   followed through the writes since (see ``DigestMemo``).
    var digest: ValueDigest {
        var digester: ValueDigester?
        return digest(using: &digester)
    }

    /// The digest when it costs at most about `budget` nodes to find (a node
    /// whose memo is known counts as one; `budget` is what is left after);
    /// nil when it would cost more.
    func cheapDigest(budget: inout Int) -> ValueDigest? {
        budget -= 1
        guard budget >= 0 else { return nil }
        switch content {
        case .empty: return .absent
        case .leaf(let value): return .primitive(value)
        case .packed: return digest  // at most `SnapshotReader.packLimit` bytes of object, or one primitive
        case .prioritized(let value, let priority):
            return DataNode(content: value).cheapDigest(budget: &budget)?.prioritized(by: priority)
        case .children, .table:
            let memo = self.memo
            if let known = memo?.known { return known.object }
            if case .table(let overlay, let state) = value {
                // Cheap once the table's own members are known: the writes
                // since are taken into them.
                guard let own = state.table.digestMemo.known, budget >= overlay.count,
                      let members = state.table.members(own, with: overlay, { $0.cheapDigest(budget: &budget) })
                else { return nil }
                memo?.remember(members)
                return members.object
            }
            let children = self.children
            guard budget >= children.count else { return nil }
            var members = ValueDigest.Members()
            for (key, child) in children {
                guard let digest = child.cheapDigest(budget: &budget) else { return nil }
                members.add(key, digest)
            }
            memo?.remember(members)
            return members.object
        }
    }

    /// The memo of the digest of a node's children, for a large node.
    private var memo: DigestMemo? {
        switch value {
        case .children(_, let memo): memo
        case .table(_, let state): state.memo
        case .empty, .leaf, .packed, .prioritized: nil
        }
    }

    /// The digest, reading texts with `digester`, made at the first text.
    fileprivate func digest(using digester: inout ValueDigester?) -> ValueDigest {
        switch content {
        case .empty: return .absent
        case .prioritized(let value, let priority):
            return DataNode(content: value).digest(using: &digester).prioritized(by: priority)
        case .leaf(let value): return .primitive(value)
        case .packed(let packed):
            if digester == nil { digester = ValueDigester() }
            // Validated when it was read: only memory can fail (as it can
            // for the digester's work space).
            guard let digest = digester.flatMap({ d in packed.withText { d.digest(of: $0) } }) else {
                fatalError("LiveServer: out of memory digesting a value")
            }
            return digest
        case .children, .table:
            let memo = self.memo
            if let known = memo?.known { return known.object }
            var members: ValueDigest.Members
            if case .table(let overlay, let state) = value {
                let own = state.table.ownMembers(using: &digester)
                // (Never nil: every child's digest is given.)
                members = state.table.members(own, with: overlay, { $0.digest(using: &digester) })!
            } else {
                members = ValueDigest.Members()
                for (key, child) in children { members.add(key, child.digest(using: &digester)) }
            }
            memo?.remember(members)
            return members.object
        }
    }
}

extension MemberTable {
    /// `own`, the members of the table's own members, with the children
    /// written since (`overlay`: see ``TableChildren``) in their place,
    /// each child digested by `digest`; nil when `digest` gives nil.
    /// - Complexity: O(overlay) digests.
    fileprivate func members(_ own: ValueDigest.Members, with overlay: [Key: DataNode],
                             _ digest: (DataNode) -> ValueDigest?) -> ValueDigest.Members? {
        var members = own
        for (key, written) in overlay {
            if let old = member(key) {
                guard let before = digest(old) else { return nil }
                members.remove(key, before)
            }
            guard let after = digest(written) else { return nil }
            members.add(key, after)
        }
        return members
    }

    /// The members of the digest of the table's own members (see
    /// ``digestMemo``), read from their text without making a key or a
    /// node of them, the first time.
    /// - Complexity: O(size of the object's text) the first time; O(1)
    ///   after.
    fileprivate func ownMembers(using digester: inout ValueDigester?) -> ValueDigest.Members {
        if let known = digestMemo.known { return known }
        var members = ValueDigest.Members()
        forEachMember { name, value in
            switch value {
            case .node(let node):
                members.add(utf8: name, node.digest(using: &digester))
            case .text(let text):
                if digester == nil { digester = ValueDigester() }
                // Validated when it was read: only memory can fail.
                guard let digest = digester?.digest(of: text) else {
                    fatalError("LiveServer: out of memory digesting a value")
                }
                members.add(utf8: name, digest)
            }
        }
        digestMemo.remember(members)
        return members
    }
}
