import LiveModel

/// A query bound as a point of the order: a sort value and a key post that
/// is either a key or one of the ends of all keys.
///
/// A bound without a key sits below every child of its value or above them
/// all, whichever makes it keep (inclusive) or skip (exclusive) them:
/// `startAt(v)` and `endBefore(v)` sit below, `startAfter(v)` and
/// `endAt(v)` above. So no child ever sits exactly on a keyless post.
struct QueryPost {
    /// Where the post sits among keys of the same value.
    enum KeyPost {
        case belowAll
        case at(Key)
        case aboveAll
    }

    /// The value, unused under ``QueryOrder/key``.
    let value: SortValue
    /// The key post; under ``QueryOrder/key``, the bound's value as a key.
    let keyPost: KeyPost
    /// Whether a child exactly on the post is kept.
    let isInclusive: Bool

    init(_ bound: Query.Bound, order: QueryOrder, isLower: Bool) {
        isInclusive = bound.isInclusive
        if order == .key {
            // Under key order the bound may be any string, even one that is
            // not a valid key: compare its text as a key all the same.
            value = .null
            keyPost = .at(Key(unchecked: bound.value.stringValue ?? ""))
            return
        }
        value = SortValue(bound.value)
        if let key = bound.key {
            keyPost = .at(key)
        } else {
            // Lower inclusive and upper exclusive sit below; the others above.
            keyPost = isLower == bound.isInclusive ? .belowAll : .aboveAll
        }
    }

    /// Three-way comparison of a child `(value, key)` with the post.
    func compare(_ childValue: SortValue, _ key: Key) -> Int {
        let byValue = SortValue.compare(childValue, value)
        if byValue != 0 { return byValue }
        switch keyPost {
        case .belowAll: return 1
        case .aboveAll: return -1
        case .at(let postKey): return Key.compare(key, postKey)
        }
    }

    /// Whether a child passes this post as a lower bound.
    func admitsAbove(_ childValue: SortValue, _ key: Key) -> Bool {
        let c = compare(childValue, key)
        return c > 0 || (c == 0 && isInclusive)
    }

    /// Whether a child passes this post as an upper bound.
    func admitsBelow(_ childValue: SortValue, _ key: Key) -> Bool {
        let c = compare(childValue, key)
        return c < 0 || (c == 0 && isInclusive)
    }
}
