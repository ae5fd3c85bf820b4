// SectionObservers.swift — the observers of a SectionedCollection, of every
// contract, in one list: told in the order they were added.
import LiveCollection

/// One observer of a ``SectionedCollection``, with the contract it follows.
@usableFromInline
enum SectionObserver<Model, Section> {
    /// ``SectionedCollection/observe(_:)``: sequential changes.
    case sequential((SectionedChange<Model, Section>) -> Void)
    /// ``SectionedCollection/observeStages(_:)``: stages, batch contract.
    case staged(([BatchStage]) -> Void)
    /// ``SectionedCollection/observeSteps(_:)``: stages with their commits.
    case stepped(([StagedStep]) -> Void)
}

/// The observers of a ``SectionedCollection`` in the order they were added,
/// with how many follow the contracts whose changes cost something to make
/// (sequential changes carry models; steps show the state before them).
@usableFromInline
struct SectionObservers<Model, Section> {
    @usableFromInline private(set) var list = ObserverList<SectionObserver<Model, Section>>()
    @usableFromInline private(set) var sequentialCount = 0
    @usableFromInline private(set) var steppedCount = 0

    @inlinable init() {}

    /// Whether an observer hears the sequential contract.
    @inlinable var tellsSequential: Bool { sequentialCount > 0 }
    /// Whether an observer hears steps.
    @inlinable var tellsSteps: Bool { steppedCount > 0 }

    mutating func add(_ observer: SectionObserver<Model, Section>) -> Int {
        count(observer, by: 1)
        return list.add(observer)
    }

    mutating func remove(_ id: Int) {
        if let observer = list.remove(id) { count(observer, by: -1) }
    }

    private mutating func count(_ observer: SectionObserver<Model, Section>, by delta: Int) {
        switch observer {
        case .sequential: sequentialCount += delta
        case .staged: break
        case .stepped: steppedCount += delta
        }
    }
}

extension SectionedCollection {
    /// Tells every observer a change, in the order they were added:
    /// sequential observers `events`, stage observers `stages` (unless there
    /// are none), and each step observer through `step`, which hands it the
    /// steps with the list shown the state before them, and moves on after.
    /// A change an observer makes meanwhile is held until every observer
    /// was told this one.
    @inlinable
    func tell(_ events: [SectionedChange<Model, Section>], _ stages: [BatchStage],
              step: (_ observer: ([StagedStep]) -> Void) -> Void) {
        beginTelling()
        defer { endTelling() }
        for observer in observers.list {
            switch observer {
            case .sequential(let handler): for event in events { handler(event) }
            case .staged(let handler): if !stages.isEmpty { handler(stages) }
            case .stepped(let handler): step(handler)
            }
        }
    }

    /// Adds `observer` after the others; the token removes it.
    func register(_ observer: SectionObserver<Model, Section>) -> ObservationToken {
        let id = observers.add(observer)
        return ObservationToken { [weak self] in self?.observers.remove(id) }
    }
}
