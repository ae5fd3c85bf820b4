// OrderingBackend.swift — how a sorted collection keeps its models in order.
import LiveModel

/// Storage of a ``SortedCollection``: models by key, in order, with
/// positions. Two implementations: the C index for Firebase order
/// (``CoreBackend``) and a Swift order-statistic tree for orders given in Swift
/// (``TreeBackend``). Every operation is O(log n). Implementations are not
/// thread-safe: each is confined to its collection.
@usableFromInline
protocol OrderingBackend<Model>: AnyObject {
    associatedtype Model
    /// What orders a model besides its key, captured as a value so that the
    /// order of a model is known even after the model itself changed.
    associatedtype SortKey

    var count: Int { get }
    /// The sort key of a model (`hint`: its sort value under a Firebase
    /// order, when the caller knows it from the snapshot).
    func sortKey(of model: Model, hint: SortValue?) throws -> SortKey
    func model(for key: Key) -> Model?
    func sortKey(for key: Key) -> SortKey?
    func position(of key: Key) -> Int?
    func model(at position: Int) -> Model
    func key(at position: Int) -> Key
    /// Inserts or replaces: the old position (nil when inserted) and the new one.
    func upsert(_ key: Key, model: Model, sortKey: SortKey) -> (old: Int?, new: Int)
    /// Removes a key; returns its former position and puts its model in `model`.
    func remove(_ key: Key, model: inout Model?) -> Int?
    /// Number of entries ordered before the post `(sortKey, key)`.
    func lowerBound(_ sortKey: SortKey, _ key: Key) -> Int
    /// The collection's order on posts.
    func less(_ a: SortKey, _ ak: Key, _ b: SortKey, _ bk: Key) -> Bool
    /// Models in order from `position`, until `body` returns false.
    func forEach(from position: Int, _ body: (Model) -> Bool)
    /// A sort key as a batch keeps it (``RecordedSortKey``), and back.
    func record(_ sortKey: SortKey) -> RecordedSortKey
    func sortKey(recorded: RecordedSortKey) -> SortKey
}

/// A sort key as a batch keeps it until the batch is made: a Firebase sort
/// value as it is; a sort key given in Swift boxed, its type known only to
/// the backend that made it.
@usableFromInline
enum RecordedSortKey {
    case firebase(SortValue)
    case custom(AnyObject)
}
