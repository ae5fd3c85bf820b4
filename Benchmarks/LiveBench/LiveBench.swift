// LiveBench.swift — the benchmark command: our figures beside baselines
// measured in the same run, with ratios.
import ArgumentParser
import Foundation

@main
struct LiveBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live-bench",
        abstract: "Large-collection benchmarks of LiveCollection, each beside a baseline run in the same process.",
        discussion: """
        Figures are medians of --repeats runs. Absolute times on shared machines are noisy: \
        read the ratios against the baselines, which run in the same process on the same data.
        """)

    enum Part: String, ExpressibleByArgument, CaseIterable {
        case load, events, collection, sections, server, firebase, json, cache, client, query
        /// Only the server's write latency with limited query listeners (part of `server`).
        case serverWindow = "server-window"
        /// Only the server's read of a data file, beside the core's scan of it.
        case serverStart = "server-start"
    }

    @Option(help: "Children in the initial-load snapshot.")
    var children = 1_000_000

    @Option(help: "Events per size in the mixed-event benchmark.")
    var events = 1_000_000

    @Option(parsing: .upToNextOption, help: "Collection sizes for the mixed-event benchmark.")
    var sizes: [Int] = [10_000, 100_000, 1_000_000]

    @Option(help: "Runs per figure; the median is reported.")
    var repeats = 3

    @Option(parsing: .upToNextOption, help: "Which parts to run (load, events, collection, sections, server, firebase, json, cache, client, query; server-window runs only the server's figure with limited query listeners; server-start only its read of a data file beside the core's scan of it).")
    var only: [Part] = Part.allCases

    @Flag(help: "Skip the Foundation JSONSerialization baseline (about 10 s at 1M children).")
    var skipFoundation = false

    @Flag(help: "A small smoke run: 20,000 children, sizes 1,000 and 20,000, 100,000 events, one repeat.")
    var quick = false

    @MainActor
    mutating func run() async throws {
        if quick {
            children = 20_000
            sizes = [1_000, 20_000]
            events = 100_000
            repeats = 1
        }
        guard children > 0, events > 0, repeats > 0, sizes.allSatisfy({ $0 > 0 }) else {
            throw ValidationError("--children, --events, --repeats and --sizes must be positive.")
        }
        print("LiveBench: \(ProcessInfo.processInfo.activeProcessorCount) cores, median of \(repeats)")
        if only.contains(.load) { runLoad() }
        if only.contains(.events) { runEvents() }
        if only.contains(.collection) { await runCollection() }
        if only.contains(.sections) { runSections() }
        if only.contains(.server) {
            try await runServer()
        } else if only.contains(.serverWindow) {
            try await runServerWindow()
        }
        if only.contains(.serverStart) { try runServerStart() }
        if only.contains(.firebase) { try await runFirebase() }
        if only.contains(.json) { try runJSON() }
        if only.contains(.cache) { try await runCache() }
        if only.contains(.client) { try await runClient() }
        if only.contains(.query) { try await runQuery() }
    }

    @MainActor
    private func runClient() async throws {
        var r = Report(title: "The client path without a server: stream texts parsed and applied, 100 sections observed (mode all, orderByChild)")
        for children in quick ? [20_000] : clientSizes {
            var runs: [ClientPathBenchmark.Figures] = []
            let changes = quick ? 2_000 : clientChanges
            for _ in 0..<repeats {
                runs.append(try await ClientPathBenchmark.run(children: children, changes: changes, recording: true))
            }
            let parses = Timing.median(runs.map(\.parsesPerSecond))
            r.add("single changes per second, \(children) children", Timing.median(runs.map(\.singlesPerSecond)), unit: "/s",
                  against: ("their texts parsed alone", parses))
            r.add("  children per second in patches of \(ClientPathBenchmark.patchSize)",
                  Timing.median(runs.map(\.patchedPerSecond)), unit: "/s")
            r.add("  single changes three levels down (/k/m/x) per second",
                  Timing.median(runs.map(\.deepPerSecond)), unit: "/s")
            let pairs = runs.compactMap(\.recorded)
            r.add("  recorded (FlightRecorder, 1 MiB, redacted), chunks of \(ClientPathBenchmark.chunk) alternated: single changes",
                  Timing.median(pairs.map(\.singles)), unit: "/s",
                  against: ("the chunks between, unrecorded", Timing.median(pairs.map(\.unrecorded))), target: ">= 0.9x")
            r.add("  record(into:) on the loaded collection (on the main actor)",
                  Timing.median(pairs.map(\.attach)) * 1e3, unit: "ms")
            r.add("  jsonLines() after the changes (every child redacted, then the ring)",
                  Timing.median(pairs.map(\.export)) * 1e3, unit: "ms")
            r.add("  save(to:) then: the whole save", Timing.median(pairs.map(\.save)) * 1e3, unit: "ms")
            r.add("  save(to:): the longest main-actor stall", Timing.median(pairs.map(\.saveStall)) * 1e3, unit: "ms")
        }
        r.print()
    }

    @MainActor
    private func runQuery() async throws {
        var r = Report(title: "A new query and the next page over a loaded collection with 100 sections (server in this process, orderByChild)")
        for children in quick ? [20_000] : querySizes {
            var runs: [QueryChangeBenchmark.Figures] = []
            for _ in 0..<repeats { runs.append(try await QueryChangeBenchmark.run(children: children)) }
            r.add("setQuery to the same \(children) children: until it returns", Timing.median(runs.map(\.sameSeconds)) * 1e3,
                  unit: "ms")
            r.add("  its longest main-actor stall", Timing.median(runs.map(\.sameStall)) * 1e3, unit: "ms",
                  target: "<= 16 ms")
            r.add("setQuery to their first half", Timing.median(runs.map(\.halfSeconds)) * 1e3, unit: "ms")
            r.add("  its longest main-actor stall", Timing.median(runs.map(\.halfStall)) * 1e3, unit: "ms")
            r.add("setQuery by key up to k<n/2-1> (reordered)", Timing.median(runs.map(\.reorderSeconds)) * 1e3,
                  unit: "ms")
            r.add("  its longest main-actor stall", Timing.median(runs.map(\.reorderStall)) * 1e3, unit: "ms")
            r.add("loadNextPage from half of them to all", Timing.median(runs.map(\.pageSeconds)) * 1e3, unit: "ms")
            r.add("  its longest main-actor stall", Timing.median(runs.map(\.pageStall)) * 1e3, unit: "ms")
        }
        r.print()
    }

    @MainActor
    private func runCache() async throws {
        var r = Report(title: "Cache-first start: start() to the first batch, from the disk cache and from the server (mode all, orderByChild)")
        for children in quick ? [20_000] : cacheSizes {
            var runs: [CacheBenchmark.Figures] = []
            for _ in 0..<repeats { runs.append(try await CacheBenchmark.run(children: children)) }
            let cache = Timing.median(runs.map(\.cacheSeconds)), network = Timing.median(runs.map(\.networkSeconds))
            r.add("first batch from the cache, \(children) children", cache * 1e3, unit: "ms",
                  against: ("from the server over loopback", network * 1e3))
            r.add("  then the server's value applied (nothing changed)", Timing.median(runs.map(\.confirmSeconds)) * 1e3,
                  unit: "ms")
            r.add("  its longest main-actor stall", Timing.median(runs.map(\.confirmStallSeconds)) * 1e3, unit: "ms")
            r.add("  saveCache(), \(Timing.median(runs.map { Double($0.fileBytes) }) / 1e6) MB file",
                  Timing.median(runs.map(\.saveSeconds)) * 1e3, unit: "ms")
            r.add("  saveCache() after 100 children changed, \(Timing.median(runs.map(\.bytesPerChangedChild))) bytes each",
                  Timing.median(runs.map(\.changedSaveSeconds)) * 1e3, unit: "ms")
            r.add("2nd collection, key order, from a shared cache, \(children)",
                  Timing.median(runs.map(\.sharedSeconds)) * 1e3, unit: "ms",
                  against: ("the first from the server over loopback", network * 1e3))
            r.add("  its longest main-actor stall until live", Timing.median(runs.map(\.sharedStallSeconds)) * 1e3,
                  unit: "ms")
        }
        r.print()
    }

    @MainActor
    private func runFirebase() async throws {
        let writes = quick ? 2_000 : 20_000
        var r = Report(title: "LiveFirebase end to end on loopback: write at the server -> collection observer (orderByChild)")
        for children in quick ? [1_000, 20_000] : firebaseSizes {
            var runs: [FirebaseBenchmark.Figures] = []
            for _ in 0..<repeats {
                runs.append(try await FirebaseBenchmark.run(children: children, writes: writes, pacedWrites: 500))
            }
            let load = Timing.median(runs.map(\.loadSeconds)), fetch = Timing.median(runs.map(\.fetchSeconds))
            r.add("initial load of \(children) children (mode all)", load * 1e3, unit: "ms",
                  against: ("plain GET of the same bytes", fetch * 1e3))
            r.add("events per second, \(children) children", Timing.median(runs.map(\.eventsPerSecond)), unit: "ev/s")
            r.add("write-to-callback latency median, \(children) children", Timing.median(runs.map(\.medianLatency)) * 1e3, unit: "ms")
            r.add("write-to-callback latency p99, \(children) children", Timing.median(runs.map(\.p99Latency)) * 1e3, unit: "ms",
                  target: "<= 1 ms")
            r.add("grouped changes/s (patches of \(FirebaseBenchmark.patchSize)), \(children) children",
                  Timing.median(runs.map(\.changesPerSecond)), unit: "ch/s", target: ">= 100000")
            r.add("  longest main-actor stall: initial load", Timing.median(runs.map(\.loadStall)) * 1e3, unit: "ms",
                  target: "<= 16 ms")
            r.add("  longest main-actor stall: initial load, 100 sections",
                  Timing.median(runs.map(\.sectionedLoadStall)) * 1e3, unit: "ms", target: "<= 16 ms")
            r.add("  longest main-actor stall: initial load in mode live (one by one), 100 sections",
                  Timing.median(runs.map(\.liveLoadStall)) * 1e3, unit: "ms", target: "<= 16 ms")
            r.add("  main actor: releasing it with 100 sections",
                  Timing.median(runs.map(\.releaseSeconds)) * 1e3, unit: "ms", target: "<= 16 ms")
            r.add("  longest main-actor stall: pipelined writes", Timing.median(runs.map(\.eventsStall)) * 1e3,
                  unit: "ms", target: "<= 16 ms")
            r.add("  longest main-actor stall: pipelined patches", Timing.median(runs.map(\.patchStall)) * 1e3,
                  unit: "ms", target: "<= 16 ms")
        }
        r.print()
    }

    @Option(parsing: .upToNextOption, help: "Children at the location in the LiveFirebase end-to-end benchmark.")
    var firebaseSizes: [Int] = [1_000, 100_000]

    @Option(help: "Single changes in the client-path benchmark (and as many children in patches).")
    var clientChanges = 20_000

    @Option(parsing: .upToNextOption, help: "Children in the client-path benchmark.")
    var clientSizes: [Int] = [100_000, 1_000_000]

    @Option(parsing: .upToNextOption, help: "Children at the location in the cache-first start benchmark.")
    var cacheSizes: [Int] = [100_000, 1_000_000]

    @Option(parsing: .upToNextOption, help: "Children in the new-query and next-page benchmark.")
    var querySizes: [Int] = [100_000, 1_000_000]

    @Option(help: "Writes per listener count in the server benchmark.")
    var serverWrites = 100_000

    private func runServer() async throws {
        let writes = quick ? 10_000 : serverWrites
        var r = Report(title: "LiveServer on loopback: \(writes) small PUTs over 4 keep-alive connections (16 in flight each)")
        var baseline = 0.0
        for listeners in [0, 10, 100] {
            // Throughput: writers flat out. Latency: one write at a time, so
            // it measures the server's delay, not a queue the load built up.
            var rates: [Double] = []
            var paced: [ServerBenchmark.Figures] = []
            for _ in 0..<repeats {
                rates.append(try await ServerBenchmark.run(writes: writes, listeners: listeners).writesPerSecond)
                if listeners > 0 {
                    paced.append(try await ServerBenchmark.run(writes: 2_000, listeners: listeners, connections: 1, depth: 1))
                }
            }
            let rate = Timing.median(rates)
            if listeners == 0 { baseline = rate }
            r.add("writes per second, \(listeners) listeners", rate, unit: "w/s",
                  against: listeners == 0 ? nil : ("no listeners", baseline), target: listeners == 10 ? ">= 20000" : "")
            if listeners > 0 {
                let seen = paced.map(\.eventsSeen).min() ?? 0
                r.add("  write-to-event latency, one write at a time: median", Timing.median(paced.map(\.medianLatency)) * 1e3,
                      unit: "ms")
                r.add("  write-to-event latency: p99 (\(seen) events)", Timing.median(paced.map(\.p99Latency)) * 1e3,
                      unit: "ms", target: "< 5 ms")
            }
        }
        // 100 streams at 100 locations: each write concerns one of them.
        var spreadRates: [Double] = []
        var spreadPaced: [ServerBenchmark.Figures] = []
        for _ in 0..<repeats {
            spreadRates.append(try await ServerBenchmark.run(writes: writes, listeners: 100, spread: true).writesPerSecond)
            spreadPaced.append(try await ServerBenchmark.run(writes: 2_000, listeners: 100, connections: 1, depth: 1,
                                                             spread: true))
        }
        r.add("writes per second, 100 listeners at 100 locations (a write concerns one)", Timing.median(spreadRates),
              unit: "w/s", against: ("no listeners", baseline))
        r.add("  write-to-event latency: p99", Timing.median(spreadPaced.map(\.p99Latency)) * 1e3, unit: "ms",
              target: "<= 5 ms")
        r.print()
        try await runServerWindow()
    }

    /// The server's read of a data file of `children` children into its
    /// store (its start, less reading the file), beside the C core's
    /// validating scan of the same text.
    private func runServerStart() throws {
        var r = Report(title: "LiveServer's read of a data file into its store, in this process")
        let f = try ServerStartBenchmark.run(children: children, repeats: repeats)
        r.add("\(children) children (\(f.bytes / 1_000_000) MB): the server's read", f.readSeconds, unit: "s",
              against: ("the core's validating scan alone", f.checkSeconds))
        r.print()
    }

    @Option(help: "Writes per run in the server's figure with limited query listeners.")
    var windowWrites = 400

    /// Write latency on a large location, without listeners, with 10
    /// `orderBy="score"&limitToLast=10` listeners, and with 100 listeners
    /// over 10 distinct limits.
    private func runServerWindow() async throws {
        let children = quick ? 20_000 : 100_000
        var r = Report(title: "LiveServer write latency at \(children) children, one write at a time (\(windowWrites) PUTs of a score)")
        var none: [Double] = [], ten: [Double] = [], hundred: [Double] = []
        for _ in 0..<repeats {
            none.append(try await ServerBenchmark.windowWriteLatency(children: children, listeners: 0, writes: windowWrites))
            ten.append(try await ServerBenchmark.windowWriteLatency(children: children, listeners: 10, writes: windowWrites))
            hundred.append(try await ServerBenchmark.windowWriteLatency(children: children, listeners: 100, distinct: 10,
                                                                         writes: windowWrites))
        }
        let baseline = Timing.median(none) * 1e3
        r.add("write latency median, no listeners", baseline, unit: "ms")
        r.add("write latency median, 10 listeners score limitToLast=10", Timing.median(ten) * 1e3, unit: "ms",
              against: ("no listeners", baseline), target: "<= 2x")
        r.add("write latency median, 100 listeners over 10 distinct limits", Timing.median(hundred) * 1e3, unit: "ms",
              against: ("no listeners", baseline), target: "<= 2x")
        r.print()
        try await runListenerOpen(children: children)
    }

    /// Opening 100 identical limited query streams, one after the other:
    /// the first reads the location; the others join its window.
    private func runListenerOpen(children: Int) async throws {
        var r = Report(title: "LiveServer: 100 streams opened one after the other on orderBy=\"score\"&limitToLast=10 at \(children) children")
        var first: [ServerBenchmark.OpenFigures] = []
        for _ in 0..<repeats { first.append(try await ServerBenchmark.openLimitedStreams(children: children, streams: 100)) }
        let firstCPU = Timing.median(first.map { $0.cpu[0] }) * 1e3
        r.add("the first stream: process CPU (server and reader)", firstCPU, unit: "ms")
        r.add("  time to its first put", Timing.median(first.map { $0.wall[0] }) * 1e3, unit: "ms")
        let late = first.map { Timing.median(Array($0.cpu[90...])) }
        r.add("streams 91-100, each: process CPU (median)", Timing.median(late) * 1e3, unit: "ms",
              against: ("the first", firstCPU), target: "<= 1 ms")
        r.add("  time to its first put (median)", Timing.median(first.map { Timing.median(Array($0.wall[90...])) }) * 1e3,
              unit: "ms")
        r.print()
    }

    private func runSections() {
        var r = Report(title: "Sectioned diff: 10% each of deletes, inserts, moves (across sections) and updates")
        let small = SectionsBenchmark.makeCase(rows: 10_000, sections: 10, seed: 11)
        let (baseSeconds, baseMoves) = SectionsBenchmark.collectionDifference(small)
        let oursSmall = SectionsBenchmark.ours(small, repeats: repeats)
        r.add("CollectionDifference + inferringMoves, 10,000 rows (\(baseMoves) moves)", baseSeconds * 1e3, unit: "ms")
        r.add("SectionedDiff, 10,000 rows in 10 sections (\(oursSmall.moves) moves)", oursSmall.seconds * 1e3,
              unit: "ms", against: ("CollectionDifference", baseSeconds * 1e3))
        let large = SectionsBenchmark.makeCase(rows: 100_000, sections: 100, seed: 12)
        let oursLarge = SectionsBenchmark.ours(large, repeats: max(repeats, 5))
        r.add("SectionedDiff, 100,000 rows in 100 sections, \(oursLarge.stages) stages", oursLarge.seconds * 1e3,
              unit: "ms", target: "<= 25 ms")
        r.add("  row moves reported", Double(oursLarge.moves), unit: "moves", target: "<= 10,000")
        r.print()
    }

    @MainActor
    private func runCollection() async {
        var r = Report(title: "Sorted collection (Swift layer, Firebase order, one observer), same mixed events")
        for size in sizes {
            let stream = EventStream(size: size, events: events, seed: 7)
            let core = Timing.medianOf(repeats) { EventsBenchmark.index(stream) }
            let swift = Timing.medianOf(repeats) { CollectionBenchmark.events(stream) }
            r.add("C index alone, \(size) models", core * 1e6, unit: "us/ev")
            r.add("SortedCollection, \(size) models", swift * 1e6, unit: "us/ev", against: ("C index", core * 1e6),
                  target: "<= 3x")
            r.add("SortedCollection, \(size) models: events per second", 1 / swift, unit: "ev/s",
                  target: size >= 1_000_000 ? ">= 300000" : "")
            let sectioned = Timing.medianOf(repeats) { CollectionBenchmark.sectionedEvents(stream) }
            r.add("  + SectionedCollection, 100 sections, stage output", sectioned * 1e6, unit: "us/ev",
                  against: ("unsectioned", swift * 1e6), target: "<= 1.5x")
            r.add("  + SectionedCollection: events per second", 1 / sectioned, unit: "ev/s")
            let grouped = Timing.medianOf(repeats) {
                CollectionBenchmark.sectionedGroupedChange(stream, groupSize: 1_000, groups: 10)
            }
            r.add("  + SectionedCollection: grouped change of 1,000 children",
                  grouped * 1e3, unit: "ms/group")
        }
        let bytes = Generator.snapshot(count: children, seed: 42)
        var loads: [Double] = []
        var count = 0
        for _ in 0..<max(1, repeats) {
            let (seconds, n) = await CollectionBenchmark.load(bytes)
            loads.append(seconds)
            count = n
        }
        let core = LoadBenchmark.ours(bytes)
        r.add("core initial load (parse + build index), \(core.count) children", core.parse + core.build, unit: "s")
        r.add("collection load through a data source, one batch, \(count) models", Timing.median(loads), unit: "s",
              against: ("core load", core.parse + core.build))
        r.print()
    }

    private func runLoad() {
        let f = LoadBenchmark.run(children: children, repeats: repeats, foundation: !skipFoundation)
        var r = Report(title: "Initial load: \(f.children) children, orderByChild(\"score\")")
        r.add("jansson json_loadb (whole tree)", f.janssonLoad, unit: "s")
        r.add("  LiveCollection parse (validate, find children)", f.oursParse, unit: "s",
              against: ("jansson load", f.janssonLoad))
        r.add("  LiveCollection build index (bulk sort)", f.oursBuild, unit: "s",
              against: ("jansson load", f.janssonLoad))
        r.add("LiveCollection parse + build index", f.oursLoad, unit: "s",
              against: ("jansson load", f.janssonLoad), target: "<= 0.5x")
        if !skipFoundation {
            r.add("Foundation JSONSerialization + Swift sort", f.foundationLoadAndSort, unit: "s",
                  against: ("jansson load", f.janssonLoad))
            r.add("LiveCollection vs Foundation", f.oursLoad, unit: "s",
                  against: ("Foundation", f.foundationLoadAndSort))
        }
        r.add("jansson json_decref (whole tree)", f.janssonFree, unit: "s")
        r.add("LiveCollection free (index + document)", f.oursFree, unit: "s",
              against: ("jansson decref", f.janssonFree), target: "< 0.1 s")
        r.add("index overhead per child (beyond key and value bytes)", f.overheadPerChild, unit: "B",
              target: "<= 64")
        r.print()
    }

    private func runEvents() {
        var r = Report(title: "Mixed events: 40% change of sort value, 30% add, 30% remove; old and new index each")
        var perSize: [(size: Int, single: Double, batched: Double)] = []
        for size in sizes {
            let stream = EventStream(size: size, events: events, seed: 7)
            let ours = Timing.medianOf(repeats) { EventsBenchmark.index(stream) }
            let batched = Timing.medianOf(repeats) { EventsBenchmark.indexBatched(stream) }
            // A sorted array costs O(n) per event: fewer events at large sizes.
            let baselineEvents = min(events, max(1_000, 2_000_000_000 / size))
            let base = Timing.medianOf(repeats) { EventsBenchmark.sortedArray(stream, events: baselineEvents) }
            perSize.append((size, ours, batched))
            r.add("sorted Swift array, \(size) children (\(baselineEvents) events)", base * 1e6, unit: "us/ev")
            r.add("C index, \(size) children, one call per event", ours * 1e6, unit: "us/ev",
                  against: ("sorted array", base * 1e6), target: size >= 1_000_000 ? "<= 0.5 us" : "")
            r.add("C index, \(size) children, one batch (lc_index_apply)", batched * 1e6, unit: "us/ev",
                  against: ("sorted array", base * 1e6), target: size >= 1_000_000 ? "<= 0.5 us" : "")
        }
        if let small = perSize.first, let large = perSize.last, large.size > small.size {
            r.add("C index cost at \(large.size) / at \(small.size), one call per event", large.single / small.single,
                  unit: "x", target: "<= 2")
            r.add("C index cost at \(large.size) / at \(small.size), one batch", large.batched / small.batched,
                  unit: "x", target: "<= 2")
        }
        // Finding a key's entry and its leaf at a million children takes
        // dependent loads from memory: this is what one costs here.
        let latency = Timing.medianOf(repeats) { MemoryLatency.dependentLoadNanoseconds() }
        r.add("one dependent random load (pointer chase over 128 MB)", latency / 1e3, unit: "us")
        r.print()
    }
}
