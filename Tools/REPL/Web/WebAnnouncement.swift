// WebAnnouncement.swift — where live-repl tells the inspector's address,
// which carries the token that lets a page in.

import Foundation

extension REPLRunner {
    /// Tells where the inspector is. Its address holds the token that lets
    /// a page in, so it goes to standard error only when that is a
    /// terminal; otherwise (a log, a pipe) to a file readable by the user
    /// alone — `--web-address-file`, or a new one in the temporary
    /// directory — and standard error names the file.
    func announce(_ web: WebServer) {
        let page = "http://127.0.0.1:\(web.port)/"
        var file = options.webAddressFile
        if file == nil && isatty(2) != 0 {
            FileHandle.standardError.write(Data("live-repl: inspector at \(web.address)\n".utf8))
            return
        }
        var fd: Int32
        if let given = file {
            fd = open(given, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 { fchmod(fd, 0o600) }
        } else {
            var template = Array(((NSTemporaryDirectory() as NSString).appendingPathComponent("live-repl-inspector-XXXXXX")).utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            file = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        guard fd >= 0, let file else {
            let reason = String(cString: strerror(errno))
            FileHandle.standardError.write(Data("live-repl: inspector at \(page) (its address cannot be written to \(file ?? "a file"): \(reason))\n".utf8))
            return
        }
        let text = Array((web.address + "\n").utf8)
        _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        FileHandle.standardError.write(Data("live-repl: inspector at \(page) (its address, with the token, is in \(file))\n".utf8))
    }
}
