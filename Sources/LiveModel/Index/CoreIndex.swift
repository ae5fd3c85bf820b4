// CoreIndex.swift — the C ordered index (lc_index) behind a small Swift class,
// for the layers above (package access: never public).
internal import CLiveCore

/// The C core's ordered index of `(sort value, key)` entries in Firebase
/// order. Each entry has a stable 32-bit id for the caller's per-entry data.
///
/// Not thread-safe: confined to the isolation domain of its owner.
@usableFromInline
package final class CoreIndex {
    private let raw: OpaquePointer

    package init() {
        guard let raw = lc_index_new() else { fatalError("LiveModel: out of memory creating an index") }
        self.raw = raw
    }

    deinit {
        // A large index is freed off this thread (see releaseInBackground).
        if lc_index_count(raw) < 10_000 {
            lc_index_free(raw)
        } else {
            let address = UInt(bitPattern: raw)
            Task.detached(priority: .utility) { lc_index_free(OpaquePointer(bitPattern: address)) }
        }
    }

    @usableFromInline
    package var count: Int { lc_index_count(raw) }

    /// Removes a key; returns its former position and its id, or nil if absent.
    /// - Complexity: O(log n).
    @usableFromInline
    package func remove(_ key: Key) -> (position: Int, id: UInt32)? {
        var position = 0, id: UInt32 = 0
        let status = key.withKeyBytes { k, n in lc_index_remove(raw, k, n, &position, &id) }
        if status == LC_ERR_NOT_FOUND { return nil }
        check(status, "remove")
        return (position, id)
    }

    /// Updates a present key or inserts an absent one: its old position (nil
    /// when inserted), its new position and its id. - Complexity: O(log n).
    @usableFromInline
    package func upsert(_ key: Key, _ value: SortValue) -> (old: Int?, new: Int, id: UInt32) {
        var old = 0, new = 0, id: UInt32 = 0
        let status = key.withKeyBytes { k, n in
            value.withSafeCoreValue { v in
                var v = v
                return lc_index_upsert(raw, k, n, &v, &old, &new, &id)
            }
        }
        check(status, "upsert")
        return (old == Int(bitPattern: UInt(LC_NO_POSITION)) ? nil : old, new, id)
    }

    /// Replaces the content by the children of `snapshot` in bulk, when it
    /// is a whole parsed document (not a patch) whose sort values were
    /// computed under `order`: child `i` of ``Snapshot/children`` gets id `i`.
    /// - Returns: false, changing nothing, for any other snapshot.
    /// - Complexity: O(n log n) comparisons for n children, without a
    ///   per-child allocation.
    @usableFromInline
    package func build(fromChildrenOf snapshot: Snapshot, order: QueryOrder) -> Bool {
        guard case .root(let document) = snapshot.location, document.order == order, !document.keysArePaths,
              document.hasChildren else { return false }
        let status = lc_index_build_from_doc(raw, document.pointer)
        if status == LC_ERR_NOMEM { fatalError("LiveModel: out of memory building an index") }
        return status == LC_OK
    }

    /// Replaces the content by the entries `(keys[i], values[i])` in bulk:
    /// entry `i` gets id `i`. The arrays have the same length.
    /// - Returns: false, changing nothing, when a key is given twice.
    /// - Complexity: O(n log n) comparisons for n entries, without a
    ///   per-entry allocation in the index.
    package func build(keys: [Key], values: [SortValue]) -> Bool {
        precondition(keys.count == values.count, "CoreIndex.build: as many values as keys")
        // The bytes of every key and string value, one after another, so
        // that the entries can point at them during the call.
        var bytes: [UInt8] = []
        var spans: [(key: Int, keyCount: Int, value: Int, valueCount: Int)] = []
        spans.reserveCapacity(keys.count)
        for (key, value) in zip(keys, values) {
            let keyStart = bytes.count
            key.withUTF8 { bytes.append(contentsOf: $0) }
            let valueStart = bytes.count
            if case .string(let text) = value { text.withUTF8Bytes { bytes.append(contentsOf: $0) } }
            spans.append((keyStart, valueStart - keyStart, valueStart, bytes.count - valueStart))
        }
        let status = bytes.withUnsafeBufferPointer { buffer -> lc_status in
            let base = buffer.cChars
            var items: [lc_entry] = []
            items.reserveCapacity(keys.count)
            for (span, value) in zip(spans, values) {
                let core: lc_value
                switch value {
                case .string: core = lc_value_string(base.map { $0 + span.value }, span.valueCount)
                default: core = value.withSafeCoreValue { $0 }  // no string: nothing borrowed
                }
                items.append(lc_entry(key: base.map { $0 + span.key }, key_len: span.keyCount, value: core))
            }
            return lc_index_build(raw, items, items.count)
        }
        if status == LC_ERR_DUPLICATE_KEY { return false }
        check(status, "build")
        return true
    }

    /// Position and id of a key. - Complexity: O(log n).
    package func find(_ key: Key) -> (position: Int, id: UInt32)? {
        var position = 0, id: UInt32 = 0
        let status = key.withKeyBytes { k, n in lc_index_find(raw, k, n, &position, &id) }
        return status == LC_OK ? (position, id) : nil
    }

    /// Id of a key, without its position. - Complexity: O(1) expected.
    @usableFromInline
    package func id(of key: Key) -> UInt32? {
        var id: UInt32 = 0
        let status = key.withKeyBytes { k, n in lc_index_find(raw, k, n, nil, &id) }
        return status == LC_OK ? id : nil
    }

    /// Id of the entry at a position (0 ..< count). - Complexity: O(log n).
    package func id(at position: Int) -> UInt32 {
        var id: UInt32 = 0
        check(lc_index_at(raw, position, nil, nil, nil, &id), "access")
        return id
    }

    /// Key of a live id. - Complexity: O(length of the key).
    package func key(of id: UInt32) -> Key {
        var k: UnsafePointer<CChar>?
        var n = 0
        check(lc_index_entry(raw, id, &k, &n, nil), "entry")
        return Key(uncheckedUTF8: k, count: n)
    }

    /// Key at a position (0 ..< count). - Complexity: O(log n).
    package func key(at position: Int) -> Key { key(of: id(at: position)) }

    /// Sort value of a live id. - Complexity: O(1).
    @usableFromInline
    package func sortValue(of id: UInt32) -> SortValue {
        var v = lc_value()
        check(lc_index_entry(raw, id, nil, nil, &v), "entry")
        return SortValue(coreValue: v)
    }

    /// Number of entries before the post `(value, key)`. - Complexity: O(log n).
    package func lowerBound(_ value: SortValue, _ key: Key) -> Int {
        key.withKeyBytes { k, n in
            value.withSafeCoreValue { v in
                var v = v
                return lc_index_lower_bound(raw, &v, k, n)
            }
        }
    }

    /// Ids in order, from `position`. - Complexity: O(1) amortised per id.
    @usableFromInline
    package func forEachID(from position: Int = 0, _ body: (UInt32) -> Bool) {
        var it = lc_index_iter()
        guard lc_index_iter_init(raw, position, &it) == LC_OK else { return }
        var id: UInt32 = 0
        while lc_index_iter_next(&it, nil, nil, nil, &id) {
            if !body(id) { return }
        }
    }

    /// Calls `body` with the id, key and sort value of each entry in order,
    /// from `position`, until it returns false.
    /// - Complexity: O(1) amortised per entry, plus a string sort value's
    ///   copy and a key longer than a push id's.
    @usableFromInline
    package func forEachEntry(from position: Int = 0, _ body: (UInt32, Key, SortValue) -> Bool) {
        var it = lc_index_iter()
        guard lc_index_iter_init(raw, position, &it) == LC_OK else { return }
        var id: UInt32 = 0
        var v = lc_value()
        var k: UnsafePointer<CChar>?
        var n = 0
        while lc_index_iter_next(&it, &k, &n, &v, &id) {
            if !body(id, Key(uncheckedUTF8: k, count: n), SortValue(coreValue: v)) { return }
        }
    }

    /// Firebase order of two posts `(value, key)`.
    package static func less(_ a: SortValue, _ ak: Key, _ b: SortValue, _ bk: Key) -> Bool {
        let c = SortValue.compare(a, b)
        return c != 0 ? c < 0 : ak < bk
    }

    private func check(_ status: lc_status, _ what: String) {
        // Keys are validated by `Key` and values by `withSafeCoreValue`: what is
        // left is running out of memory (or of 2^32 entries).
        if status != LC_OK {
            fatalError("LiveModel: index \(what) failed: \(String(cString: lc_status_name(status)))")
        }
    }
}

extension Key {
    /// Runs `body` with the key's UTF-8 bytes.
    func withKeyBytes<R>(_ body: (UnsafePointer<CChar>, Int) -> R) -> R {
        withUTF8 { buf in
            buf.withMemoryRebound(to: CChar.self) { body($0.baseAddress!, $0.count) } // keys are never empty
        }
    }
}

extension SortValue {
    /// As `withCoreValue`, with a non-finite number ordered as null (the
    /// core accepts finite numbers only; JSON never holds any other).
    func withSafeCoreValue<R>(_ body: (lc_value) -> R) -> R {
        if case .number(let d) = self, !d.isFinite { return body(lc_value_null()) }
        return withCoreValue(body)
    }
}
