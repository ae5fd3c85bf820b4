// ServerValue.swift — what a server value (`{".sv": …}`) in written data
// stands for: resolved by the server, estimated by a client until the
// server's data comes.

/// The rules of Firebase's server values.
///
/// - `{".sv": "timestamp"}` is the server's time, in milliseconds since
///   1970.
/// - `{".sv": {"increment": n}}` is the number currently stored at that
///   location plus `n`, or `n` when the location is absent or holds
///   anything but a number. A sum beyond the finite numbers is refused.
package enum ServerValue {
    /// Why a server value cannot be resolved.
    package enum Failure: Error, Equatable {
        /// The increment is not a number.
        case incrementNotNumber
        /// Neither `timestamp` nor an increment.
        case unsupported
        /// The sum is beyond the largest finite number (JSON has no
        /// infinity: it could be neither sent nor stored).
        case overflow
    }

    /// The primitive that `serverValue` (the member `.sv`) stands for, at a
    /// location whose current value is `current` (nil when absent).
    /// - Parameter now: The time, in milliseconds since 1970.
    /// - Complexity: O(1).
    package static func resolve(_ serverValue: JSONValue, current: JSONValue?, now: Int64) throws(Failure) -> JSONValue {
        switch serverValue {
        case .string("timestamp"):
            return .number(Double(now))
        case .object(let members):
            guard members.count == 1, let delta = members["increment"] else { throw .unsupported }
            guard case .number(let n) = delta else { throw .incrementNotNumber }
            let sum: Double
            if case .number(let base)? = current { sum = base + n } else { sum = n }
            guard sum.isFinite else { throw .overflow }
            return .number(sum)
        default:
            throw .unsupported
        }
    }

    /// `value` with every server value in it replaced by what it stands for
    /// over `current` (the value now at the same location; nil when
    /// absent): how a client shows a write before the server resolves it.
    /// A server value it cannot resolve stays as written.
    /// - Complexity: O(size of `value`).
    package static func estimate(_ value: JSONValue, over current: JSONValue?, now: Int64) -> JSONValue {
        guard case .object(let members) = value else { return value }
        if let sv = members[".sv"] {
            guard let resolved = try? resolve(sv, current: current, now: now) else { return value }
            guard let priority = members[".priority"] else { return resolved }
            return .object([".value": resolved, ".priority": priority])
        }
        var out = members
        for (name, member) in members where !name.hasPrefix(".") {
            out[name] = estimate(member, over: current?[name], now: now)
        }
        return .object(out)
    }

    /// Whether `value` holds a server value anywhere.
    /// - Complexity: O(size of `value`).
    package static func contains(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members): return members[".sv"] != nil || members.values.contains(where: contains)
        case .array(let items): return items.contains(where: contains)
        default: return false
        }
    }
}
