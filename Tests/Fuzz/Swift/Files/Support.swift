// Support.swift — fuzz-files' helpers: tracing, failing, private directories, files and lines.

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LiveModel
@testable import LiveFirebase
@testable import LiveServer

/// FUZZ_FILES_TRACE=1 prints what each reader made of the input.
private let tracing = getenv("FUZZ_FILES_TRACE") != nil

func trace(_ message: @autoclosure () -> String) {
    if tracing { print("fuzz-files: \(message())") }
}

func fail(_ message: String) -> Never {
    fatalError("FUZZ DIVERGENCE (fuzz-files): \(message)")
}

func shown(_ bytes: some Collection<UInt8>) -> String {
    let text = String(decoding: bytes.prefix(300), as: UTF8.self).debugDescription
    return bytes.count > 300 ? text + "… (\(bytes.count) bytes)" : text
}

/// Where the runs' directories go: memory when there is /dev/shm (the
/// readers sync what they write).
private let base: String = {
    var info = stat()
    if stat("/dev/shm", &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, access("/dev/shm", W_OK) == 0 { return "/dev/shm" }
    return NSTemporaryDirectory().hasSuffix("/") ? String(NSTemporaryDirectory().dropLast()) : NSTemporaryDirectory()
}()

/// A fresh private directory (0700, this process's user), removed by `body`'s end.
func withDirectory<R>(_ body: (String) -> R) -> R {
    var template = Array("\(base)/fuzz-files.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fail("cannot make a temporary directory: \(String(cString: strerror(errno)))") }
    let path = String(cString: made)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return body(path)
}

func write(_ bytes: some Collection<UInt8>, to path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { fail("cannot write \(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    let bytes = Array(bytes)
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
        guard n > 0 else { fail("cannot write \(path)") }
        done += n
    }
}

func fileBytes(_ path: String) -> [UInt8]? {
    (try? DurableFile.read(path)) ?? nil
}

let newline = UInt8(ascii: "\n")

/// `bytes` up to and with its last line break: its whole lines.
func wholeLines(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    guard let last = bytes.lastIndex(of: newline) else { return bytes[bytes.startIndex..<bytes.startIndex] }
    return bytes[...last]
}
