// REPLChild.swift — a child as the REPL shows it: its value, the value it
// is sorted by, and the section it falls in.

import LiveCollection
import LiveModel

/// One child of the listened location: its key, its value, and the value
/// the query sorts it by (shown by `show`).
public struct REPLChild: LiveModelProtocol, Sendable {
    public let identifier: Key
    public private(set) var dictionary: JSONValue
    /// The value the query orders by (the priority, the value, or a child's value).
    public private(set) var sortValue: SortValue

    public init(identifier: Key, dictionary: JSONValue) {
        self.identifier = identifier
        self.dictionary = dictionary
        self.sortValue = .null
    }

    init(snapshot: Snapshot) throws {
        guard let key = snapshot.key else { throw REPLError.internalState("a child without a key") }
        identifier = key
        dictionary = snapshot.value
        sortValue = snapshot.sortValue
    }

    public mutating func update(with dictionary: JSONValue) { self.dictionary = dictionary }

    /// The value at `path` inside the child (null when missing or when the
    /// path passes through a primitive), as `orderByChild` reads it.
    func value(at path: Path) -> JSONValue { dictionary[path: path] ?? .null }

    /// The child's value in one line of at most `limit` characters.
    func summary(limit: Int = 60) -> String {
        let text = dictionary.jsonText(sortedKeys: true)
        return text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}

/// Makes a ``REPLChild`` from each snapshot, keeping its sort value, on
/// the main actor or, for a first load, away from it.
@MainActor
final class REPLDataSource: ModelDataSource {
    func prepareNow(_ snapshot: Snapshot, current: REPLChild?) throws -> Preparation<REPLChild>? {
        .model(try REPLChild(snapshot: snapshot))
    }

    func prepare(_ snapshot: Snapshot, current: REPLChild?) async throws -> Preparation<REPLChild> {
        .model(try REPLChild(snapshot: snapshot))
    }

    /// Needs nothing but the snapshot: a first load prepares off the main actor.
    var detachedPreparation: (@Sendable (Snapshot) throws -> Preparation<REPLChild>)? {
        { .model(try REPLChild(snapshot: $0)) }
    }
}
