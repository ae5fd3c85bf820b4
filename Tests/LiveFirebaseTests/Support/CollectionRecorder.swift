// CollectionRecorder.swift — records what a sorted collection tells its observers.

import LiveCollection
import LiveModel

/// Records every notification of a ``SortedCollection`` as text.
@MainActor
final class CollectionRecorder: SortedCollectionObserver {
    typealias Model = RawChild
    var log: [String] = []
    var batches: [CollectionBatch] = []

    func collection(_ collection: SortedCollection<RawChild>, didChange change: SequentialChange<RawChild>) {
        switch change {
        case .inserted(let m, let at): log.append("insert \(m.identifier)@\(at)")
        case .removed(let m, let at): log.append("remove \(m.identifier)@\(at)")
        case .updated(let m, let at): log.append("update \(m.identifier)@\(at)")
        case .moved(let m, let from, let to): log.append("move \(m.identifier) \(from)->\(to)")
        }
    }

    func collection(_ collection: SortedCollection<RawChild>, didApply update: CollectionUpdate<RawChild>) {
        batches.append(update.batch)
        log.append("batch \(update.batch)")
    }

    func collectionDidStartLoad(_ collection: SortedCollection<RawChild>) { log.append("start") }
    func collectionDidEndLoad(_ collection: SortedCollection<RawChild>) { log.append("end") }
}
