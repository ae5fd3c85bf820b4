import LiveModel

extension DataNode {
    /// The node as the database answers a read.
    ///
    /// - `export == false`: priorities are left out, and children whose keys
    ///   are all array indexes (`"0"`, `"1"`, `"12"`: no sign, no leading
    ///   zero) become a JSON array when the largest index is less than twice
    ///   the number of children — Firebase's array rule — with `null` in
    ///   the holes. Anything else is an object.
    /// - `export == true` (`format=export`): never an array; a node's
    ///   priority is its member `".priority"`, and a leaf with a priority is
    ///   `{".value": v, ".priority": p}`.
    ///
    /// ``empty`` is `null`. Every child is a member under its key's exact
    /// code units, so keys that differ only by Unicode canonical
    /// equivalence stay apart.
    /// - Complexity: O(size of the node).
    package func json(export: Bool = false) -> JSONValue {
        let children = self.children
        if let leaf {
            if export, let priority {
                return .object([".value": leaf, ".priority": priority.jsonValue])
            }
            return leaf
        }
        if children.isEmpty { return .null }
        if !export, let length = DataNode.arrayLength(of: children) {
            var elements = [JSONValue](repeating: .null, count: length)
            for (key, child) in children {
                // Every key is an index below `length` (see arrayLength).
                elements[Int(key.integerValue!)] = child.json(export: false)
            }
            return .array(elements)
        }
        var members = JSONObject()
        members.reserveCapacity(children.count + 1)
        for (key, child) in children {
            members[key.string] = child.json(export: export)
        }
        if export, let priority {
            members[".priority"] = priority.jsonValue
        }
        return .object(members)
    }

    /// The JSON text of ``json(export:)``, written straight from the node
    /// without building the value (members in the children's order).
    /// - Complexity: O(size of the node).
    package func jsonBytes(export: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        write(to: &out, export: export)
        return out
    }

    /// How a node's text is laid out: written in one piece, as an array's
    /// elements, or as an object's members (see ``json(export:)``).
    enum TextForm {
        /// A leaf (with its priority, exported), text kept packed, or `null`.
        case whole
        /// `[…]`, `null` in the holes.
        case elements([DataNode?])
        /// `{"key": child, …}` with `".priority"` when given; never empty.
        case members(Children, priority: Priority?)
    }

    /// The layout of the node's text under Firebase's array rule.
    /// - Complexity: O(number of children) for the array rule's check.
    func textForm(export: Bool) -> TextForm {
        if case .packed = content { return .whole }
        if leaf != nil { return .whole }
        let children = self.children
        if children.isEmpty { return .whole }
        if !export, let length = DataNode.arrayLength(of: children) {
            var elements = [DataNode?](repeating: nil, count: length)
            for (key, child) in children { elements[Int(key.integerValue!)] = child }
            return .elements(elements)
        }
        return .members(children, priority: export ? priority : nil)
    }

    /// Appends the JSON text of ``json(export:)`` to `out`.
    func write(to out: inout [UInt8], export: Bool) {
        switch textForm(export: export) {
        case .whole:
            writeWhole(to: &out, export: export)
        case .elements(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                DataNode.writeElement(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .members(let children, let priority):
            DataNode.writeMembers(children, to: &out, export: export, priority: priority)
        }
    }

    /// Appends the text of a node whose ``textForm(export:)`` is `.whole`.
    func writeWhole(to out: inout [UInt8], export: Bool) {
        if case .packed(let packed) = content {
            return packed.write(to: &out)  // plain text is what this function writes
        }
        guard let leaf else { return out.append(contentsOf: "null".utf8) }
        guard export, let priority else { return leaf.write(to: &out, sortedKeys: false) }
        out.append(contentsOf: #"{".value":"#.utf8)
        leaf.write(to: &out, sortedKeys: false)
        DataNode.writePriority(priority, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Appends an array's element: the node, or `null` for a hole.
    static func writeElement(_ element: DataNode?, to out: inout [UInt8]) {
        if let element { element.write(to: &out, export: false) } else { out.append(contentsOf: "null".utf8) }
    }

    /// Appends `".priority":p`, after a comma unless it is the first member.
    static func writePriority(_ priority: Priority, to out: inout [UInt8], first: Bool = false) {
        if !first { out.append(UInt8(ascii: ",")) }
        out.append(contentsOf: #"".priority":"#.utf8)
        priority.jsonValue.write(to: &out, sortedKeys: false)
    }

    /// Appends `"key":child`.
    static func writeMember(_ key: Key, _ child: DataNode, to out: inout [UInt8], export: Bool) {
        JSONValue.writeKey(key, to: &out)
        out.append(UInt8(ascii: ":"))
        child.write(to: &out, export: export)
    }

    /// Appends `{"key": child, …}` (with `".priority"` when given); `null`
    /// when there is nothing to write.
    static func writeMembers<Members: Sequence<(key: Key, value: DataNode)>>(
        _ members: Members, to out: inout [UInt8], export: Bool, priority: Priority? = nil
    ) {
        var first = true
        for (key, child) in members {
            out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            writeMember(key, child, to: &out, export: export)
        }
        if let priority {
            if first { out.append(UInt8(ascii: "{")) }
            writePriority(priority, to: &out, first: first)
            first = false
        }
        out.append(contentsOf: first ? "null".utf8 : "}".utf8)
    }

    /// The node as a `shallow=true` read answers it: a leaf as itself,
    /// children as `{key: true}`, ``empty`` as `null`.
    /// - Complexity: O(number of children).
    package func shallowJSON() -> JSONValue {
        if let leaf { return leaf }
        let children = self.children
        if children.isEmpty { return .null }
        var members = JSONObject()
        members.reserveCapacity(children.count)
        for key in children.keys {
            members[key.string] = .bool(true)
        }
        return .object(members)
    }

    /// The length of the array `children` render as, or `nil` when they
    /// render as an object (see ``json(export:)``).
    static func arrayLength(of children: Children) -> Int? {
        var largest = -1
        for key in children.keys {
            guard let index = DataNode.arrayIndex(key) else { return nil }
            largest = max(largest, index)
        }
        return largest >= 0 && largest < 2 * children.count ? largest + 1 : nil
    }

    /// The array index a key stands for: a non-negative integer key written
    /// without sign or leading zero.
    static func arrayIndex(_ key: Key) -> Int? {
        guard let first = key.withUTF8({ $0.first }), first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"),
              first != UInt8(ascii: "0") || key.utf8Count == 1,
              let value = key.integerValue
        else { return nil }
        return Int(value)
    }
}
