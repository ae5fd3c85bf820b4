// DigestMemo.swift — a large node's digest, computed once and followed
// through the writes below it.

import LiveModel
import NIOConcurrencyHelpers

/// The members of a large node's digest (``ValueDigest/Members``: the sum
/// over its children), kept beside its dictionary of children once a read
/// computed them, so that the next ETag of the node costs O(1) rather than
/// a walk of every child, and a write below it follows them: the old
/// child's member taken back, the new one added. A write follows them only
/// when both children's digests are cheap (at most ``followBudget`` nodes
/// to visit, nodes with known memos counting as one); otherwise the new
/// node's members are left to the next read, so that a write never walks a
/// large subtree under the server's lock.
///
/// One memo belongs to one dictionary of children, shared by the copies of
/// that node: a read's copy, computing the digest away from the server's
/// lock, fills it for the store's. It never changes once filled: a write
/// makes a new node, with a new memo holding the members it followed, or
/// none when none were known. (So a node written below while its first
/// digest is computed gets its members from a later read.)
final class DigestMemo: Sendable {
    /// The fewest children a node needs for a memo: a smaller one is
    /// digested again when asked.
    static let threshold = 256
    /// The most nodes a write visits to follow a node's members.
    static let followBudget = 4096

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
