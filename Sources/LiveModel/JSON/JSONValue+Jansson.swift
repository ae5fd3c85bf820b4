internal import CJansson

extension JSONValue {
    /// Parses JSON text (any value at the top, UTF-8, as jansson accepts
    /// it). Unlike a ``Snapshot``, the result is plain JSON: arrays stay
    /// arrays, `null` members stay, `".priority"` is an ordinary member.
    ///
    /// - Throws: ``ParseError`` with jansson's line, column and byte position.
    /// - Complexity: O(length of the text).
    public init(parsing json: String) throws(ParseError) {
        try self.init(parsingUTF8: json.utf8)
    }

    /// Parses UTF-8 JSON bytes (`[UInt8]`, `Data`, a `String.UTF8View`, …);
    /// see ``init(parsing:)``.
    public init<Bytes: Collection<UInt8>>(parsingUTF8 bytes: Bytes) throws(ParseError) {
        self = try withContiguousBytes(bytes) { buffer throws(ParseError) -> JSONValue in
            var error = json_error_t()
            guard let root = json_loadb(buffer.cChars, buffer.count, Int(JSON_DECODE_ANY), &error) else {
                throw ParseError(jansson: error)
            }
            defer { json_decref(root) }
            return JSONValue(jansson: root)
        }
    }

    /// Converts a jansson value (borrowed: the caller keeps its reference).
    ///
    /// Iterative, so that nesting depth (at most jansson's 2048 levels) never
    /// threatens the stack.
    /// - Complexity: O(size of the value).
    init(jansson root: UnsafeMutablePointer<json_t>) {
        // A container being filled. Frames are mutated in place inside the
        // stack array, so their storage stays uniquely referenced and each
        // insertion is O(1) (copying a frame out would copy its contents).
        struct Frame {
            let json: UnsafeMutablePointer<json_t>
            let isArray: Bool
            var next = 0                                  // array: index of the next element
            var count = 0                                 // array: number of elements
            var iterator: UnsafeMutableRawPointer? = nil  // object: current member
            var name = ""                                 // object: current member's name
            var elements: [JSONValue] = []
            var members = JSONObject()
        }
        var stack: [Frame] = []
        var node = root
        while true {
            // Descend until a value is complete.
            var value: JSONValue
            switch node.pointee.type {
            case JSON_NULL:
                value = .null
            case JSON_TRUE:
                value = .bool(true)
            case JSON_FALSE:
                value = .bool(false)
            case JSON_INTEGER:
                value = .number(Double(json_integer_value(node)))
            case JSON_REAL:
                value = .number(json_real_value(node))
            case JSON_STRING:
                value = .string(String(utf8: json_string_value(node), count: json_string_length(node)))
            case JSON_ARRAY:
                let count = json_array_size(node)
                if count == 0 {
                    value = .array([])
                } else {
                    var frame = Frame(json: node, isArray: true, next: 1, count: count)
                    frame.elements.reserveCapacity(count)
                    stack.append(frame)
                    node = json_array_get(node, 0)
                    continue
                }
            case JSON_OBJECT:
                if let iterator = json_object_iter(node) {
                    var frame = Frame(json: node, isArray: false, iterator: iterator,
                                      name: String(utf8: json_object_iter_key(iterator),
                                                   count: json_object_iter_key_len(iterator)))
                    frame.members.reserveCapacity(json_object_size(node))
                    stack.append(frame)
                    node = json_object_iter_value(iterator)
                    continue
                }
                value = .object([:])
            default:
                value = .null
            }
            // Ascend: hand the value to its parent, then either descend into
            // the parent's next member or complete the parent too.
            ascending: while true {
                let top = stack.count - 1
                guard top >= 0 else {
                    self = value
                    return
                }
                if stack[top].isArray {
                    stack[top].elements.append(value)
                    let next = stack[top].next
                    if next < stack[top].count {
                        stack[top].next = next + 1
                        node = json_array_get(stack[top].json, next)
                        break ascending
                    }
                    value = .array(stack.removeLast().elements)
                } else {
                    stack[top].members[stack[top].name] = value
                    if let following = json_object_iter_next(stack[top].json, stack[top].iterator) {
                        stack[top].iterator = following
                        stack[top].name = String(utf8: json_object_iter_key(following),
                                                 count: json_object_iter_key_len(following))
                        node = json_object_iter_value(following)
                        break ascending
                    }
                    value = .object(stack.removeLast().members)
                }
            }
        }
    }
}
