// ChildCondition.swift — one `--where` condition: a child path compared
// with a JSON value in Firebase's order of values.

import LiveModel

/// A condition on the value at a path below each child, as `--where` takes
/// it: `PATH OP JSON`, for example `score >= 10` or `user/name == "ada"`.
/// Values compare in Firebase's order of values (`null`, `false`, `true`,
/// numbers, strings by UTF-16 code units, objects), so `status == "open"` is false
/// for a child without `status`, and `n < 5` holds for one whose `n` is
/// missing (null sorts first). As in Firebase's order, any two objects are
/// equal: `== {"x": 1}` holds for every object. The text splits at its
/// first operator, so a path holding `=`, `!`, `<` or `>` cannot be named.
public struct ChildCondition: Sendable, Equatable, CustomStringConvertible {
    /// How the child's value compares with ``value``.
    public enum Comparison: String, Sendable, CaseIterable {
        /// `==`: equal.
        case equal = "=="
        /// `!=`: not equal.
        case notEqual = "!="
        /// `<`: sorts before.
        case less = "<"
        /// `<=`: sorts before or equal.
        case lessOrEqual = "<="
        /// `>`: sorts after.
        case greater = ">"
        /// `>=`: sorts after or equal.
        case greaterOrEqual = ">="
    }

    /// The path below each child (`/` for the child's own value).
    public let path: DatabasePath
    /// The comparison.
    public let comparison: Comparison
    /// The value compared with.
    public let value: JSONValue
    private let bound: SortValue

    /// Parses `PATH OP JSON`; spaces around the operator are optional.
    /// - Throws: ``REPLError/invalidQuery(_:)`` naming what is wrong: no
    ///   operator, a path Firebase refuses, or a value that is not JSON.
    public init(parsing text: String) throws(REPLError) {
        // The first operator in the text; two-character ones before their
        // one-character prefixes.
        let operators = Comparison.allCases.sorted { $0.rawValue.count > $1.rawValue.count }
        var found: (Range<String.Index>, Comparison)?
        for comparison in operators {
            guard let range = text.range(of: comparison.rawValue) else { continue }
            if found.map({ range.lowerBound < $0.0.lowerBound }) ?? true { found = (range, comparison) }
        }
        guard let (range, comparison) = found else {
            throw .invalidQuery("--where \(text.debugDescription): no comparison (one of == != < <= > >=)")
        }
        let pathText = text[..<range.lowerBound].trimmingSpaces, valueText = text[range.upperBound...].trimmingSpaces
        do { path = try DatabasePath(pathText.isEmpty ? "/" : pathText) } catch {
            throw .invalidQuery("--where \(text.debugDescription): \(error)")
        }
        do { value = try JSONValue(parsing: valueText) } catch {
            throw .invalidQuery("--where \(text.debugDescription): \(valueText.debugDescription) is not JSON: \(error.message)")
        }
        self.comparison = comparison
        bound = SortValue(value)
    }

    /// Whether `child` meets the condition.
    /// - Complexity: O(size of the value at ``path``).
    public func holds(for child: Snapshot) -> Bool {
        let actual = SortValue(child.child(at: path).value)
        switch comparison {
        case .equal: return actual == bound
        case .notEqual: return actual != bound
        case .less: return actual < bound
        case .lessOrEqual: return actual <= bound
        case .greater: return actual > bound
        case .greaterOrEqual: return actual >= bound
        }
    }

    /// The condition as `--where` takes it.
    public var description: String {
        (path.isRoot ? "" : String(path.description.dropFirst()) + " ") + comparison.rawValue + " " + value.jsonText()
    }

    /// Whether both conditions compare the same path the same way with the
    /// same value.
    public static func == (a: ChildCondition, b: ChildCondition) -> Bool {
        a.path == b.path && a.comparison == b.comparison && a.value == b.value
    }
}

private extension Substring {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
