// ProcessLaunch.swift — starting child processes from tests that run in
// parallel, so that no child holds another child's pipes.

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts the test suites' child processes one at a time, with pipes that
/// no other child inherits.
///
/// A pipe's descriptors are inherited by every process started while they
/// are open, unless they close on exec. Tests start processes from many
/// threads at once: a `live-repl` whose standard input is also held by a
/// sibling (or by a tmux server, which lives on) never reads the end of
/// its input, and its test waits for ever. So every launch happens under
/// one lock, and the pipes made for it close on exec before the lock is
/// released (the child's own standard streams are copies, which stay open).
package enum ProcessLaunch {
    private static let lock = NSLock()

    /// Runs `launch` (which makes its pipes with ``pipe()`` and starts the
    /// process) while no other launch is under way.
    package static func exclusively<T>(_ launch: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try launch()
    }

    /// A pipe whose two descriptors close on exec. Call it inside
    /// ``exclusively(_:)``.
    package static func pipe() -> Pipe {
        let pipe = Pipe()
        for fd in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
            _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        }
        return pipe
    }
}
