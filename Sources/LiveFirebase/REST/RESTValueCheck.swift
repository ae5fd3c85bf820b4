// RESTValueCheck.swift — refusing, before sending, values the database
// cannot store.
import LiveModel

/// Checks values to be written, so that a mistake is reported with its
/// place rather than as the server's `400`.
enum RESTValueCheck {
    /// Member names with a meaning of their own in written data.
    private static let specialNames: Set<String> = [".priority", ".value", ".sv"]

    /// - Throws: ``DatabaseError/invalidValue(_:)`` for a number that is not
    ///   finite, or a member name that is not a valid key (other than
    ///   `.priority`, `.value` and `.sv`), naming where it is.
    /// - Complexity: O(size of the value).
    static func check(_ value: JSONValue, at place: String = "/") throws(DatabaseError) {
        switch value {
        case .null, .bool, .string:
            return
        case .number(let d):
            guard d.isFinite else { throw .invalidValue("the number at \(place) is not finite (\(d))") }
        case .array(let elements):
            for (i, element) in elements.enumerated() { try check(element, at: join(place, String(i))) }
        case .object(let members):
            for (name, member) in members {
                if !specialNames.contains(name) {
                    do { _ = try Key(name) } catch { throw .invalidValue("at \(place): \(error.description)") }
                }
                try check(member, at: join(place, name))
            }
        }
    }

    /// `value` with `priority` in the export format.
    static func withPriority(_ value: JSONValue, _ priority: Priority?) -> JSONValue {
        let p = priority?.jsonValue ?? .null
        switch value {
        case .null:
            return .null
        case .object(var members) where !value.isAbsent:
            members[".priority"] = p
            return .object(members)
        case .array(let elements) where !value.isAbsent:
            var members: JSONObject = [".priority": p]
            for (i, element) in elements.enumerated() where !element.isNull { members[String(i)] = element }
            return .object(members)
        case .object, .array:
            return .null
        default:
            return .object([".value": value, ".priority": p])
        }
    }

    private static func join(_ place: String, _ name: String) -> String {
        place == "/" ? "/" + name : place + "/" + name
    }
}
