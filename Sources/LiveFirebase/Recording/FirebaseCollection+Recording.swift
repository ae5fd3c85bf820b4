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
    /// - Complexity: O(n) now, for the state; then, per change, O(size of
    ///   its messages and of what it told).
    public func record<Section>(into recorder: FlightRecorder, sectionBy: DatabasePath? = nil,
                                sections: SectionedCollection<Model, Section>? = nil) {
        recorder.stop()
        flightRecorder = recorder
        let header = FlightHeader(path: reference.path, query: view.query, sectionBy: sectionBy,
                                  isRedacted: !recorder.keepsValues)
        if let sections {
            recorder.counts = { [unowned sections] in sections.counts }
            let token = sections.observeStages { [unowned recorder] in recorder.note(stages: $0) }
            recorder.detach.append { token.cancel() }
        } else {
            recorder.counts = { [unowned collection] in [collection.count] }
            let token = collection.observeUpdates { [unowned recorder] in recorder.note(stages: BatchStage.singleSection(of: $0.batch)) }
            recorder.detach.append { token.cancel() }
        }
        recorder.lastCounts = recorder.counts()
        recorder.begin(header, FlightState(value: recordedValue(), isComplete: view.isComplete,
                                           pending: writeQueue.entries.map { FlightWrite(id: $0.id, write: $0.write) }))
        let events = observeChildEvents { [unowned recorder] in recorder.note(event: $0) }
        let values = observeValue { [unowned recorder] in recorder.close() }
        recorder.detach.append { [weak self] in
            events.cancel()
            values.cancel()
            if self?.flightRecorder === recorder { self?.flightRecorder = nil }
        }
    }

    /// Records into `recorder` with one section per row list (no sections).
    public func record(into recorder: FlightRecorder) {
        record(into: recorder, sections: SectionedCollection<Model, Never>?.none)
    }

    /// The server's value the view holds, as the location's value.
    private func recordedValue() -> JSONValue {
        var members = JSONObject()
        for key in view.cache.keys {
            let value = view.serverValue(key)
            if value.exists { members[key.string] = value.value }
        }
        return members.isEmpty ? .null : .object(members)
    }

    /// Keeps `message` in the recording, if there is one.
    func recordMessage(_ message: StreamMessage, isWholeData: Bool, fromCache: Bool) {
        guard let recorder = flightRecorder else { return }
        let redaction = recorder.redaction
        switch message {
        case .connected: recorder.note(.message(.connected))
        case .receiving: break
        case .put(let payload):
            let data = payload.data.value
            recorder.note(.message(.put(path: payload.path, data: redaction?.redact(data, at: payload.path) ?? data,
                                        isWhole: isWholeData, isCached: fromCache)))
        case .patch(let payload):
            // From its updates: a member set to null (a deletion) is not in its data.
            let data = JSONValue.object(JSONObject(payload.updates.map { update in
                (update.path.relativeText, update.value.exists ? update.value.value : .null)
            }, uniquingKeysWith: { _, last in last }))
            recorder.note(.message(.patch(path: payload.path, data: redaction?.redactPatch(data, at: payload.path) ?? data,
                                          isWhole: isWholeData)))
        case .disconnected(let error, _): recorder.note(.message(.disconnected(reason: error.description)))
        case .renewingCredential: recorder.note(.message(.renewingCredential))
        case .ended(let error): recorder.note(.message(.ended(error.map(FlightFailure.init))))
        }
    }

    /// Keeps write `id` in the recording, if there is one.
    func recordWrite(_ id: Int, _ write: DatabaseWrite) {
        guard let recorder = flightRecorder else { return }
        recorder.note(.write(FlightWrite(id: id, write: recorder.redaction?.redact(write) ?? write)))
    }

    /// Keeps the outcome of write `id` in the recording, if there is one.
    func recordOutcome(_ id: Int, _ failure: DatabaseError?) {
        flightRecorder?.note(.outcome(id: id, error: failure?.description))
    }
}

extension FlightRecorder {
    /// Notes, with each change, the row counts `list`'s data source reported
    /// after its last stage, and keeps a stage it refuses (what UIKit
    /// raises for) as a ``FlightEntry/rejected(change:reason:)`` entry; with
    /// ``exportOnRejection`` set, the recording is then written there.
    public func watch(_ list: CheckingListTarget) {
        list.onBatch = { [weak self] _, reported, error in
            guard let self else { return }
            note(listCounts: reported)
            guard let error else { return }
            // Within the change being told, which it belongs to.
            append(.rejected(change: changeCount + 1, reason: error.description))
            if let url = exportOnRejection { try? write(to: url) }
        }
    }
}
