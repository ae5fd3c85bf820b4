// Invalidations.swift — which Observation reads a change invalidated, for
// the tests of the observed collections.
import Foundation
import Observation

/// Which tracked reads were invalidated, by name: each read is tracked
/// once until it fires.
package final class Invalidations: @unchecked Sendable {
    package init() {}

    /// What fired since the last take, and what is being tracked (under `lock`).
    private var fired: [String] = [], armed: Set<String> = []
    private let lock = NSLock()

    /// Tracks the reads `read` makes; the next change of any of them records `name`.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @MainActor
    package func arm(_ name: String, _ read: () -> Void) {
        // Armed once until it fires: a tracking stays armed until then.
        guard lock.withLock({ armed.insert(name).inserted }) else { return }
        withObservationTracking(read) { [self] in
            lock.withLock {
                fired.append(name)
                armed.remove(name)
            }
        }
    }

    /// The names recorded since the last call, sorted, and forgets them.
    package func take() -> [String] { lock.withLock { defer { fired = [] }; return fired.sorted() } }
}
