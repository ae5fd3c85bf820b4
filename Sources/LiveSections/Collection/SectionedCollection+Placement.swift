// SectionedCollection+Placement.swift — where models are shown: sections in
// display order, rows in the collection's order.
import LiveCollection
import LiveModel

extension SectionedCollection {
    /// The index of `section` among the sections shown, or nil.
    /// - Complexity: O(1) once the sections have stayed the same for s
    ///   lookups (s sections), O(log s) before; amortized O(log s).
    @inlinable
    func sectionIndex(of section: Section) -> Int? {
        if let positions { return positions[section] }
        lookups += 1
        if lookups >= order.count {
            var made: [Section: Int] = [:]
            made.reserveCapacity(order.count)
            for (i, s) in order.enumerated() { made[s] = i }
            positions = made
            return made[section]
        }
        let at = insertionIndex(of: section)
        return at < order.count && order[at] == section ? at : nil
    }

    /// Where `section` stands, or would stand, among the sections shown.
    /// - Complexity: O(log s).
    @inlinable
    func insertionIndex(of section: Section) -> Int {
        var lo = 0, hi = order.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sectionPrecedes(order[mid], section) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Where the model `key` belongs now, by the collection.
    /// - Complexity: O(1) expected in Firebase order, O(log n) otherwise.
    @inlinable
    func currentPlace(of key: Key) -> Place? {
        guard let (model, post) = collection.entry(for: key) else { return nil }
        return Place(section: sectionOf(model), post: post)
    }

    /// Where the model `key` is shown: before a grouped change's first step
    /// commits, where it was; as noted before a change these sections have
    /// not applied yet; else where the collection has it.
    /// - Complexity: O(log n) (O(s log n) for a model whose section
    ///   changed in place, see ``located(_:)``).
    func shownPlace(of key: Key) -> Place? {
        if undone != nil, let at = undonePlaces.index(forKey: key) { return undonePlaces[at].value }
        if let at = noted.index(forKey: key) { return noted[at].value.place }
        return located(key)
    }

    /// Notes where `key` is shown, before the collection changes it,
    /// unless a change of it not yet applied here is already noted. A
    /// grouped change whose steps are being handed out is committed first:
    /// the collection is moving on.
    /// - Complexity: O(log n), as ``located(_:)``.
    @inlinable
    func note(_ key: Key) {
        if isUndone { redo() }
        if let at = noted.index(forKey: key) {
            noted.values[at].open += 1
            if isTelling { deferred.note(key, before: noted.values[at].model) }
            return
        }
        let entry = collection.entry(for: key)
        if isTelling { deferred.note(key, before: entry?.model) }
        noted[key] = NotedPlace(entry.flatMap { located(model: $0.model, post: $0.post) }, model: entry?.model)
    }

    /// Forgets the notes of keys a batch left as they were, but for keys
    /// with another change noted and not applied yet (a change held while
    /// observers are told, or one not told to these sections yet): their
    /// note still says where they are shown. A key shown elsewhere than the
    /// collection has it (these sections were made in the middle of the
    /// batch, and showed it as it was then) is moved there.
    func forget(_ keys: [Key]) {
        var moved: [(key: Key, before: Model?, changed: Bool)] = []
        for key in keys {
            guard let at = noted.index(forKey: key) else { continue }
            if noted.values[at].open > 1 {
                noted.values[at].open -= 1
                continue
            }
            let note = noted.values[at], current = currentPlace(of: key)
            if note.place?.section == current?.section && note.place?.post == current?.post {
                noted.remove(at: at)
            } else if isTelling {
                deferred.record(key, before: note.model, changed: false)
            } else {
                moved.append((key, note.model, false))
            }
        }
        if !moved.isEmpty { applyTouched(moved) }
    }

    /// Where `key` is shown, when these sections have applied every change
    /// of it: at its post in the collection, in its model's section. A
    /// model that is an object may have been changed in place before the
    /// collection was told (``LiveModelProtocol/update(with:)``), so for
    /// objects that section is checked, and the others searched when it
    /// does not hold the post.
    /// - Complexity: O(1) expected for a value, O(log n) for an object
    ///   whose section holds it, O(s log n) otherwise, for s sections.
    @inlinable
    func located(_ key: Key) -> Place? {
        guard let (model, post) = collection.entry(for: key) else { return nil }
        return located(model: model, post: post)
    }

    /// Where the collection's `model` at `post` is shown (see ``located(_:)``).
    @inlinable
    func located(model: Model, post: OrderPost) -> Place? {
        let section = sectionOf(model)
        guard Model.self is AnyObject.Type else { return rows[section] == nil ? nil : Place(section: section, post: post) }
        if rows[section]?.position(of: post) != nil { return Place(section: section, post: post) }
        for other in order where other != section && rows[other]?.position(of: post) != nil {
            return Place(section: other, post: post)
        }
        return nil
    }

    /// The row path of `place` in the state shown. - Complexity: O(log n).
    func path(at place: Place) -> RowPath? {
        guard let s = sectionIndex(of: place.section),
              let row = rows[place.section]?.position(of: place.post) else { return nil }
        return RowPath(section: s, row: row)
    }

    /// Sections every model of the collection, from nothing.
    /// - Complexity: O(n log n); each section's rows are built in bulk.
    func rebuild() {
        adopt(sectioningAll(collection))
    }

    /// Shows `sectioning`, made from the collection's models as they are now.
    /// - Complexity: O(1).
    func adopt(_ sectioning: Sectioning) {
        order = sectioning.order
        rows = sectioning.rows
    }

    /// The sections of the `count` models `forEachPosted` visits, in order.
    /// - Complexity: O(n log n); each section's rows are built in bulk.
    @inlinable
    nonisolated static func sectioning(_ count: Int, _ forEachPosted: ((Model, OrderPost) -> Void) -> Void,
                                       sectionOf: @escaping (Model) -> Section,
                                       sectionPrecedes: @escaping (Section, Section) -> Bool,
                                       rule: Int = 0) -> Sectioning {
        // Visited in order, so each section's rows come sorted.
        var grouped: [Section: [OrderPost]] = [:]
        forEachPosted { model, post in grouped[sectionOf(model), default: []].append(post) }
        var rows: [Section: PostRows] = [:]
        rows.reserveCapacity(grouped.count)
        for (section, sorted) in grouped { rows[section] = PostRows(sorted: sorted) }
        return Sectioning(order: grouped.keys.sorted(by: sectionPrecedes), rows: rows, rule: rule)
    }

    /// Takes the row shown at `place` out; returns its former path,
    /// whether its section went away, and where it was: `place`, or, when
    /// that section does not hold its post (a model's section read through
    /// state that changed in place), the section that did.
    /// - Complexity: O(log n + s); O(s log n) when another section held it.
    @inlinable
    func unplace(_ place: Place) -> (path: RowPath, sectionGone: Bool, shown: Place)? {
        var shown = place
        var removed = rows[place.section]?.remove(place.post)
        if removed == nil, let other = resolve(place) {
            shown = other
            removed = rows[other.section]?.remove(other.post)
        }
        guard let row = removed, let s = sectionIndex(of: shown.section), let box = rows[shown.section] else { return nil }
        if box.isEmpty {
            rows[shown.section] = nil
            order.remove(at: s)
            return (RowPath(section: s, row: row), true, shown)
        }
        return (RowPath(section: s, row: row), false, shown)
    }

    /// The place whose section holds `place`'s post, searching every
    /// section, or nil when none does.
    /// - Complexity: O(s log n).
    @usableFromInline
    func resolve(_ place: Place) -> Place? {
        for section in order where rows[section]?.position(of: place.post) != nil {
            return Place(section: section, post: place.post)
        }
        return nil
    }

    /// Puts `key` in `section` at `post`; returns its path and whether its
    /// section is new. - Complexity: O(log n + s).
    @inlinable
    func place(_ key: Key, in section: Section, at post: OrderPost) -> (path: RowPath, sectionNew: Bool) {
        if let box = rows[section] {
            let row = box.insert(post)
            return (RowPath(section: sectionIndex(of: section)!, row: row), false)
        }
        let s = insertionIndex(of: section)
        order.insert(section, at: s)
        rows[section] = PostRows(sorted: [post])
        return (RowPath(section: s, row: 0), true)
    }

    /// Moves the keys of a grouped change from their places on one side to
    /// those on the other (`forward`: old to new): sections left empty go,
    /// sections that appear come. Shifting back restores the state exactly.
    /// - Complexity: O(t (log n + s)) for t entries.
    func shift(_ entries: [GroupEntry<Section>], forward: Bool) {
        var emptied: [Section] = []
        for entry in entries {
            guard let from = forward ? entry.old : entry.new else { continue }
            guard let box = rows[from.section] else { continue }
            _ = box.remove(from.post)
            if box.isEmpty { emptied.append(from.section) }
        }
        var created: [Section] = []
        for entry in entries {
            guard let to = forward ? entry.new : entry.old else { continue }
            if let box = rows[to.section] {
                box.insert(to.post)
            } else {
                rows[to.section] = PostRows(sorted: [to.post])
                created.append(to.section)
            }
        }
        for section in emptied where rows[section]?.isEmpty == true {
            rows[section] = nil
            if let s = sectionIndex(of: section) { order.remove(at: s) }
        }
        for section in created { order.insert(section, at: insertionIndex(of: section)) }
    }
}
