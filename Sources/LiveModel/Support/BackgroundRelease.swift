// BackgroundRelease.swift — freeing large storage away from the thread that
// lets go of it.

/// Hands `value` to a background task that only releases it: freeing a
/// million children's storage takes tens of milliseconds, which the thread
/// that lets go of it (a main actor, say) need not spend.
///
/// The caller keeps no reference: the value moves into memory the task
/// owns, so the task's release is the last one, whichever runs first. Give
/// it storage the library owns (a cache, an index, a list of events), not a
/// user's objects, whose deinitialisers may expect their own thread.
/// - Complexity: O(1) here.
package func releaseInBackground<T>(_ value: consuming T) {
    let slot = UnsafeMutablePointer<T>.allocate(capacity: 1)
    slot.initialize(to: value)
    let address = UInt(bitPattern: slot)
    Task.detached(priority: .utility) {
        let slot = UnsafeMutablePointer<T>(bitPattern: address).unsafelyUnwrapped
        slot.deinitialize(count: 1)
        slot.deallocate()
    }
}

/// Leaves `empty` in `storage` and releases what it held in the background
/// (``releaseInBackground(_:)``): for a stored property in a `deinit`, which
/// would otherwise release its value after the task may already have run.
/// - Complexity: O(1) here.
package func releaseInBackground<T>(_ storage: inout T, leaving empty: T) {
    var taken = empty
    swap(&taken, &storage)
    releaseInBackground(taken)
}
