// PreparedFill.swift — the models of a first load, made and ordered away
// from the main actor, for a sorted collection to take in one step.
import LiveModel

/// The content of an empty ``SortedCollection`` in Firebase order, prepared
/// on any executor: each child's model made by a detached preparation (see
/// ``ModelDataSource/detachedPreparation``) and ordered in the C index. The
/// collection takes it whole with ``SortedCollection/fill(_:)``, so a large
/// load costs the main actor one exchange and its observers' work instead of
/// the decoding and the ordering.
///
/// Not thread-safe and not `Sendable`: made in one task and handed, whole,
/// to the collection (a `sending` value), which then owns it.
public final class PreparedFill<Model: LiveModelProtocol> {
    /// The order the models are in.
    public let order: QueryOrder
    @usableFromInline let backend: CoreBackend<Model>
    /// The models in order.
    @usableFromInline let inOrder: [Model]
    /// Keys whose (last) child's preparation failed, in the order of the
    /// children given (``init(_:order:prepare:)``) or in query order
    /// (``init(everyChildOf:count:order:prepare:)``).
    @usableFromInline let failures: [(key: Key, error: any Error)]
    /// What observers' works made of the fill, by slot (``perform(_:)``).
    var results: [ObjectIdentifier: AnyObject] = [:]

    /// Prepares the models of `children` under `order`.
    ///
    /// A child without a key, or one the preparation skips, is left out; a
    /// preparation that throws, or makes a model whose identifier is not the
    /// child's key, is left out and reported to the collection's observers
    /// (`didFailToPrepare`) when it takes the fill. Children sharing a key:
    /// the last one holds, and only its failure is reported.
    /// - Parameters:
    ///   - children: The children to prepare, each with its sort value
    ///     under `order` (as parsed with that order).
    ///   - order: The order the models are put in; the collection that
    ///     takes the fill must be in the same order.
    ///   - prepare: Makes a child's model; runs on the caller's executor,
    ///     once per child, in order.
    /// - Complexity: O(n log n) for n children, plus the preparations.
    public init(_ children: [Snapshot], order: QueryOrder, prepare: (Snapshot) throws -> Preparation<Model>) {
        self.order = order
        let backend = CoreBackend<Model>(order: order)
        backend.reserveCapacity(children.count)
        // The failure of each key whose last child failed, with its place.
        var failed: [Key: (place: Int, error: any Error)] = [:]
        for (place, child) in children.enumerated() {
            guard let key = child.key else { continue }
            do {
                let model = try Self.model(of: child, key: key, prepare)
                if !failed.isEmpty { failed[key] = nil }
                if let model {
                    _ = backend.upsert(key, model: model, sortKey: child.sortValue)
                    continue
                }
            } catch {
                failed[key] = (place, error)
            }
            // Skipped or failed: an earlier child of the same key goes too.
            var gone: Model?
            _ = backend.remove(key, model: &gone)
        }
        var inOrder: [Model] = []
        inOrder.reserveCapacity(backend.count)
        backend.forEach(from: 0) { inOrder.append($0); return true }
        self.backend = backend
        self.inOrder = inOrder
        self.failures = failed.sorted { $0.value.place < $1.value.place }.map { ($0.key, $0.value.error) }
    }

    /// Prepares the models of every child of `value`, a whole parsed
    /// document whose sort values were computed under `order` (a first
    /// load's value), ordering them in bulk in the C index instead of one by
    /// one. The outcome is that of ``init(_:order:prepare:)`` over the
    /// children in query order; `prepare` runs once per child, in the
    /// document's order (which reads the document's text and writes the
    /// models front to back).
    /// - Parameter count: How many children the caller expects; the fill is
    ///   refused when the document holds another number (the caller's view
    ///   of the value left some out).
    /// - Returns: nil, having prepared nothing, when `value` is not such a
    ///   document (a patch, a child, another order, no children) or does not
    ///   hold `count` children.
    /// - Complexity: O(n log n) in the C core for n children, plus the
    ///   preparations.
    @inlinable
    package init?(everyChildOf value: Snapshot, count: Int, order: QueryOrder,
                  prepare: (Snapshot) throws -> Preparation<Model>) {
        let backend = CoreBackend<Model>(order: order)
        guard backend.build(fromChildrenOf: value), backend.count == count else { return nil }
        // Child i of the document is entry id i. The models are made in
        // the document's order; a child without one is noted by its id.
        var missing: [UInt32: (key: Key, error: (any Error)?)] = [:]
        for (i, child) in value.children.enumerated() {
            guard let key = child.key else { continue }
            let id = UInt32(i)
            do {
                if let model = try Self.model(of: child, key: key, prepare) {
                    backend.setBuilt(model, id: id)
                    continue
                }
                missing[id] = (key, nil)
            } catch {
                missing[id] = (key, error)
            }
        }
        // Then read in query order: the fill's models, and its failures in
        // the order ``init(_:order:prepare:)`` reports them.
        var inOrder: [Model] = []
        inOrder.reserveCapacity(count - missing.count)
        var failures: [(key: Key, error: any Error)] = []
        backend.forEachBuilt { id, model in
            if let model {
                inOrder.append(model)
            } else if case let (key, error?)? = missing[id] {
                failures.append((key, error))
            }
        }
        for (key, _) in missing.values {
            var gone: Model?
            _ = backend.remove(key, model: &gone)
        }
        self.order = order
        self.backend = backend
        self.inOrder = inOrder
        self.failures = failures
    }

    /// The model `prepare` makes of `child`, or nil when it skips it.
    /// - Throws: what `prepare` throws, or ``FeedError/identifierMismatch(expected:got:)``
    ///   when the model's identifier is not `key`.
    @inlinable
    static func model(of child: Snapshot, key: Key,
                              _ prepare: (Snapshot) throws -> Preparation<Model>) throws -> Model? {
        guard case .model(let model) = try prepare(child) else { return nil }
        guard model.identifier == key else { throw FeedError.identifierMismatch(expected: key, got: model.identifier) }
        return model
    }

    /// Number of models prepared.
    /// - Complexity: O(1).
    public var count: Int { backend.count }
}

extension SortedCollection {
    /// Tells observers of the preparations of `prepared` that failed
    /// (`didFailToPrepare`), for a fill taken model by model rather than
    /// with ``fill(_:)``.
    package func reportFailures(of prepared: PreparedFill<Model>) {
        for failure in prepared.failures { notifyFailure(failure.key, failure.error) }
    }

    /// Fills an empty collection with a prepared fill, as one batch: its
    /// failures reach observers (`didFailToPrepare`), then one
    /// ``CollectionUpdate`` inserting every model. Load events are the
    /// caller's.
    /// - Returns: false, changing nothing, when the collection is not empty,
    ///   is inside ``performBatch(_:)``, or is not in the fill's order (it
    ///   must have been made with ``init(order:)`` and the same order).
    /// - Complexity: O(1) on the collection, plus its observers' work.
    @discardableResult
    public func fill(_ prepared: sending PreparedFill<Model>) -> Bool {
        guard isEmpty, recording == nil, let core = backend as? CoreBackend<Model>,
              core.order == prepared.order else { return false }
        backend = prepared.backend
        for failure in prepared.failures { notifyFailure(failure.key, failure.error) }
        if !prepared.inOrder.isEmpty {
            let n = prepared.inOrder.count
            // Observers find what their fill works made (fillResult(for:)).
            takingFill = prepared
            defer { takingFill = nil }
            notifyGrouped(CollectionUpdate(batch: CollectionBatch(inserted: Array(0..<n), oldCount: 0, newCount: n),
                                           insertedModels: prepared.inOrder, movedModels: [], updatedModels: []))
        }
        validate()
        return true
    }
}
