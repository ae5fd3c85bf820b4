extension Snapshot {
    /// A child snapshot made from a value built in Swift, exactly as if the
    /// location's JSON `{"<key>": value}` (with `priority` in export form)
    /// had been parsed with `order`: the value is normalised and the
    /// ``sortValue`` is the child's under `order`.
    ///
    /// - Parameters:
    ///   - key: The child's key.
    ///   - value: Its value; an absent value (``JSONValue/isAbsent``) gives
    ///     an absent snapshot.
    ///   - priority: Its priority, if any.
    ///   - order: The order whose sort value is computed.
    /// - Complexity: O(size of the value): it is serialised and parsed.
    public init(key: Key, value: JSONValue, priority: Priority? = nil, order: QueryOrder = .priority) {
        guard !value.isAbsent else {
            self = .absent(key: key)
            return
        }
        var exported = value
        if let priority {
            if case .object(var members) = value {
                members[".priority"] = priority.jsonValue
                exported = .object(members)
            } else {
                exported = .object([".value": value, ".priority": priority.jsonValue])
            }
        }
        let text = JSONValue.object([key.string: exported]).jsonBytes()
        // A value that came from JSON and a valid key always parse; a value
        // that cannot (a non-finite number, a nesting too deep, an invalid
        // member name) stands for nothing.
        guard let document = try? Snapshot.parse(json: text, order: order), let child = document.children.first else {
            self = .absent(key: key)
            return
        }
        self = child
    }
}
