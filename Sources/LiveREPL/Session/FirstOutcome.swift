// FirstOutcome.swift — the first of several outcomes, awaited once.

/// The first of several outcomes, awaited once: nil for success, or an error.
@MainActor
final class FirstOutcome {
    private var outcome: REPLError??
    private var waiter: CheckedContinuation<REPLError?, Never>?

    /// Records `error` (nil: success), unless an outcome came before.
    func finish(_ error: REPLError?) {
        guard outcome == nil else { return }
        outcome = .some(error)
        waiter?.resume(returning: error)
        waiter = nil
    }

    /// The first outcome, once there is one.
    func value() async -> REPLError? {
        if let outcome { return outcome }
        return await withCheckedContinuation { waiter = $0 }
    }
}
