// DigestMemo.swift — a large node's digest, computed once and followed
// through the writes below it.

import LiveModel
import NIOConcurrencyHelpers

/// The members of a large node's digest (``ValueDigest/Members``: the sum
/// over its children), kept beside its dictionary of children once a read
/// computed them, so that the next ETag of the node costs O(1) rather than
/// a walk of every child, and a write below it follows them in O(depth)
/// (the old child taken back, the new one added).
///
/// One memo belongs to one dictionary of children, shared by the copies of
/// that node: a read's copy, computing the digest away from the server's
/// lock, fills it for the store's. It never changes once filled: a write
/// makes a new node, with a new memo holding the members it followed, or
/// none when none were known.
final class DigestMemo: Sendable {
    /// The fewest children a node needs for a memo: a smaller one is
    /// digested again when asked.
    static let threshold = 1024

    private let box: NIOLockedValueBox<ValueDigest.Members?>

    /// A memo holding `members`, or waiting for the first digest.
    init(_ members: ValueDigest.Members? = nil) {
        box = NIOLockedValueBox(members)
    }

    /// The members, once known.
    var known: ValueDigest.Members? { box.withLockedValue { $0 } }

    /// Keeps `members`, computed from the node's children, unless some were
    /// kept already (they are the same).
    func remember(_ members: ValueDigest.Members) {
        box.withLockedValue { if $0 == nil { $0 = members } }
    }
}
