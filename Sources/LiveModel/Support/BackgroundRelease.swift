// BackgroundRelease.swift — freeing large storage away from the thread that
// lets go of it.

/// Hands `value` to a background task that only releases it: freeing a
/// million children's storage takes tens of milliseconds, which the thread
/// that lets go of it (a main actor, say) need not spend.
///
/// The value moves into memory the task owns, so when the caller passes its
/// last copy, the task's release is the last one, whichever runs first (a
/// copy the caller keeps elsewhere is released wherever that copy goes).
/// Give it storage the library owns (a cache, an index, a list of events),
/// or values whose owner documents that they are freed so; not a user's
/// objects, whose deinitialisers may expect their own thread.
/// - Complexity: O(1) here.
package func releaseInBackground<T>(_ value: consuming T) {
    let slot = UnsafeMutablePointer<T>.allocate(capacity: 1)
    slot.initialize(to: consume value)
    freeInBackground(slot)
}

/// Leaves `empty` in `storage` and releases what it held in the background
/// (``releaseInBackground(_:)``): for a stored property in a `deinit`. The
/// value is swapped straight into the task's memory, never copied, so the
/// property's own release afterwards is of `empty`.
/// - Complexity: O(1) here.
package func releaseInBackground<T>(_ storage: inout T, leaving empty: T) {
    let slot = UnsafeMutablePointer<T>.allocate(capacity: 1)
    slot.initialize(to: empty)
    swap(&slot.pointee, &storage)
    freeInBackground(slot)
}

/// Deinitialises and frees `slot` on a detached task: the task owns it.
private func freeInBackground<T>(_ slot: UnsafeMutablePointer<T>) {
    let address = UInt(bitPattern: slot)
    Task.detached(priority: .utility) {
        let slot = UnsafeMutablePointer<T>(bitPattern: address).unsafelyUnwrapped
        slot.deinitialize(count: 1)
        slot.deallocate()
    }
}
