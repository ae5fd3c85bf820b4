// LoadPhases.swift — where the time of a collection's first load went.

/// What a ``FirebaseCollection``'s first load cost, phase by phase
/// (``FirebaseCollection/firstLoad``).
///
/// The phases follow each other: ``transfer`` and ``parse`` happen on the
/// stream (off the main actor, from ``LoadProgress``), ``index`` and
/// ``observers`` away from the main actor for a large first load (see
/// ``LoadMode``), on the collection's actor otherwise. ``total`` runs from the first byte to the filled
/// collection, so it also holds the waits between phases: the phases never
/// add up to more than it. A load fed by hand (offline) has no transfer and
/// no parse.
public struct LoadPhases: Sendable, Hashable {
    /// Bytes of the first `put` (its framing included; 0 offline).
    public var bytes: Int
    /// Children loaded.
    public var children: Int
    /// First byte to last byte of the first `put`.
    public var transfer: Duration
    /// Parsing the `put`'s payload.
    public var parse: Duration
    /// The query's view and the sorted collection taking the children, the
    /// collection's observers included (a `SectionedCollection` on it),
    /// except what ``observers`` holds.
    public var index: Duration
    /// The work the collection's observers did on a load prepared away from
    /// the main actor, after its ordering (a `SectionedCollection`'s
    /// sections); zero when the load was taken on the main actor, where
    /// that work is part of ``index``.
    public var observers: Duration
    /// First byte to the filled collection.
    public var total: Duration

    /// Phases with these figures; ``observers`` is zero unless given.
    public init(bytes: Int, children: Int, transfer: Duration, parse: Duration, index: Duration,
                observers: Duration = .zero, total: Duration) {
        self.bytes = bytes
        self.children = children
        self.transfer = transfer
        self.parse = parse
        self.index = index
        self.observers = observers
        self.total = total
    }
}
