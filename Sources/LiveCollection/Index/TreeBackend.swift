// TreeBackend.swift — an order given in Swift, through an order-statistic tree.
import LiveModel

/// Models ordered by a sort key extracted in Swift (`K: Comparable`), ties
/// broken by key in Firebase key order.
final class TreeBackend<Model, K: Comparable>: OrderingBackend {
    @usableFromInline
    typealias SortKey = K

    struct Entry {
        var key: Key
        var sortKey: K
        var model: Model? // nil only in probes, which the order never reads
    }

    private let extract: (Model) -> K
    private var tree: OrderStatisticTree<Entry>
    private var byKey: [Key: Entry] = [:]

    init(sortKey extract: @escaping (Model) -> K) {
        self.extract = extract
        tree = OrderStatisticTree<Entry>(areInIncreasingOrder: { (a: Entry, b: Entry) -> Bool in
            if a.sortKey != b.sortKey { return a.sortKey < b.sortKey }
            return a.key < b.key
        })
    }

    @usableFromInline
    var count: Int { tree.count }

    @usableFromInline
    func sortKey(of model: Model, hint: SortValue?) -> K { extract(model) }

    @usableFromInline
    func model(for key: Key) -> Model? { byKey[key]?.model }

    @usableFromInline
    func sortKey(for key: Key) -> K? { byKey[key]?.sortKey }

    @usableFromInline
    func position(of key: Key) -> Int? { byKey[key].flatMap { tree.position(of: $0) } }

    @usableFromInline
    func model(at position: Int) -> Model { tree[position].model! }

    @usableFromInline
    func key(at position: Int) -> Key { tree[position].key }

    private func insert(_ key: Key, model: Model, sortKey: K) -> Int {
        let entry = Entry(key: key, sortKey: sortKey, model: model)
        byKey[key] = entry
        return tree.insert(entry)
    }

    @usableFromInline
    func upsert(_ key: Key, model: Model, sortKey: K) -> (old: Int?, new: Int) {
        if byKey[key] == nil { return (nil, insert(key, model: model, sortKey: sortKey)) }
        let (old, new) = update(key, model: model, sortKey: sortKey)
        return (old, new)
    }

    @usableFromInline
    func remove(_ key: Key, model: inout Model?) -> Int? {
        guard let entry = byKey.removeValue(forKey: key), let removed = tree.remove(entry) else { return nil }
        model = entry.model
        return removed.position
    }

    private func update(_ key: Key, model: Model, sortKey: K) -> (old: Int, new: Int) {
        guard let old = byKey[key] else { preconditionFailure("update of an absent key") }
        let entry = Entry(key: key, sortKey: sortKey, model: model)
        byKey[key] = entry
        if old.sortKey == sortKey, let at = tree.replace(entry) { return (at, at) }
        let from = tree.remove(old)!.position
        return (from, tree.insert(entry))
    }

    @usableFromInline
    func lowerBound(_ sortKey: K, _ key: Key) -> Int {
        tree.lowerBound(Entry(key: key, sortKey: sortKey, model: nil))
    }

    @usableFromInline
    func less(_ a: K, _ ak: Key, _ b: K, _ bk: Key) -> Bool { a != b ? a < b : ak < bk }

    @usableFromInline
    func forEach(from position: Int, _ body: (Model) -> Bool) {
        var it = tree.makeIterator(from: position)
        while let entry = it.next() {
            if !body(entry.model!) { return }
        }
    }

    /// A sort key boxed while a batch keeps it.
    private final class Box {
        let sortKey: K
        init(_ sortKey: K) { self.sortKey = sortKey }
    }

    @usableFromInline
    func record(_ sortKey: K) -> RecordedSortKey { .custom(Box(sortKey)) }

    @usableFromInline
    func sortKey(recorded: RecordedSortKey) -> K {
        guard case .custom(let box as Box) = recorded else { preconditionFailure("a sort key of another kind of order") }
        return box.sortKey
    }
}
