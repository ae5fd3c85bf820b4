// FirebaseCollection+Recording.swift — a collection kept in a flight recording.
import LiveCollection
import LiveModel
import LiveSections

extension FirebaseCollection {
    /// Records this collection into `recorder` from now on: what it holds
    /// now (the server's value and the writes waiting), then each message,
    /// write and outcome, and what observers are told of each change.
    ///
    /// Give the list's `sections` for its stages and counts, and the child
    /// path they are read from (`sectionBy`) for a replay to rebuild them;
    /// without sections, stages are those of one section holding every row.
    /// A recorder records one collection: attaching it again starts a new
    /// part of the recording (a new query or sections, as a new header).
    /// - Complexity: O(1) now for a recorder's first part (the state shares
    ///   the collection's snapshots; O(n) while local writes wait), O(size
    ///   of the children) for a later part, written into the ring at once;
    ///   then, per change, O(size of its messages and of what it told).
    public func record<Section>(into recorder: FlightRecorder, sectionBy: DatabasePath? = nil,
                                sections: SectionedCollection<Model, Section>? = nil) {
        flightRecorder?.stop()
        recorder.stop()
        flightRecorder = recorder
        let header = FlightHeader(path: reference.path, query: view.query, sectionBy: sectionBy,
                                  hasOtherSections: sections != nil && sectionBy == nil, mode: mode,
                                  isRedacted: !recorder.keepsValues)
        if let sections {
            // Sections the app lets go keep their last counts.
            recorder.counts = FlightCounts(
                all: { [weak sections, weak recorder] in sections?.counts ?? recorder?.lastCounts ?? [] },
                sections: { [weak sections, weak recorder] in sections?.numberOfSections ?? recorder?.lastCounts.count ?? 0 },
                rows: { [weak sections, weak recorder] in sections?.numberOfRows(inSection: $0) ?? recorder?.lastCounts[$0] ?? 0 })
            let token = sections.observeStages { [weak recorder] in recorder?.note(stages: $0) }
            recorder.detach.append { token.cancel() }
        } else {
            recorder.counts = FlightCounts(
                all: { [weak collection, weak recorder] in collection.map { [$0.count] } ?? recorder?.lastCounts ?? [] },
                sections: { 1 },
                rows: { [weak collection, weak recorder] _ in collection?.count ?? recorder?.lastCounts.first ?? 0 })
            let token = collection.observeUpdates { [weak recorder] in recorder?.note(stages: BatchStage.singleSection(of: $0.batch)) }
            recorder.detach.append { token.cancel() }
        }
        recorder.lastCounts = recorder.counts.all()
        recorder.source = FlightSource(child: { [weak self] key in self?.view.serverValue(key) ?? .absent(key: key) },
                                       children: { [weak self] in self?.view.serverChildrenHeld ?? [:] })
        recorder.begin(header, children: view.serverChildrenHeld, isComplete: view.isComplete, isWhole: !view.cacheIsFiltered,
                       pending: writeQueue.entries.map { FlightWrite(id: $0.id, write: $0.write) },
                       counts: recorder.lastCounts)
        let events = observeChildEvents { [weak recorder] in recorder?.note(event: $0) }
        let values = observeValue { [weak recorder] in recorder?.close() }
        let hasSections = sections != nil
        recordAgain = { [weak self, weak recorder, weak sections] in
            // Sections the app let go cannot be recorded again as they were.
            guard let self, let recorder, (sections != nil) == hasSections else { return }
            self.record(into: recorder, sectionBy: sectionBy, sections: sections)
        }
        // The recorder keeps this: it holds itself weakly.
        recorder.detach.append { [weak self, weak recorder] in
            events.cancel()
            values.cancel()
            if let recorder, self?.flightRecorder === recorder {
                self?.flightRecorder = nil
                self?.recordAgain = nil
            }
        }
    }

    /// Records into `recorder` with one section per row list (no sections).
    public func record(into recorder: FlightRecorder) {
        record(into: recorder, sections: SectionedCollection<Model, Never>?.none)
    }

    /// Keeps `message` in the recording, if there is one: a put's or a
    /// patch's payload as received (shared; written out, and redacted,
    /// only when the recording is).
    /// - Returns: For a put or a patch, the recorder and the entry's
    ///   number, to give ``FlightRecorder/resolve(_:)`` once it is applied.
    /// - Complexity: O(depth of its path).
    func recordMessage(_ message: StreamMessage, isWholeData: Bool, fromCache: Bool) -> (FlightRecorder, Int)? {
        guard let recorder = flightRecorder else { return nil }
        switch message {
        case .connected: recorder.note(.message(.connected))
        case .receiving: break
        case .put(let payload), .patch(let payload):
            let fold = FlightFold(payload, isWhole: isWholeData, isCached: fromCache, source: recorder.source)
            return (recorder, recorder.note(data: fold))
        case .disconnected(let error, _): recorder.note(.message(.disconnected(reason: error.recordedDescription)))
        case .renewingCredential: recorder.note(.message(.renewingCredential))
        case .ended(let error): recorder.note(.message(.ended(error.map(FlightFailure.init))))
        }
        return nil
    }

    /// Keeps write `id` in the recording, if there is one.
    func recordWrite(_ id: Int, _ write: DatabaseWrite) {
        guard let recorder = flightRecorder else { return }
        recorder.note(.write(FlightWrite(id: id, write: recorder.redaction?.redact(write) ?? write)))
    }

    /// Keeps the outcome of write `id` in the recording, if there is one.
    func recordOutcome(_ id: Int, _ failure: DatabaseError?) {
        flightRecorder?.note(.outcome(id: id, error: failure?.recordedDescription))
    }
}
