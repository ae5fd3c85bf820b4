// RESTLogCapture.swift — a log handler that keeps every message, to check
// what the REST client logs.

import Foundation
import Logging

/// Keeps the messages logged through the loggers it makes.
final class RESTLogCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    var messages: [String] { lock.withLock { lines } }

    /// A logger at debug level whose messages (with their metadata) land here.
    func logger() -> Logger {
        var logger = Logger(label: "LiveFirebase.rest") { _ in Handler(capture: self) }
        logger.logLevel = .debug
        return logger
    }

    fileprivate func record(_ line: String) { lock.withLock { lines.append(line) } }

    private struct Handler: LogHandler {
        let capture: RESTLogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.record("\(event.level) \(event.message) \(all)")
        }
    }
}
