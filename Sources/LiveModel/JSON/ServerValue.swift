// ServerValue.swift — a value the server fills in when it takes a write
// (`{".sv": …}`): written by the app, resolved by the server, estimated by
// a client until the server's data comes.

/// A value the database fills in when it takes a write, as Firebase's
/// `ServerValue.timestamp()` and `ServerValue.increment(_:)`.
///
/// Write one where a value goes, in a ``JSONValue`` (``JSONValue/serverTimestamp``,
/// ``JSONValue/increment(by:)``) or as a member of an `Encodable` value:
///
/// ```swift
/// struct Score: Encodable { var points: ServerValue; var updated: ServerValue }
/// try await scores.update(Score(points: .increment(10), updated: .timestamp), at: "alice")
/// ```
///
/// A collection shows a write at once with its server values estimated
/// here (the local clock; the number shown plus the increment), then the
/// server's own values when it confirms the write.
///
/// - `timestamp` is the server's time, in milliseconds since 1970.
/// - `increment(n)` is the number currently stored at that location plus
///   `n`, or `n` when the location is absent or holds anything but a number.
///   A sum beyond the finite numbers is refused.
public enum ServerValue: Sendable, Hashable {
    /// The server's time when it takes the write, in milliseconds since 1970.
    case timestamp
    /// The number stored at the location plus `delta` (or `delta` alone
    /// where there is no number).
    case increment(Double)

    /// How the database is sent this value: `{".sv": "timestamp"}` or
    /// `{".sv": {"increment": n}}`.
    /// - Complexity: O(1).
    public var json: JSONValue {
        switch self {
        case .timestamp: return .object([".sv": .string("timestamp")])
        case .increment(let delta): return .object([".sv": .object(["increment": .number(delta)])])
        }
    }

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
