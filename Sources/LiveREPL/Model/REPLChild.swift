// REPLChild.swift — a child as the REPL shows it: its value, the value it
// is sorted by, and the section it falls in.

import LiveCollection
import LiveModel

/// One child of the listened location: its key, its value, and the value
/// the query sorts it by (shown by `show`).
///
/// A child made from a snapshot keeps the snapshot, not a parsed value: its
/// value is read from the received JSON text each time it is asked for
/// (``dictionary``, the value at a section path, the value's digest), so a
/// large load costs one small record per child rather than a tree of values.
public struct REPLChild: LiveModelProtocol, Sendable {
    /// Where the value comes from.
    private enum Content: Sendable {
        /// The received child, read when asked.
        case snapshot(Snapshot)
        /// A value given whole.
        case value(JSONValue)
    }

    /// The child's key.
    public let identifier: Key
    private var content: Content
    /// The section value (see ``sectionValue(of:at:)``) at a path, read when
    /// the child was prepared, which for a first load is away from the main
    /// actor.
    private(set) var section: (path: DatabasePath, value: JSONValue)?

    /// The child `identifier` with the value `dictionary`, given whole.
    public init(identifier: Key, dictionary: JSONValue) {
        self.identifier = identifier
        self.content = .value(dictionary)
    }

    /// The child of `snapshot`, with its section value under `--section-by sectionPath`.
    init(snapshot: Snapshot, sectionPath: DatabasePath? = nil) throws {
        guard let key = snapshot.key else { throw REPLError.internalState("a child without a key") }
        identifier = key
        content = .snapshot(snapshot)
        if let sectionPath { section = (sectionPath, LiveREPL.sectionValue(of: self, at: sectionPath)) }
    }

    /// The child's value.
    /// - Complexity: O(size of the value): read from the JSON text each time.
    public var dictionary: JSONValue {
        switch content {
        case .snapshot(let snapshot): return snapshot.value
        case .value(let value): return value
        }
    }

    /// Replaces the child's value with `dictionary`, given whole.
    public mutating func update(with dictionary: JSONValue) {
        content = .value(dictionary)
        section = nil
    }

    /// The digest of the value (priorities left out, as in ``dictionary``):
    /// equal exactly when the values are.
    /// - Complexity: O(size of the value's JSON text), without building it.
    var digest: ValueDigest {
        switch content {
        case .snapshot(let snapshot): return snapshot.digest(priorities: false)
        case .value(let value): return Snapshot(key: identifier, value: value).digest(priorities: false)
        }
    }

    /// Whether the child's value is that of `snapshot` (priorities left
    /// out, as in ``dictionary``): the same text decides at once, otherwise
    /// the digests do.
    /// - Complexity: O(size of the values' JSON text), without building them.
    func holdsValue(of snapshot: Snapshot) -> Bool {
        switch content {
        case .snapshot(let mine): return mine.holdsSameData(as: snapshot, priorities: false)
        case .value: return digest == snapshot.digest(priorities: false)
        }
    }

    /// The value at `path` inside the child (null when missing or when the
    /// path passes through a primitive), as `orderByChild` reads it.
    /// - Complexity: O(size of the child) for a received child: only the
    ///   value at `path` is built.
    func value(at path: DatabasePath) -> JSONValue {
        switch content {
        case .snapshot(let snapshot): return snapshot.child(at: path).value
        case .value(let value): return value[path: path] ?? .null
        }
    }

    /// The value at `path` when it can be read from the received text
    /// without parsing the child (see ``Snapshot/quickValue(at:)``), else nil.
    /// - Complexity: O(size of the child's text).
    func quickValue(at path: DatabasePath) -> JSONValue? {
        guard case .snapshot(let snapshot) = content else { return nil }
        return snapshot.quickValue(at: path)
    }

    /// The child's value in one line of at most `limit` characters.
    func summary(limit: Int = 60) -> String {
        let text = dictionary.jsonText(sortedKeys: true)
        return text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}

/// Makes a ``REPLChild`` from each snapshot, keeping its sort value and its
/// section value, on the main actor or, for a first load, away from it.
@MainActor
final class REPLDataSource: ModelDataSource {
    /// The `--section-by` path, if any.
    let sectionPath: DatabasePath?

    init(sectionBy sectionPath: DatabasePath? = nil) { self.sectionPath = sectionPath }

    func prepareNow(_ snapshot: Snapshot, current: REPLChild?) throws -> Preparation<REPLChild>? {
        .model(try REPLChild(snapshot: snapshot, sectionPath: sectionPath))
    }

    func prepare(_ snapshot: Snapshot, current: REPLChild?) async throws -> Preparation<REPLChild> {
        .model(try REPLChild(snapshot: snapshot, sectionPath: sectionPath))
    }

    /// Needs nothing but the snapshot: a first load prepares off the main actor.
    var detachedPreparation: (@Sendable (Snapshot) throws -> Preparation<REPLChild>)? {
        let path = sectionPath
        return { .model(try REPLChild(snapshot: $0, sectionPath: path)) }
    }
}
