// DurableFile+Append.swift — appending a record to a log so that it is
// either on disk whole or not there at all.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension DurableFile {
    /// Why an append did not keep its record.
    package struct AppendFailure: Error, CustomStringConvertible {
        /// The system's reason, with the path.
        package let description: String
        /// Whether the disk, or the file's size limit or quota, was full.
        package let isFull: Bool
        /// Whether the file was cut back to its length before the append:
        /// when false, the file may end in part of the record, and must not
        /// be appended to again before it is written anew.
        package let isCutBack: Bool
    }

    /// Appends `record` to the file open as `fd` (with `O_APPEND`, at
    /// `path`, `length` bytes long) and syncs it. When writing or syncing
    /// fails, the file is cut back to `length` and synced, so that a
    /// record not acknowledged is never read back.
    /// - Throws: ``AppendFailure`` saying why, and whether the cut back worked.
    /// - Complexity: O(size of the record).
    package static func appendSynced(_ fd: Int32, _ record: [UInt8], to path: String, length: Int) throws(AppendFailure) {
        var reason: String?
        var code: Int32 = 0
        do { try writeAll(fd, record, to: path) } catch {
            code = errno
            reason = error.description
        }
        if reason == nil, fsync(fd) != 0 {
            code = errno
            reason = "Cannot sync \(path): \(errnoText())"
        }
        guard let reason else { return }
        let isFull = code == ENOSPC || code == EFBIG || code == EDQUOT
        let isCutBack = ftruncate(fd, off_t(length)) == 0 && fsync(fd) == 0
        throw AppendFailure(description: isCutBack ? reason : "\(reason), and it could not be cut back (\(errnoText()))",
                            isFull: isFull, isCutBack: isCutBack)
    }
}
