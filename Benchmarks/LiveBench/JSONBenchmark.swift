// JSONBenchmark.swift — JSONValue objects on their hot paths (parsing a
// snapshot, member lookups, building, the server's rendering), beside a
// Swift Dictionary keyed by String holding the same members.
import LiveModel
import LiveServer

enum JSONBenchmark {
    struct Figures {
        var parse = 0.0, jansson = 0.0
        var objectLookup = 0.0, dictionaryLookup = 0.0
        var objectBuild = 0.0, dictionaryBuild = 0.0
        var render = 0.0
        var members = 0
    }

    static func run(children: Int, repeats: Int) throws -> Figures {
        let bytes = Generator.snapshot(count: children, seed: 42)
        let value = try JSONValue(parsingUTF8: bytes)
        guard case .object(let parsed) = value else { preconditionFailure("the snapshot is an object") }
        let members = parsed.map { ($0.key, $0.value) }
        var random = SplitMix64(seed: 9)
        // Lookups name members with strings of their own, as names parsed
        // from a request or built by a caller are.
        var names = members.map { String(decoding: Array($0.0.utf8), as: UTF8.self) }
        names.shuffle(using: &random)
        // The object and the baseline are built alike, each with its own
        // copies of the names, so their memory is laid out alike.
        let copies = { members.map { (String(decoding: Array($0.0.utf8), as: UTF8.self), $0.1) } }
        let dictionary = Dictionary(uniqueKeysWithValues: copies())
        let object = JSONObject(uniqueKeysWithValues: copies())
        let node = try DataNode(json: value)
        var f = Figures()
        f.members = members.count
        f.parse = try Timing.medianOf(repeats) { try Timing.seconds { _ = try JSONValue(parsingUTF8: bytes) } }
        f.jansson = Timing.median((0..<max(1, repeats)).map { _ in LoadBenchmark.jansson(bytes).0 })
        f.objectBuild = Timing.medianOf(repeats) {
            Timing.seconds {
                var built = JSONObject()
                for (name, member) in members { built[name] = member }
                precondition(built.count == members.count)
            }
        }
        f.dictionaryBuild = Timing.medianOf(repeats) {
            Timing.seconds {
                var built: [String: JSONValue] = [:]
                for (name, member) in members { built[name] = member }
                precondition(built.count == members.count)
            }
        }
        // Alternate the two, each first every other time, so neither gains
        // from caches the other warmed.
        var objectLookups: [Double] = [], dictionaryLookups: [Double] = []
        for run in 0..<max(1, repeats) {
            let lookUpObject = {
                objectLookups.append(Timing.seconds {
                    var found = 0
                    for name in names where object[name] != nil { found += 1 }
                    precondition(found == names.count)
                })
            }
            let lookUpDictionary = {
                dictionaryLookups.append(Timing.seconds {
                    var found = 0
                    for name in names where dictionary[name] != nil { found += 1 }
                    precondition(found == names.count)
                })
            }
            if run % 2 == 0 { lookUpObject(); lookUpDictionary() } else { lookUpDictionary(); lookUpObject() }
        }
        f.objectLookup = Timing.median(objectLookups) / Double(names.count)
        f.dictionaryLookup = Timing.median(dictionaryLookups) / Double(names.count)
        f.render = Timing.medianOf(repeats) { Timing.seconds { precondition(!node.json().jsonBytes().isEmpty) } }
        return f
    }
}

extension LiveBench {
    func runJSON() throws {
        let f = try JSONBenchmark.run(children: children, repeats: repeats)
        var r = Report(title: "JSONValue objects (member names by exact code units): \(f.members) children")
        r.add("JSONValue(parsingUTF8:) of the snapshot", f.parse, unit: "s", against: ("jansson load alone", f.jansson))
        r.add("JSONObject member lookup, shuffled names (own strings)", f.objectLookup * 1e9, unit: "ns",
              against: ("[String: JSONValue]", f.dictionaryLookup * 1e9), target: "<= 1x")
        r.add("JSONObject built member by member", f.objectBuild, unit: "s",
              against: ("[String: JSONValue]", f.dictionaryBuild), target: "<= 1x")
        r.add("server rendering: DataNode.json().jsonBytes()", f.render, unit: "s")
        r.print()
    }
}
