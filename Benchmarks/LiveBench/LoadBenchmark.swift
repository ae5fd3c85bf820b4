// LoadBenchmark.swift — initial load of a large snapshot: ours against jansson
// and Foundation in the same run.
import CJansson
import CLiveCore
import Foundation

struct LoadFigures {
    var oursParse = 0.0, oursBuild = 0.0, oursLoad = 0.0, oursFree = 0.0
    var janssonLoad = 0.0, janssonFree = 0.0
    var foundationLoadAndSort = 0.0
    var overheadPerChild = 0.0
    var children = 0
}

enum LoadBenchmark {
    struct Ours { var parse, build, free, overhead: Double; var count: Int }

    /// Parses `bytes` ordered by child "score" and builds the index.
    static func ours(_ bytes: [UInt8]) -> Ours {
        var doc: OpaquePointer?
        var index: OpaquePointer?
        let parse = Timing.seconds {
            "score".withCString { path in
                var options = lc_parse_options()
                options.order = lc_order(kind: LC_ORDER_CHILD, child_path: path, child_path_len: 5)
                var error = lc_error()
                let status = bytes.withUnsafeBufferPointer { buf in
                    buf.withMemoryRebound(to: CChar.self) { lc_doc_parse($0.baseAddress, $0.count, &options, &doc, &error) }
                }
                precondition(status == LC_OK, "parse failed: \(error.text)")
            }
        }
        let build = Timing.seconds {
            index = lc_index_new()
            precondition(lc_index_build_from_doc(index, doc) == LC_OK, "build failed")
        }
        var total = 0, payload = 0
        lc_index_memory(index, &total, &payload)
        let count = lc_index_count(index)
        let overhead = Double(total - payload) / Double(max(count, 1))
        let free = Timing.seconds {
            lc_index_free(index)
            lc_doc_free(doc)
        }
        return Ours(parse: parse, build: build, free: free, overhead: overhead, count: count)
    }

    /// jansson's json_loadb of the whole snapshot, and its json_decref.
    static func jansson(_ bytes: [UInt8]) -> (Double, Double) {
        var root: UnsafeMutablePointer<json_t>?
        let load = Timing.seconds {
            var error = json_error_t()
            root = bytes.withUnsafeBufferPointer { buf in
                buf.withMemoryRebound(to: CChar.self) { json_loadb($0.baseAddress, $0.count, 0, &error) }
            }
        }
        precondition(root != nil, "jansson failed")
        let free = Timing.seconds { json_decref(root) }
        return (load, free)
    }

    /// Foundation's JSONSerialization, then a Swift sort by (score, key).
    static func foundation(_ bytes: [UInt8]) -> Double {
        Timing.seconds {
            let data = Data(bytes)
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                preconditionFailure("JSONSerialization failed")
            }
            var rows: [(Double, String)] = []
            rows.reserveCapacity(object.count)
            for (key, value) in object {
                let score = ((value as? [String: Any])?["score"] as? NSNumber)?.doubleValue ?? -.infinity
                rows.append((score, key))
            }
            // Push ids are not integer keys: UTF-8 byte order is their Firebase order.
            rows.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1.utf8.lexicographicallyPrecedes($1.1.utf8) }
            precondition(rows.count == object.count)
        }
    }

    static func run(children: Int, repeats: Int, foundation includeFoundation: Bool) -> LoadFigures {
        let bytes = Generator.snapshot(count: children, seed: 42)
        print(String(format: "snapshot: %d children, %.1f MB", children, Double(bytes.count) / 1e6))
        var f = LoadFigures()
        var ours: [Ours] = []
        var jans: [(Double, Double)] = []
        for _ in 0..<max(1, repeats) {
            ours.append(self.ours(bytes))
            jans.append(self.jansson(bytes))
        }
        f.oursParse = Timing.median(ours.map(\.parse))
        f.oursBuild = Timing.median(ours.map(\.build))
        f.oursLoad = Timing.median(ours.map { $0.parse + $0.build })
        f.oursFree = Timing.median(ours.map(\.free))
        f.overheadPerChild = ours[0].overhead
        f.children = ours[0].count
        f.janssonLoad = Timing.median(jans.map(\.0))
        f.janssonFree = Timing.median(jans.map(\.1))
        if includeFoundation { f.foundationLoadAndSort = foundation(bytes) }
        return f
    }
}
