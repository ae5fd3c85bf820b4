// ServerStartBenchmark.swift — what LiveServer's start costs beside the C
// core's validating scan of the same text, in this process.

import LiveModel
import LiveServer

enum ServerStartBenchmark {
    struct Figures {
        /// The core's validating scan alone (`lc_doc_check`), seconds.
        var checkSeconds: Double
        /// The server's whole read of the text into its store (the same
        /// scan, then its walk of what the scan found), seconds.
        var readSeconds: Double
        var bytes: Int
    }

    /// A data file's text `{"items": {…}}` of `children` generated children,
    /// padded as the server reads it, checked and read `repeats` times each,
    /// alternately; medians.
    static func run(children: Int, repeats: Int) throws -> Figures {
        var text = Array(#"{"items":"#.utf8)
        text += Generator.snapshot(count: children, seed: 7)
        text.append(UInt8(ascii: "}"))
        let length = text.count
        text += repeatElement(0, count: Snapshot.checkPadding)
        var checks: [Double] = [], reads: [Double] = []
        for _ in 0..<repeats {
            checks.append(try Timing.seconds {
                try text.withUnsafeBufferPointer { try Snapshot.check(json: $0, length: length, order: .key) }
            })
            var node: DataNode?
            reads.append(try Timing.seconds { node = try DataNode.reading(snapshot: text, length: length) })
            // Freed outside the timing, as a server keeps it.
            withExtendedLifetime(node) {}
            node = nil
        }
        return Figures(checkSeconds: Timing.median(checks), readSeconds: Timing.median(reads), bytes: length)
    }
}
