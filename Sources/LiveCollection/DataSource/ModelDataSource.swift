// ModelDataSource.swift — turning received data into models.
import LiveModel

/// What a data source makes of a child.
public enum Preparation<Model> {
    /// Show this model.
    case model(Model)
    /// Do not show this child (a shown model for it is removed).
    case skip
}

/// Turns a child's snapshot into a model for a ``SortedCollection`` (the
/// data source of CWCollection). Preparation may wait — for instance to fetch
/// an object the child refers to — and may fail.
///
/// Called on the main actor. A ``CollectionFeed`` guarantees: a later event
/// for a key wins over an earlier one still preparing (whose task is
/// cancelled and whose result is dropped); a removal cancels a pending
/// preparation; results apply in event order per key; failures are reported
/// to the collection's observers, never swallowed.
@MainActor
public protocol ModelDataSource<Model>: AnyObject {
    /// The models this data source makes.
    associatedtype Model: LiveModelProtocol
    /// The model for `snapshot` when it can be made without waiting, or nil to
    /// have ``prepare(_:current:)`` called. `current` is the model shown for
    /// this key now, if any. The default returns nil.
    func prepareNow(_ snapshot: Snapshot, current: Model?) throws -> Preparation<Model>?
    /// The model for `snapshot`, possibly after waiting. The task is cancelled
    /// when a later event for the same key supersedes it.
    func prepare(_ snapshot: Snapshot, current: Model?) async throws -> Preparation<Model>
    /// The preparation of a child from its snapshot alone — no main-actor
    /// state, no current model, no waiting — when the data source has one,
    /// as decoding is. A large first load (``PreparedFill``) then makes its
    /// models on a background executor. It must give what
    /// ``prepareNow(_:current:)`` gives for a child with no current model.
    /// The default is nil: every preparation runs on the main actor.
    var detachedPreparation: (@Sendable (Snapshot) throws -> Preparation<Model>)? { get }
}

extension ModelDataSource {
    /// Returns nil: every child goes through ``prepare(_:current:)``.
    public func prepareNow(_ snapshot: Snapshot, current: Model?) throws -> Preparation<Model>? { nil }

    /// Nil: every preparation runs on the main actor.
    public var detachedPreparation: (@Sendable (Snapshot) throws -> Preparation<Model>)? { nil }
}

/// A data source for models made straight from their snapshot
/// (`init(snapshot:)`, e.g. any `Codable` model): no waiting.
@MainActor
public final class DecodingDataSource<Model: LiveModelProtocol>: ModelDataSource {
    /// A data source that makes each model with `Model(snapshot:)`.
    public init() {}

    /// The model made from `snapshot` at once; `current` is not used.
    /// - Throws: What `Model(snapshot:)` throws.
    /// - Complexity: Reads the snapshot's whole value.
    public func prepareNow(_ snapshot: Snapshot, current: Model?) throws -> Preparation<Model>? {
        .model(try Model(snapshot: snapshot))
    }

    /// The model made from `snapshot`, without waiting (a ``CollectionFeed``
    /// calls ``prepareNow(_:current:)`` instead).
    /// - Throws: What `Model(snapshot:)` throws.
    public func prepare(_ snapshot: Snapshot, current: Model?) async throws -> Preparation<Model> {
        .model(try Model(snapshot: snapshot))
    }

    /// Decoding needs nothing but the snapshot: large loads decode off the
    /// main actor.
    public var detachedPreparation: (@Sendable (Snapshot) throws -> Preparation<Model>)? {
        { .model(try Model(snapshot: $0)) }
    }
}
