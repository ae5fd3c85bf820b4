// FirebaseCollection+Messages.swift — applying stream messages to the view
// and the collection.
import LiveCollection
import LiveModel

extension FirebaseCollection {
    /// Applies a message as if the stream had sent it: how a collection
    /// opened with ``StreamOpener/offline`` is fed (and how tools inject
    /// events). Payloads must be parsed with the query's order (see
    /// ``receive(_:at:json:)``).
    ///
    /// Injected data is the location's whole data, never a window a server
    /// cut: every child is kept, so one that leaves a limit window can come
    /// back and the next one slides in, and a path below a child that does
    /// not exist creates it (holding just that path's value), as in Firebase.
    public func receive(_ message: StreamMessage) async {
        await cacheLoad?.value
        await handle(message, isWholeData: true)
    }

    /// Parses and applies a `put` or `patch` as if the stream had sent it.
    /// - Parameters:
    ///   - kind: `put` replaces the value at `path` (relative to the
    ///     location; `/` replaces everything); `patch` merges the members
    ///     of `json`, each a relative path, into it.
    ///   - path: Where the data goes, relative to the location.
    ///   - json: The data, as JSON text (for a `patch`, an object).
    /// - Throws: ``DatabaseError/invalidValue(_:)`` with the parser's
    ///   position when `json` is not valid; nothing is changed then.
    public func receive(_ kind: StreamPayload.Kind, at path: DatabasePath, json: String) async throws(DatabaseError) {
        await cacheLoad?.value
        // The data alone first, so an error's line and column are the data's.
        do { _ = try JSONValue(parsing: json) } catch { throw .invalidValue(error.description) }
        let wrapped = #"{"path":"# + JSONValue.string(path.description).jsonText() + #","data":"# + json + "}"
        let payload: StreamPayload
        do {
            payload = try StreamPayload.parse(json: wrapped, kind: kind, order: view.query.order)
        } catch {
            throw .invalidValue(error.description) // a patch member that is not a valid path
        }
        await handle(kind == .put ? .put(payload) : .patch(payload), isWholeData: true)
    }

    /// Applies one message. `isWholeData` says the data is the location's
    /// (injected); otherwise it is the stream's, which the server may have
    /// cut to the query's window (see ``QueryView/serverFilters``).
    func handle(_ message: StreamMessage, isWholeData: Bool = false, fromCache: Bool = false) async {
        let recorded = flightRecorder != nil ? recordMessage(message, isWholeData: isWholeData, fromCache: fromCache) : nil
        switch message {
        case .connected:
            // Cached children stay marked so until the server's value is in.
            if !showsCached { status = .connecting }
            loadProgress = nil
            parsedAt = nil
        case .receiving(let progress):
            loadProgress = progress
            if progress.isComplete { parsedAt = .now }
            tellProgress(progress)
        case .put(let payload), .patch(let payload):
            await apply(payload, filtered: isWholeData ? false : nil, fromCache: fromCache)
            // Applied: what it wrote is read now (a recorder attached since does not wait for it).
            if let (recorder, number) = recorded { recorder.resolve(number) }
        case .disconnected(let error, _):
            if !showsCached { status = .reconnecting(error) }
        case .renewingCredential:
            break
        case .ended(let error):
            // Stopped as well: a stream that ended on its own ignores it, and
            // one this message was given for instead (`receive`) ends now.
            stream?.stop()
            stream = nil
            consumer = nil
            view.isConfirmed = false
            status = error.map { .failed($0) } ?? .stopped
            // Refused: what was kept for this query is not to be shown again.
            switch error {
            case .permissionDenied?, .authRevoked?: forgetCache()
            default: break
            }
            failWaiters(error ?? .stopped)
        }
    }

    private func apply(_ payload: StreamPayload, filtered: Bool?, fromCache: Bool = false) async {
        let isWhole = payload.kind == .put && payload.path.isRoot
        // After a new query's first value being prepared (messages given
        // to `receive` may overlap it).
        while waitingForReplacement != nil {
            await withCheckedContinuation { waitingForReplacement?.append($0) }
        }
        if let replacement = replacing {
            // A new query's first value (setQuery); a stream sends it before
            // anything else, and what comes before it is not for this view.
            guard isWhole else { return }
            waitingForReplacement = []
            defer {
                let waiting = waitingForReplacement ?? []
                waitingForReplacement = nil
                for waiter in waiting { waiter.resume() }
            }
            switch await applyReplacementInBackground(payload, filtered: filtered, replacement: replacement) {
            case .applied(let events, _):
                // The rows shown before: freed away from the main actor.
                releaseInBackground(consume replacement)
                finish(events, isWhole: true, firstLoadStarted: nil)
                return releaseInBackground(events)
            case .dropped: return
            case .declined:
                guard let replacement = replacing else { return }
                replacing = nil
                let events = applyReplacement(payload, filtered: filtered, shown: replacement.shown,
                                              shownChanged: replacement.shownChanged)
                return finish(events, isWhole: true, firstLoadStarted: nil)
            }
        }
        let listening = generation
        let firstLoad = isWhole && !hasLoaded
        let started = ContinuousClock.now
        // A first load is filtered by the filter set now.
        if firstLoad { shownFilterVersion = filterVersion }
        if firstLoad {
            // Mode live adds a first value's children one by one; its cached
            // children come as one batch, as in the other modes.
            let outcome = mode == .live && !fromCache ? await applyLiveInBackground(payload, filtered: filtered)
                : await applyInBackground(payload, filtered: filtered)
            switch outcome {
            case .applied(let events, let observers):
                finish(events, isWhole: true, firstLoadStarted: started, observers: observers, fromCache: fromCache)
                return releaseInBackground(events)
            case .dropped: return
            case .declined: break
            }
        }
        var planned: [ChildEvent]?
        if isWhole, !firstLoad {
            let before = view
            switch await applyWholeInBackground(payload, filtered: filtered) {
            case .applied(let events, _): planned = events
            case .dropped: return
            case .declined:
                // Another view or query came meanwhile: decided again from
                // the start, as if the value came now.
                if view !== before || replacing != nil || !hasLoaded {
                    return await apply(payload, filtered: filtered, fromCache: fromCache)
                }
            }
        }
        let events = planned ?? view.apply(payload, filtered: filtered)
        if firstLoad, mode != .live {
            // One batch: a fill of the empty collection.
            await feed.load(shown(view.visible))
            // Another stream opened meanwhile (a new query): its first value
            // loads the collection again.
            guard generation == listening else { return }
        } else if firstLoad, !fromCache {
            collection.notifyLoad(started: true)
            applyEach(events)
            collection.notifyLoad(started: false)
        } else if isWhole || events.contains(where: { $0.key != events[0].key }) {
            // A resync, a new page or a multi-child change: one batch. (One
            // child moved and changed is one update, not a group.)
            collection.performBatch { applyEach(events) }
        } else {
            applyEach(events)
        }
        // (A first whole value after children shown from a shared cache is
        // applied as a resync, and is the first load all the same.)
        let recorded = firstLoad || (isWhole && !fromCache && self.firstLoad == nil)
        finish(events, isWhole: isWhole, firstLoadStarted: recorded ? started : nil, fromCache: fromCache)
    }

    /// Tells observers of an applied update; after a whole value, the
    /// collection is live.
    private func finish(_ events: [ChildEvent], isWhole: Bool, firstLoadStarted: ContinuousClock.Instant?,
                        observers: Duration = .zero, fromCache: Bool = false) {
        if let started = firstLoadStarted { recordFirstLoad(started: started, observers: observers) }
        tell(events, loaded: isWhole)
        if fromCache {
            // The cache's children (or those a shared cache knows, the
            // whole value or some children): shown, not confirmed.
            hasLoaded = true
            showsCached = true
            status = isOffline ? .offline : .cached
            if shownFilterVersion != filterVersion { refilter() }
            return
        }
        noteCacheChanges(events)
        if isWhole {
            hasLoaded = true
            showsCached = false
            cacheConfirmed = true
            status = .live
            // A filter set while the value was being taken, or while a
            // query change that failed was waiting.
            if shownFilterVersion != filterVersion { refilter() }
            resumeWaiters()
        }
        saveCacheSoon()
    }

    /// Keeps what the first load cost (``firstLoad``).
    private func recordFirstLoad(started: ContinuousClock.Instant, observers: Duration) {
        let now = ContinuousClock.now
        let progress = loadProgress?.isComplete == true ? loadProgress : nil
        let transfer = progress?.transfer ?? .zero, parse = progress?.parse ?? .zero
        let taken = started.duration(to: now)
        // From the first byte: the stream's phases, then what passed here
        // since the parsed value arrived.
        let total = progress == nil ? taken : transfer + parse + (parsedAt ?? started).duration(to: now)
        firstLoad = LoadPhases(bytes: progress?.bytes ?? 0, children: collection.count, transfer: transfer,
                               parse: parse, index: max(.zero, taken - observers), observers: observers, total: total)
    }

    /// Applies events to the collection through the feed: one change per
    /// child (a move and a change of one child are one update).
    func applyEach(_ events: [ChildEvent]) {
        // A new query's value awaited: the rows shown it is compared with change.
        if replacing != nil, !events.isEmpty { replacing?.shownChanged = true }
        var last: [Key: Int] = [:]
        for (i, event) in events.enumerated() { last[event.key] = i }
        for (i, event) in events.enumerated() where last[event.key] == i {
            if event.kind == .removed || !shows(child: event.snapshot) {
                feed.receiveRemoval(of: event.key)
            } else {
                feed.receive(event.snapshot)
            }
        }
    }
}
