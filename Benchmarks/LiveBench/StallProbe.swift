// StallProbe.swift — the longest time the main actor could not run anything.

/// Measures main-actor stalls: a task on the main actor asks to wake every
/// millisecond and notes how much later than asked it ran. While the main
/// actor runs something else without a suspension point (a load applied in
/// one step, a batch of events), the probe cannot run: the lateness of its
/// next wake-up is that stall, which a list view would see as frames lost.
@MainActor
final class StallProbe {
    private static let period = Duration.milliseconds(1)
    private var task: Task<Void, Never>?
    private var longest = Duration.zero
    /// When the probe last went to sleep, and until when it asked to.
    private var waitingUntil: ContinuousClock.Instant?

    /// Starts measuring; the longest stall so far is forgotten.
    func start() {
        longest = .zero
        task?.cancel()
        task = Task { @MainActor [weak self] in
            let clock = ContinuousClock()
            while !Task.isCancelled {
                let due = clock.now + Self.period
                self?.waitingUntil = due
                try? await Task.sleep(until: due, clock: clock)
                // A stopped probe notes nothing more: its wake-up after the
                // cancellation may come after the next start, and would
                // count what ran between the two in the next measure.
                guard let self, !Task.isCancelled else { return }
                self.note(clock.now - due)
            }
        }
    }

    private func note(_ late: Duration) {
        if late > longest { longest = late }
    }

    /// Stops measuring and returns the longest stall seen, in seconds; a
    /// stall still under way (the probe's wake-up overdue) counts too.
    func stop() -> Double {
        if let due = waitingUntil { note(ContinuousClock.now - due) }
        waitingUntil = nil
        task?.cancel()
        task = nil
        return longest.inSeconds
    }
}
