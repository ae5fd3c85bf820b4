// ObservationToken.swift — what keeps an observation of any layer alive.

/// Keeps an observation alive: cancelling it, or releasing it, ends it.
///
/// Every `observe…` and `addObserver` of every layer (a sorted collection,
/// its sections, a Firebase collection) returns one. Keep it for as long as
/// the callbacks are wanted, in a property or with `defer { token.cancel() }`:
/// a token that is not kept ends its observation when it is released, which
/// for an unused local may be right away.
@MainActor
public final class ObservationToken {
    private var onCancel: (() -> Void)?

    package init(_ onCancel: @escaping () -> Void) { self.onCancel = onCancel }

    /// Ends the observation. Idempotent.
    public func cancel() {
        onCancel?()
        onCancel = nil
    }

    isolated deinit { cancel() }
}
