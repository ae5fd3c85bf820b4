// Handover.swift — a value handed once from the main actor to one piece of
// work elsewhere, and held by nothing else meanwhile.
import Foundation

/// Holds a value until one piece of work takes it: the work then holds
/// the only reference, and lets it go where it runs.
///
/// Used for a view's tables (``QueryView/cache``) given to work away from
/// the main actor: while a task or a closure holds them, a change of the
/// view would copy them on the main actor, and the last reference, dropped
/// there, would free them there.
final class Handover<Value>: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var value: Value?

    init(_ value: Value) { self.value = value }

    /// The value, the first time; nil after.
    func take() -> Value? {
        lock.withLock {
            defer { value = nil }
            return value
        }
    }
}
