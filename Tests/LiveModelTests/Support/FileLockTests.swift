// FileLockTests.swift — one holder of a lock file at a time, in this process
// and against another, free again the moment it is released.
import Foundation
@testable import LiveModel
import Testing

@Suite("FileLock")
struct FileLockTests {
    static func directory() -> String {
        let path = NSTemporaryDirectory() + "live-lock-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Whether another process can take a POSIX record lock on `path` now.
    static func otherProcessLocks(_ path: String) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import fcntl, sys
            f = open(sys.argv[1], "a")
            try:
                fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                sys.exit(3)
            """, path]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    @Test("held by one FileLock of the process at a time, whatever the path's spelling; free at release")
    func inProcess() throws {
        let directory = Self.directory()
        let path = directory + "/q.lock"
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: directory)
        let first = try #require(try? FileLock(path))
        withExtendedLifetime(first) {
            #expect((try? FileLock(path)) == nil)
            #expect((try? FileLock(directory + "/./q.lock")) == nil)
            #expect((try? FileLock(directory + "/link/q.lock")) == nil)
            #expect((try? FileLock(directory + "/other.lock")) != nil, "another file is another lock")
        }
    }

    @Test("released and taken again at once while another thread starts processes: a child never keeps it")
    func whileSpawning() throws {
        let path = Self.directory() + "/q.lock"
        let spawned = Counter()
        let spawner = Thread {
            for _ in 0..<100 {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/true")
                if (try? process.run()) != nil { process.waitUntilExit() }
                spawned.add()
            }
        }
        spawner.start()
        var refused = 0, taken = 0
        while spawned.value < 100 {
            if (try? FileLock(path)) == nil { refused += 1 } else { taken += 1 }
        }
        #expect(refused == 0, "refused \(refused) of \(refused + taken)")
    }

    @Test("a lock file that cannot be made is not locked")
    func unmade() {
        #expect(throws: FileLock.Failure.self) { try FileLock(Self.directory() + "/missing/q.lock") }
    }

    @Test("another process cannot take it while it is held, and can once it is released")
    func betweenProcesses() throws {
        let path = Self.directory() + "/q.lock"
        do {
            let held = try #require(try? FileLock(path))
            let refused = try withExtendedLifetime(held) { try !Self.otherProcessLocks(path) }
            #expect(refused)
        }
        #expect(try Self.otherProcessLocks(path))
    }
}

/// A count read from another thread.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
