// SectionedCollection+Deferred.swift — changes of the collection made while
// these sections are telling their observers of another: held, then applied
// as one grouped change once that one is told.
import LiveCollection
import LiveModel

/// The keys of the collection's changes that arrived while a change was
/// being told, with each key's model as shown before the first of them.
@usableFromInline
struct DeferredChanges<Model> {
    /// The touched keys, in the order they were first touched.
    @usableFromInline private(set) var keys: [Key] = []
    /// Each touched key's model as shown (nil: not shown), and whether its
    /// content may be new.
    @usableFromInline private(set) var touched: [Key: (before: Model?, changed: Bool)] = [:]
    /// Whether one of them filled the collection from empty.
    @usableFromInline var fill = false

    @inlinable init() {}

    @inlinable var isEmpty: Bool { keys.isEmpty && !fill }

    /// Notes that `key` is about to change and was shown as `before`; the
    /// first note of a key is kept.
    @inlinable
    mutating func note(_ key: Key, before: Model?) {
        guard touched[key] == nil else { return }
        keys.append(key)
        touched[key] = (before, false)
    }

    /// Records a change of `key` (`changed`: added or replaced).
    mutating func record(_ key: Key, before: Model?, changed: Bool) {
        if let seen = touched[key] {
            touched[key] = (seen.before, seen.changed || changed)
        } else {
            keys.append(key)
            touched[key] = (before, changed)
        }
    }

    /// The model shown for `key` before these changes, if it was shown.
    func model(shownFor key: Key) -> Model? { touched[key]?.before ?? nil }
}

extension SectionedCollection {
    /// Whether observers are being told a change: the collection's changes
    /// are then held until it is told (``deferred``).
    @inlinable var isTelling: Bool { tellingDepth > 0 }

    /// Marks the start of telling observers a change.
    @inlinable
    func beginTelling() { tellingDepth += 1 }

    /// Marks the end of telling a change; once nothing is told any more,
    /// applies what changed meanwhile.
    @inlinable
    func endTelling() {
        tellingDepth -= 1
        if tellingDepth == 0 && !deferred.isEmpty { applyDeferred() }
    }

    /// Applies the changes held while observers were told, until none is
    /// held or a change is being told again (each applied change is told,
    /// and its observers may change the collection once more).
    @usableFromInline
    func applyDeferred() {
        while !isTelling, !deferred.isEmpty {
            let held = deferred
            deferred = DeferredChanges()
            if held.fill {
                // Everything is shown again from the collection; rows shown
                // until then keep the models they were shown with.
                var before = notedModels()
                for (key, t) in held.touched { if let model = t.before { before[key] = model } }
                noted.removeAll()
                replaceAll(before: before)
                continue
            }
            applyTouched(held.keys.map { key in
                let t = held.touched[key]!
                return (key: key, before: t.before, changed: t.changed)
            })
        }
    }

    /// Holds a single change that arrived while another was told.
    func hold(_ change: SequentialChange<Model>) {
        switch change {
        case .inserted(let m, _): deferred.record(m.identifier, before: nil, changed: true)
        case .removed(let m, _): deferred.record(m.identifier, before: m, changed: false)
        // (A single change is always noted first, with the model shown; the
        // model told is the best one known otherwise.)
        case .updated(let m, _), .moved(let m, _, _): deferred.record(m.identifier, before: m, changed: true)
        }
    }

    /// Holds a grouped change that arrived while another was told.
    func hold(_ update: CollectionUpdate<Model>) {
        if update.touched.isEmpty && !update.batch.isEmpty { deferred.fill = true }
        for t in update.touched { deferred.record(t.key, before: t.before, changed: t.changed) }
    }
}
