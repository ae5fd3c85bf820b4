// RESTQueryFixtures.swift — random children and random queries, with many
// ties, for the query layer's and the REST client's randomized tests.

import LiveFirebase
import LiveModel

/// One child of a location: key, value and priority.
struct RESTChild: Sendable {
    let key: Key
    let value: JSONValue
    let priority: Priority?

    /// The value in the export format (priority included), as written.
    var exportJSON: JSONValue {
        guard let priority else { return value }
        if case .object(var members) = value {
            members[".priority"] = priority.jsonValue
            return .object(members)
        }
        return .object([".value": value, ".priority": priority.jsonValue])
    }
}

enum RESTQueryFixtures {
    /// Keys with integer keys, lookalikes, UTF-16 order traps and
    /// canonically equivalent pairs (distinct keys all the same).
    static let keys: [String] = [
        "0", "1", "2", "7", "007", "10", "-1", "-0", "00", "2147483647", "2147483648", "-2147483649",
        "a", "b", "A", "Z", "\u{E9}", "😀", "｡", "a b", "a+b", "x%y", "k&v", "k=v", "q?", "zz", "-", "_",
        "e\u{301}", "\u{C5}", "A\u{30A}", "\u{212B}",
    ]

    /// Primitive values, with ties and UTF-16 order traps.
    static let primitives: [JSONValue] = [
        .bool(false), .bool(true), .number(-1), .number(0), .number(0.5), .number(1), .number(2), .number(10),
        .string(""), .string("a"), .string("b"), .string("B"), .string("é"), .string("e\u{301}"),
        .string("😀"), .string("｡"), .string("10"),
    ]

    /// The orders exercised.
    static let orders: [QueryOrder] = [.priority, .key, .value, .child("score"), .child("a/b")]

    /// Between 0 and `max` children with distinct keys.
    static func children(max: Int = 20, using rng: inout SplitMix64) -> [RESTChild] {
        let count = Int.random(in: 0...max, using: &rng)
        return keys.shuffled(using: &rng).prefix(count).map { name in
            RESTChild(key: Key(stringLiteral: name), value: value(using: &rng), priority: priority(using: &rng))
        }
    }

    /// A primitive, or an object that may hold `score` and `a/b`.
    static func value(using rng: inout SplitMix64) -> JSONValue {
        if Bool.random(using: &rng) { return primitives.randomElement(using: &rng)! }
        var members: JSONObject = ["n": .number(Double(Int.random(in: 0...3, using: &rng)))]
        if Int.random(in: 0..<4, using: &rng) > 0 { members["score"] = primitives.randomElement(using: &rng)! }
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: members["a"] = ["b": primitives.randomElement(using: &rng)!]
        case 1: members["a"] = primitives.randomElement(using: &rng)!  // a/b passes through a primitive
        case 2: members["a"] = ["c": 1]
        default: break
        }
        return .object(members)
    }

    static func priority(using rng: inout SplitMix64) -> Priority? {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return nil
        case 1: return .number(Double(Int.random(in: -1...2, using: &rng)))
        case 2: return .string(["a", "b", "é", "10"].randomElement(using: &rng)!)
        default: return nil
        }
    }

    /// A bound value that suits `order`, often equal to a child's.
    static func boundValue(_ order: QueryOrder, children: [RESTChild], using rng: inout SplitMix64) -> JSONValue {
        switch order {
        case .key:
            if let child = children.randomElement(using: &rng), Bool.random(using: &rng) { return .string(child.key.string) }
            return .string(keys.randomElement(using: &rng)!)
        case .priority:
            if let child = children.randomElement(using: &rng), Bool.random(using: &rng) {
                return child.priority?.jsonValue ?? .null
            }
            return [JSONValue.null, 0, 1, "a", "b", "é"].randomElement(using: &rng)!
        case .value, .child:
            if let child = children.randomElement(using: &rng), Bool.random(using: &rng) {
                if case .child(let path) = order, let nested = child.value[path: path], nested.objectValue == nil,
                   nested.arrayValue == nil {
                    return nested
                }
                if child.value.objectValue == nil { return child.value }
            }
            return Int.random(in: 0..<6, using: &rng) == 0 ? .null : primitives.randomElement(using: &rng)!
        }
    }

    /// A random valid query in `order`: any mix of bound kinds, tie-breaks
    /// and limits.
    static func query(_ order: QueryOrder, children: [RESTChild], using rng: inout SplitMix64) -> DatabaseQuery {
        var query = DatabaseQuery(order: order)
        func tieBreak(_ rng: inout SplitMix64) -> Key? {
            guard order != .key, Bool.random(using: &rng) else { return nil }
            if let child = children.randomElement(using: &rng), Bool.random(using: &rng) { return child.key }
            return Key(stringLiteral: keys.randomElement(using: &rng)!)
        }
        switch Int.random(in: 0..<5, using: &rng) {
        case 0:
            query = query.equal(to: boundValue(order, children: children, using: &rng), key: tieBreak(&rng))
        default:
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: query = query.starting(at: boundValue(order, children: children, using: &rng), key: tieBreak(&rng))
            case 1: query = query.starting(after: boundValue(order, children: children, using: &rng), key: tieBreak(&rng))
            default: break
            }
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: query = query.ending(at: boundValue(order, children: children, using: &rng), key: tieBreak(&rng))
            case 1: query = query.ending(before: boundValue(order, children: children, using: &rng), key: tieBreak(&rng))
            default: break
            }
        }
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: query = query.limited(toFirst: Int.random(in: 1...6, using: &rng))
        case 1: query = query.limited(toLast: Int.random(in: 1...6, using: &rng))
        default: break
        }
        return query
    }
}
