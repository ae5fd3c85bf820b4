// SectionedCollection.swift — a sorted collection grouped into sections.
import LiveCollection
import LiveModel

/// The models of a `SortedCollection` grouped into sections: a model's
/// section comes from a closure (any `Hashable` value: a string, a number, a
/// date, a related object's id). Sections are ordered ascending or descending
/// (for `Comparable` sections) or by a comparator, and have titles; rows keep
/// the collection's order within a section; a section with no rows does not
/// exist.
///
/// Changes are reported in two contracts:
/// - **sequential** (``observe(_:)``): ``SectionedChange`` values, each
///   relative to the state after the previous one;
/// - **batch** (``observeStages(_:)``): ``BatchStage`` lists that a list view
///   applies one stage per `performBatchUpdates`, each valid under UIKit's
///   rules against the state the previous stage left (check them with
///   ``BatchUpdateChecker``). A list view asks for the rows after applying.
///
/// A change of the collection made from inside one of these handlers is
/// held until every observer was told the change being told, then told as
/// the next change (several held changes as one grouped change), so that
/// each observer sees every change in order, from the state the one before
/// left. While a change is told, the rows shown are those it left: the
/// subscript still gives the model of a row that a held change removed.
///
/// Single changes of the collection cost O(log n + s) for s sections. A
/// grouped change (`performBatch`, a resync, a page load) costs
/// O(t (log n + s)) for the t keys it touched; only the first fill of an
/// empty collection is sectioned whole, in O(n + s log s).
///
/// It keeps each section's rows (their sort keys and keys) and nothing per
/// model beyond them: a model is shown where its collection has it, and
/// while a change is being told, the collection says where the changed keys
/// were.
///
/// Lives on the main actor, like its collection. When it is released, its
/// rows are freed on a background task, so that letting go of a large
/// sectioned list does not hold the main actor.
@MainActor
public final class SectionedCollection<Model: LiveModelProtocol, Section: Hashable & SendableMetatype> {
    /// The sorted collection whose models are shown; changes made to it
    /// reach these sections.
    public let collection: SortedCollection<Model>
    @usableFromInline var sectionOf: @Sendable (Model) -> Section
    /// The order of sections: a strict total order over distinct sections.
    @usableFromInline let sectionPrecedes: @Sendable (Section, Section) -> Bool
    private let titleOf: (Section) -> String
    /// Sections every model of the collection (``rebuild()``).
    var sectioningAll: (SortedCollection<Model>) -> Sectioning
    /// How many times the section rule was changed (``setSections(by:)``):
    /// a fill's sections made with an older rule are made again.
    var rule = 0
    /// How many times a new rule was asked for: a call deferred to the next
    /// turn is dropped when another came after it.
    var ruleRequests = 0

    /// Where a model is shown: its section and its order post.
    @usableFromInline typealias Place = ShownPlace<Section>

    /// Sections and their rows: the state of a whole sectioning, made in
    /// one go (``rebuild()``, or beside a fill).
    @usableFromInline
    final class Sectioning {
        let order: [Section]
        let rows: [Section: PostRows]
        /// The section rule it was made with (see ``rule``).
        let rule: Int
        @usableFromInline
        init(order: [Section], rows: [Section: PostRows], rule: Int = 0) {
            self.order = order
            self.rows = rows
            self.rule = rule
        }
    }

    /// Sections present, in display order.
    @usableFromInline var order: [Section] = [] {
        didSet {
            positions = nil
            lookups = 0
        }
    }
    /// Each section's index in `order`, made once `order` has been looked up
    /// as many times as it has sections since it last changed: sections
    /// usually change far less often than rows, and when they change often
    /// the lookups stay binary searches.
    @usableFromInline var positions: [Section: Int]?
    /// Lookups in `order` since it last changed, while `positions` is nil.
    @usableFromInline var lookups = 0
    @usableFromInline var rows: [Section: PostRows] = [:]
    /// Where the keys the collection is changing were shown (nil: not
    /// shown), noted before each key's first change and kept until these
    /// sections apply it. Every other model is shown where the collection
    /// has it (``located(_:)``).
    @usableFromInline var noted: [Key: NotedPlace<Section, Model>] = [:]
    /// Every observer, of every contract, in the order they were added.
    @usableFromInline var observers = SectionObservers<Model, Section>()
    /// While the steps of a first fill are handed out: the list is shown no
    /// sections until the first step commits.
    var showsEmpty = false
    /// While the steps of a grouped change are handed out: the change, undone
    /// so that the list is shown the old state until the first step commits.
    @usableFromInline var undone: [GroupEntry<Section>]?
    /// Where the keys of ``undone`` are shown meanwhile.
    var undonePlaces: [Key: Place?] = [:]
    /// While the step of a replacement of everything shown is handed out:
    /// what is shown once it commits (the list is shown the old rows).
    @usableFromInline var undoneSectioning: Sectioning?
    /// Whether a change is being handed out as steps and the list is still
    /// shown the state before it.
    @inlinable var isUndone: Bool { undone != nil || undoneSectioning != nil }
    /// How deep observers are being told changes (see ``beginTelling()``).
    @usableFromInline var tellingDepth = 0
    /// Changes of the collection that arrived while a change was told,
    /// applied once it is (``endTelling()``).
    @usableFromInline var deferred = DeferredChanges<Model>()
    /// The models of the keys a grouped change (or a replacement) removed,
    /// while its steps are handed out and the list is still shown them.
    var undoneModels: [Key: Model] = [:]
    private var token: ObservationToken?
    /// Held strongly: the collection holds its observers weakly.
    private var relay: AnyObject?

    /// Sections of `collection` by `section(model)`, ordered by
    /// `areInIncreasingOrder` (a strict total order over distinct sections,
    /// such as a related object's display order), titled by `title`.
    ///
    /// `section` and `areInIncreasingOrder` must be pure functions of their
    /// arguments: when the collection is filled from a `PreparedFill` (a
    /// `FirebaseCollection`'s first load), the sections are built beside the
    /// fill on its executor, and the main actor only takes them.
    /// - Complexity: O(n log n) to build.
    @inlinable
    public convenience init(_ collection: SortedCollection<Model>,
                            sectionsOrderedBy areInIncreasingOrder: @escaping @Sendable (Section, Section) -> Bool,
                            title: @escaping (Section) -> String = { String(describing: $0) },
                            sectionedBy section: @escaping @Sendable (Model) -> Section) {
        // Made here, in the caller's module, where `Model` and `Section` are
        // known: the sectioning of a first load is then compiled for them
        // rather than run through generic metadata for every model.
        // So are single changes.
        let sectioning: @Sendable (PreparedFill<Model>) -> AnyObject = { fill in
            Self.sectioning(fill.count, fill.forEachPosted, sectionOf: section, sectionPrecedes: areInIncreasingOrder)
        }
        self.init(collection, sectionsOrderedBy: areInIncreasingOrder, title: title, sectionedBy: section,
                  sectioningFills: sectioning,
                  sectioningAll: { Self.sectioning($0.count, $0.forEachPosted, sectionOf: section,
                                                   sectionPrecedes: areInIncreasingOrder) },
                  noting: { $0.note($1) }, applying: { $0.apply($1) })
    }

    /// The designated initializer: `sectioningFills` sections a prepared
    /// fill, as ``sectioning(_:_:sectionOf:sectionPrecedes:)`` does, and
    /// `sectioningAll` sections every model of the collection, `noting`
    /// notes where a key about to change is shown (``note(_:)``), and
    /// `applying` applies a single change, as ``apply(_:)`` does.
    @usableFromInline
    init(_ collection: SortedCollection<Model>,
         sectionsOrderedBy areInIncreasingOrder: @escaping @Sendable (Section, Section) -> Bool,
         title: @escaping (Section) -> String, sectionedBy section: @escaping @Sendable (Model) -> Section,
         sectioningFills: @escaping @Sendable (PreparedFill<Model>) -> AnyObject,
         sectioningAll: @escaping (SortedCollection<Model>) -> Sectioning,
         noting: @escaping (SectionedCollection, Key) -> Void,
         applying: @escaping (SectionedCollection, SequentialChange<Model>) -> Void) {
        self.collection = collection
        self.sectionOf = section
        self.sectionPrecedes = areInIncreasingOrder
        self.titleOf = title
        self.sectioningAll = sectioningAll
        rebuild()
        // Made in the middle of a batch: the keys it touched so far are
        // shown as they are now, and the batch, once told, moves them on.
        for key in collection.keysTouchedInBatch { noting(self, key) }
        let relay = Relay(self, applying: applying)
        self.relay = relay
        token = collection.addObserver(relay, preparingFills: FillWork(slot: ObjectIdentifier(self), make: sectioningFills),
                                       beforeChange: { [weak self] key in if let self { noting(self, key) } },
                                       unchanged: { [weak self] keys in self?.forget(keys) })
    }

    isolated deinit {
        // The rows of a million models: freed off the main actor.
        releaseInBackground(&rows, leaving: [:])
    }

    // MARK: Reading

    /// Number of sections a list view is shown (see ``observeSteps(_:)``).
    public var numberOfSections: Int { showsEmpty ? 0 : order.count }

    /// The title of section `index` (by default the section value's description).
    public func title(ofSection index: Int) -> String { titleOf(order[index]) }

    /// The title of the section whose value is `section`, shown or not.
    public func title(of section: Section) -> String { titleOf(section) }

    /// The section value of section `index`.
    public func section(at index: Int) -> Section { order[index] }

    /// Number of rows in section `index`, as a list view is shown.
    /// - Complexity: O(1).
    public func numberOfRows(inSection index: Int) -> Int { rows[order[index]]!.count }

    /// Row counts of every section, as a list view is shown.
    public var counts: [Int] { (0..<numberOfSections).map { numberOfRows(inSection: $0) } }

    /// The model at a row path, as a list view is shown: for a row the
    /// collection removed and these sections have not applied yet (or
    /// show until a step commits), the model as it was.
    /// - Complexity: O(log n).
    public subscript(path: RowPath) -> Model {
        let key = rows[order[path.section]]!.key(at: path.row)
        if let model = collection.model(for: key) { return model }
        return (undoneModels[key] ?? noted[key]?.model ?? deferred.model(shownFor: key))!
    }

    /// Where the model `key` is shown.
    /// - Complexity: O(log n + sections); O(sections · log n) for a model
    ///   object whose section was changed in place and not yet told.
    public func path(of key: Key) -> RowPath? {
        guard let place = shownPlace(of: key) else { return nil }
        return path(at: place)
    }

    /// Sections with their keys, in display order. - Complexity: O(n).
    public func snapshot() -> [SectionItems<Section, Key>] {
        order.map { s in SectionItems(id: s, items: rows[s]!.keys) }
    }

    // MARK: Observing
    //
    // Observers of every contract are told each change in the order they
    // were added, until their token is cancelled or released.

    /// Calls `handler` with every change in the sequential contract. A
    /// grouped change of the collection arrives row by row: rows leaving (a
    /// section whose rows all leave, as one section removal), then rows
    /// arriving (a new section with its rows, as one insertion), then
    /// updates; a row that changed place is told as its removal and its
    /// insertion.
    public func observe(_ handler: @escaping (SectionedChange<Model, Section>) -> Void) -> ObservationToken {
        register(.sequential(handler))
    }

    /// Calls `handler` with every change as staged steps for a list view
    /// (``ListConnector``): each step's commit, run inside its batch, makes
    /// ``numberOfSections``, ``numberOfRows(inSection:)`` and the subscript
    /// show the state after that stage, as UIKit requires between stages.
    /// The handler must run every commit. Each step observer is shown the
    /// state before the change until it commits the first step; observers
    /// told after it see the state after.
    public func observeSteps(_ handler: @escaping ([StagedStep]) -> Void) -> ObservationToken {
        register(.stepped(handler))
    }

    /// Calls `handler` with the stages of every change, in the batch contract.
    public func observeStages(_ handler: @escaping ([BatchStage]) -> Void) -> ObservationToken {
        register(.staged(handler))
    }
}

/// Forwards a sorted collection's changes to a sectioned collection.
@MainActor
private final class Relay<Model: LiveModelProtocol, Section: Hashable & SendableMetatype>: SortedCollectionObserver {
    weak var owner: SectionedCollection<Model, Section>?
    let applying: (SectionedCollection<Model, Section>, SequentialChange<Model>) -> Void
    init(_ owner: SectionedCollection<Model, Section>,
         applying: @escaping (SectionedCollection<Model, Section>, SequentialChange<Model>) -> Void) {
        self.owner = owner
        self.applying = applying
    }
    func collection(_ c: SortedCollection<Model>, didChange change: SequentialChange<Model>) {
        guard let owner else { return }
        if owner.isTelling { owner.hold(change) } else { applying(owner, change) }
    }
    func collection(_ c: SortedCollection<Model>, didApply update: CollectionUpdate<Model>) {
        guard let owner else { return }
        if owner.isTelling { owner.hold(update) } else { owner.applyGroup(update) }
    }
}

extension SectionedCollection where Section: Comparable {
    /// Sections of `collection` by `section(model)`, ascending (or descending)
    /// by the section value, titled by `title`.
    /// - Complexity: O(n log n) to build.
    @inlinable
    public convenience init(_ collection: SortedCollection<Model>, descending: Bool = false,
                            title: @escaping (Section) -> String = { String(describing: $0) },
                            sectionedBy section: @escaping @Sendable (Model) -> Section) {
        let precedes: @Sendable (Section, Section) -> Bool
        if descending {
            precedes = { @Sendable (a: Section, b: Section) -> Bool in a > b }
        } else {
            precedes = { @Sendable (a: Section, b: Section) -> Bool in a < b }
        }
        self.init(collection, sectionsOrderedBy: precedes, title: title, sectionedBy: section)
    }
}
