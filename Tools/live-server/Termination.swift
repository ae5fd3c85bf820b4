// Termination.swift — SIGINT and SIGTERM, caught from the moment they are
// installed, so that a signal sent right after the server's URL is printed is
// never lost (a dispatch signal source is armed later, asynchronously).

import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum Termination {
    /// The write end of the pipe the handler signals through. Set once,
    /// before the handler is installed; read only by the handler.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    nonisolated(unsafe) private static var readEnd: Int32 = -1

    /// Installs the handlers. Call once, before telling anyone the server runs.
    static func install() throws(TerminationError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw TerminationError(errno: errno) }
        readEnd = ends[0]
        writeEnd = ends[1]
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { _ in
                var byte: UInt8 = 1
                _ = write(Termination.writeEnd, &byte, 1)  // async-signal-safe
            }
            #else
            action.__sigaction_u.__sa_handler = { _ in
                var byte: UInt8 = 1
                _ = write(Termination.writeEnd, &byte, 1)
            }
            #endif
            sigemptyset(&action.sa_mask)
            guard sigaction(number, &action, nil) == 0 else { throw TerminationError(errno: errno) }
        }
    }

    /// Returns once SIGINT or SIGTERM has come (at once if one came already).
    static func wait() async {
        let fd = readEnd
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue(label: "live-server.termination").async {  // blocks one dispatch thread
                var byte: UInt8 = 0
                while read(fd, &byte, 1) < 0 && errno == EINTR {}
                continuation.resume()
            }
        }
    }
}

/// The handlers could not be installed.
struct TerminationError: Error, CustomStringConvertible {
    let errno: Int32
    var description: String { "cannot catch SIGINT and SIGTERM: \(String(cString: strerror(errno)))" }
}
