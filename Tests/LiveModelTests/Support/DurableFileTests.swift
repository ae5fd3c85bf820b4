// DurableFileTests.swift — reading a whole file into storage of its size,
// with zero bytes after it for the core's in-place check.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@testable import LiveModel
import Testing

@Suite("Durable file reads")
struct DurableFileTests {
    /// A fresh private directory, removed after `body`.
    private func withDirectory(_ body: (String) throws -> Void) throws {
        var template = Array("\(NSTemporaryDirectory())/durable-file.XXXXXX".utf8CString)
        let made = try #require(mkdtemp(&template))
        let path = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    @Test("a file reads as its bytes, then the zero bytes asked for", arguments: [0, 1, 100_000])
    func padded(size: Int) throws {
        try withDirectory { directory in
            let path = directory + "/data.json"
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            for padding in [0, 16] {
                let read = try #require(try DurableFile.read(path, padding: padding))
                #expect(read.count == size + padding)
                #expect(Array(read.prefix(size)) == bytes)
                #expect(read.suffix(padding).allSatisfy { $0 == 0 })
            }
        }
    }

    @Test("a missing file is nil; a directory is refused with its path")
    func notAFile() throws {
        try withDirectory { directory in
            #expect(try DurableFile.read(directory + "/absent", padding: 16) == nil)
            do {
                _ = try DurableFile.read(directory, padding: 16)
                Issue.record("a directory was read")
            } catch let error as DurableFile.Failure {
                #expect(error.description.contains(directory))
            }
        }
    }
}
