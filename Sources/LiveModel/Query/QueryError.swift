// QueryError.swift — why a query was refused: by its own rules (built in
// code) or as a request's parameters.

/// Why a ``DatabaseQuery`` was refused, in words a user can act on.
///
/// ``DatabaseQuery/validated()`` throws it for a query built in code that
/// Firebase would refuse; ``DatabaseQuery/init(parameters:)`` for a
/// request's parameters, worded as the Realtime Database words its answer.
public struct QueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the bound, limit or parameter.
    public let reason: String

    /// An error for `reason`.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
