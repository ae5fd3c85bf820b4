// SoakMain.swift — `live-soak`: millions of random seeded events through a
// sectioned Firebase collection, every batch checked.

import ArgumentParser
import Foundation

@main
struct SoakMain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live-soak",
        abstract: "Random seeded events through an offline, sectioned Firebase collection, every batch checked.",
        discussion: """
            Each event (a put or patch of children, a removal, a deep change, now and then a whole new value) is \
            injected into a FirebaseCollection ordered by a child and sectioned by another. After every change, each \
            stage a list view gets must pass UIKit's batch rules, applied to a mirror that must then equal what the \
            collection shows; every --check-every events the collection is compared with a brute-force model of the \
            data. Resident memory is sampled; it must stay flat once the collection is at its steady size.
            """)

    @Option(help: "Events to inject.")
    var events = 10_000_000

    @Option(help: "The seed of the random events.")
    var seed: UInt64 = 1

    @Option(help: "Distinct keys; the collection settles near half of them.")
    var keys = 200

    @Option(help: "Compare with the brute-force model every N events.")
    var checkEvery = 1_000

    @Option(help: "Fail if resident memory at the end exceeds the steady level by more than this many MB.")
    var maxGrowthMB = 64.0

    func run() async throws {
        let report = try await SoakRun(events: events, seed: seed, keys: keys, checkEvery: checkEvery).run()
        print(report.summary)
        if report.growthMB > maxGrowthMB {
            throw ValidationError(String(format: "memory grew %.1f MB after the steady state (limit %.1f MB)",
                                         report.growthMB, maxGrowthMB))
        }
    }
}
