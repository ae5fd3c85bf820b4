import LiveModel

extension DataNode {
    /// Normalises a request body into a node, as the database stores it.
    ///
    /// - Arrays become children `"0"`, `"1"`, …; `null` elements are absent.
    /// - `null` members and empty objects vanish, recursively: a child that
    ///   normalises to nothing is dropped, and so may be its parent.
    /// - `".priority"` (a number, a string or `null`) sets the priority;
    ///   `".value"` holds the value of a node given with its priority, as in
    ///   the export format (`{".value": 5, ".priority": 1}`).
    /// - Every other member name must be a valid ``Key``.
    /// - At most ``DatabasePath/maxDepth`` levels of keys.
    ///
    /// Server values (`{".sv": …}`) need the current data and are resolved
    /// only by ``Store``; here they are refused.
    /// - Throws: ``StoreError`` (400) naming the offending key or member.
    /// - Complexity: O(size of the value).
    package init(json: JSONValue) throws(StoreError) {
        let reader = DataNodeReader(baseDepth: 0, serverValues: nil)
        self = try reader.read(json, current: .empty, depth: 0)
    }

    /// Normalises a body to be written at `path`, resolving server values
    /// against `current`, the data there before the write. Keys may go at
    /// most ``DatabasePath/maxDepth`` levels below the root.
    init(json: JSONValue, writtenAt path: DatabasePath, current: DataNode, now: Int64) throws(StoreError) {
        let reader = DataNodeReader(baseDepth: path.depth, serverValues: ServerValueContext(now: now))
        self = try reader.read(json, current: current, depth: path.depth)
    }
}

/// Reads request JSON into nodes (see ``DataNode/init(json:)``).
struct DataNodeReader {
    /// Depth of the location written, counted from the root.
    let baseDepth: Int
    /// How to resolve server values; `nil` refuses them.
    let serverValues: ServerValueContext?

    static let tooDeep = StoreError.badRequest(
        "Invalid data; data is nested more than \(DatabasePath.maxDepth) levels deep.")
    static let badPriority = StoreError.badRequest(
        "Invalid data; .priority must be a number, a string or null.")
    static let valueBesideChildren = StoreError.badRequest(
        "Invalid data; .value can only be given with .priority, without other children.")
    static let serverValueBesideChildren = StoreError.badRequest(
        "Invalid data; .sv can only be given with .priority, without other children.")
    static let serverValueRefused = StoreError.badRequest(
        "Invalid data; server values (.sv) can only be written to the database.")

    /// The node for `json`, whose location is `depth` keys below the root
    /// and currently holds `current`.
    func read(_ json: JSONValue, current: DataNode, depth: Int) throws(StoreError) -> DataNode {
        switch json {
        case .null:
            return .empty
        case .bool, .number, .string:
            return DataNode(primitive: json)
        case .array(let elements):
            var children: [Key: DataNode] = [:]
            for (index, element) in elements.enumerated() where !element.isNull {
                guard depth < DatabasePath.maxDepth else { throw Self.tooDeep }
                let key = Key(index)
                let child = try read(element, current: current.child(key), depth: depth + 1)
                if !child.isEmpty { children[key] = child }
            }
            return DataNode(nonEmptyChildren: children)
        case .object(let members):
            return try readObject(members, current: current, depth: depth)
        }
    }

    private func readObject(_ members: JSONObject, current: DataNode, depth: Int)
        throws(StoreError) -> DataNode
    {
        var priority: Priority?
        var value: JSONValue?
        var serverValue: JSONValue?
        var children: [Key: DataNode] = [:]
        children.reserveCapacity(members.count)
        for (name, member) in members {
            switch name {
            case ".priority":
                switch member {
                case .null: priority = nil
                case .number(let d): priority = .number(d)
                case .string(let s): priority = .string(s)
                default: throw Self.badPriority
                }
            case ".value":
                value = member
            case ".sv":
                serverValue = member
            default:
                let key: Key
                do { key = try Key(name) } catch { throw .invalidKey(error) }
                guard depth < DatabasePath.maxDepth else { throw Self.tooDeep }
                let child = try read(member, current: current.child(key), depth: depth + 1)
                if !child.isEmpty { children[key] = child }
            }
        }
        var node: DataNode
        if let serverValue {
            guard value == nil, members.count <= (members[".priority"] == nil ? 1 : 2) else {
                throw Self.serverValueBesideChildren
            }
            guard let serverValues else { throw Self.serverValueRefused }
            node = DataNode(primitive: try serverValues.resolve(serverValue, current: current))
        } else if let value {
            guard members.count <= (members[".priority"] == nil ? 1 : 2) else { throw Self.valueBesideChildren }
            node = try read(value, current: current, depth: depth)
        } else {
            node = DataNode(nonEmptyChildren: children)
        }
        if !node.isEmpty, members[".priority"] != nil {
            node.priority = priority
        }
        return node
    }
}

/// Resolves server values (`{".sv": …}`) in written data, by the rules of
/// ``ServerValue``, at the server's time for a write.
struct ServerValueContext {
    /// The server's time for this write, in milliseconds since 1970.
    let now: Int64

    /// The primitive that `serverValue` (the member `.sv`) stands for, at a
    /// location that currently holds `current`.
    /// - Throws: ``StoreError`` (400) for an unknown server value.
    func resolve(_ serverValue: JSONValue, current: DataNode) throws(StoreError) -> JSONValue {
        switch Result(catching: { () throws(ServerValue.Failure) -> JSONValue in
            try ServerValue.resolve(serverValue, current: current.leaf, now: now)
        }) {
        case .success(let value):
            return value
        case .failure(.incrementNotNumber):
            throw .badRequest("Invalid data; the increment of a server value must be a number.")
        case .failure(.overflow):
            throw .badRequest("Invalid data; the increment would take the number beyond the largest finite number.")
        case .failure(.unsupported):
            throw .badRequest("Invalid data; unsupported server value \(serverValue.jsonText(sortedKeys: true)).")
        }
    }
}
