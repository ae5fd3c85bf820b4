// ServerCore+REST.swift — GET, PUT, PATCH, POST and DELETE on the data.

import Dispatch
import LiveModel
import NIOHTTP1

extension ServerCore {
    /// Answers a REST request. Never throws and never traps: every failure
    /// is an `{"error": ...}` response, and a failed write changes nothing.
    func handle(_ request: RESTRequest) -> RESTResponse {
        do throws(StoreError) {
            return try respond(to: request)
        } catch {
            return .error(error)
        }
    }

    private func respond(to request: RESTRequest) throws(StoreError) -> RESTResponse {
        let target = try RequestTarget(uri: request.uri)
        let parameters = target.parameters
        var method = request.method
        // As Firebase documents it: a POST may stand for another method (for
        // clients that cannot send it). On any other method the override
        // is refused: a GET, which any web page can make a browser send, must
        // never write.
        if let override = request.headers.first(name: "x-http-method-override") ?? parameters["x-http-method-override"] {
            guard method == "POST" else {
                throw .badRequest("x-http-method-override is honoured on POST only (got it on \(RequestTarget.shown(method))).")
            }
            method = override.uppercased()
        }
        let options = try RequestOptions(parameters)
        let query = try DatabaseQuery.requested(by: parameters)
        if options.shallow && query != nil {
            throw .badRequest("Mixing 'shallow' and querying parameters is not supported.")
        }
        let token = request.token(parameters)
        if target.isPriority {
            guard mayUse(token) else { throw ServerCore.permissionDenied }
            guard query == nil, !options.shallow else {
                throw .badRequest("Querying parameters are not supported on a priority (.priority).")
            }
            guard ["GET", "HEAD", "PUT", "DELETE"].contains(method) else {
                throw StoreError(status: 405, message: "A priority (.priority) is read with GET, set with PUT and removed with DELETE (got \(RequestTarget.shown(method))).")
            }
        }
        switch method {
        case "GET", "HEAD":
            // The value is taken under the lock (a copy-on-write reference);
            // rendering it, however large, holds up no one else.
            lock.lock()
            guard isAuthorized(token) else {
                lock.unlock()
                throw ServerCore.permissionDenied
            }
            let node = store.get(target.path)
            // A limited query some streams listen to is answered from their
            // window; else a query with a limit or bounds from the index
            // kept for its order. Without one, this read reads every child,
            // then has the index built for the next reads.
            var window = query.flatMap { $0.limit != nil ? listeners.window(at: target.path, $0)?.ordered() : nil }
            var builds = false
            if window == nil, let query {
                switch reads.lookup(query, at: target.path, in: node) {
                case .answered(let found): window = found
                case .build: builds = true
                case .scan: break
                }
            }
            lock.unlock()
            if target.isPriority {
                return Self.conditional(on: node, request.headers) {
                    options.silent ? RESTResponse(status: .noContent) : .json(node.priority?.jsonValue ?? .null)
                }
            }
            let response = Self.read(node, query: query, window: window, options: options, headers: request.headers)
            // Built once this read has its answer, not against it.
            if builds, let query { buildIndex(query.order, at: target.path, from: node) }
            return response
        case "PUT", "PATCH", "POST", "DELETE":
            // Read before the lock: a large body holds up no one else.
            let json = target.isPriority ? try Self.priorityBody(method, request)
                                         : try Self.readBody(method, request, at: target.path)
            let expectedTag = request.headers.first(name: "if-match")
            if expectedTag != nil {
                // The tag is compared under the lock: the digest is computed
                // first, away from it, into the memos the store's node
                // shares (see `DigestMemo`), so that the first tag of a
                // large location does not read every child under the lock.
                let current = lock.withLock { isAuthorized(token) ? store.get(target.path) : DataNode.empty }
                _ = current.digest
            }
            lock.lock()
            guard isAuthorized(token) else {
                lock.unlock()
                throw ServerCore.permissionDenied
            }
            if let expectedTag {
                let current = store.etag(target.path)
                if expectedTag != current {
                    let node = store.get(target.path)
                    lock.unlock()
                    return Self.preconditionFailed(node, tag: current, priority: target.isPriority, options: options)
                }
            }
            let written: (response: RESTResponse, tagged: DataNode?)
            do {
                defer { lock.unlock() }
                written = try write(target.isPriority ? "PRIORITY" : method, at: target.path, json: json,
                                    options: options, headers: request.headers)
            }
            // The tag asked for, of the value written: computed away from
            // the lock (a large value's first digest reads all of it).
            guard let tagged = written.tagged else { return written.response }
            var response = written.response
            response.headers.append(("ETag", Store.etag(of: tagged)))
            return response
        default:
            let authorized = lock.withLock { isAuthorized(token) }
            guard authorized else { throw ServerCore.permissionDenied }
            throw StoreError(status: 405, message: "Method \(RequestTarget.shown(method)) is not supported.")
        }
    }

    /// A write's value, read from its body: `null` for DELETE.
    ///
    /// The C core checks the text first, without building anything: a
    /// body that is not JSON is refused there. A `PUT` or `POST` body that
    /// also passes the database's rules (keys, depth; no server value) is
    /// read straight into nodes, its plain values kept as text
    /// (``SnapshotReader``), so that it costs about its own size whatever its
    /// shape — `[{}, {}, …]` costs nothing per element. Any other body is
    /// read as JSON, which says what is wrong with it or resolves its
    /// server values.
    private static func readBody(_ method: String, _ request: RESTRequest, at path: DatabasePath) throws(StoreError) -> WrittenValue {
        guard method != "DELETE" else { return .json(.null) }
        // Checked in place when the padding is there, else on a copy.
        let padded = request.body
        let length = request.bodyLength
        let depth = DatabasePath.maxDepth - path.keys.count
        let passes: Bool
        do {
            try padded.withUnsafeBufferPointer { p throws(ParseError) in
                try Snapshot.check(json: p, length: length, order: .key, maxDepth: max(1, depth),
                                   keysArePaths: method == "PATCH")
            }
            passes = depth >= 1
        } catch {
            switch error.code {
            case .jsonSyntax, .jsonTruncated, .jsonTrailing, .invalidUTF8, .nulCharacter, .numberRange:
                throw .badRequest("\(StoreError.invalidJSON.message) \(error.description)")
            default:
                passes = false
            }
        }
        if passes && method != "PATCH" {
            do {
                return .node(try SnapshotReader(bytes: padded, length: length).root())
            } catch let error as StoreError {
                throw error
            } catch {
                throw .badRequest("\(StoreError.invalidJSON.message) \(error)")
            }
        }
        do {
            return .json(try JSONValue(parsingUTF8: padded[..<length]))
        } catch {
            throw .badRequest("\(StoreError.invalidJSON.message) \(error.description)")
        }
    }

    /// The value a write at a priority carries (`null` for DELETE), as JSON.
    private static func priorityBody(_ method: String, _ request: RESTRequest) throws(StoreError) -> WrittenValue {
        guard method != "DELETE" else { return .json(.null) }
        do {
            return .json(try JSONValue(parsingUTF8: request.body[..<request.bodyLength]))
        } catch {
            throw .badRequest("\(StoreError.invalidJSON.message) \(error.description)")
        }
    }

    /// Builds the index of the children of `node`, the value at `path`, in
    /// `order`, away from the request and the lock, and keeps it (see
    /// ``ReadIndexes/keep(_:at:in:)``).
    private func buildIndex(_ order: QueryOrder, at path: DatabasePath, from node: DataNode) {
        indexBuilds.enter()
        DispatchQueue.global(qos: .utility).async { [self] in
            let index = OrderIndex(order, of: node)
            lock.withLock { reads.keep(index, at: path, in: store.get(path)) }
            indexBuilds.leave()
        }
    }

    /// The answer to a write whose `if-match` tag is not the current one,
    /// `tag`: 412 with the current value (its priority, for a priority),
    /// written as it is sent. Needs no lock: `node` is a value, however
    /// large.
    private static func preconditionFailed(_ node: DataNode, tag: String, priority: Bool,
                                           options: RequestOptions) -> RESTResponse {
        var response = priority ? RESTResponse.json(node.priority?.jsonValue ?? .null, status: .preconditionFailed)
                                : RESTResponse.json(text: JSONTextChunks(node, export: options.export))
        response.status = .preconditionFailed
        response.headers.append(("ETag", tag))
        return response
    }

    /// The response to a read of `node`. Needs no lock: `node` is a value.
    /// - Parameter window: The query's window over `node`, when streams
    ///   keep it (see ``ListenerRegistry``) or an index of its order does
    ///   (see ``ReadIndexes``); else the window is computed.
    private static func read(_ node: DataNode, query: DatabaseQuery?, window: [(key: Key, node: DataNode)]?,
                             options: RequestOptions, headers: HTTPHeaders) -> RESTResponse {
        conditional(on: node, headers) {
            if options.silent { return RESTResponse(status: .noContent) }
            if options.shallow { return .json(node.shallowJSON()) }
            if let window { return .json(text: JSONTextChunks(members: window, export: options.export)) }
            if let query { return .json(text: query.text(of: node, export: options.export)) }
            return .json(text: JSONTextChunks(node, export: options.export))
        }
    }

    /// A read's response under `X-Firebase-ETag` and `if-none-match`, whose
    /// tag is `node`'s (a priority's too): 304 when the tag asked for is
    /// current, else `answer()` with the tag when asked.
    private static func conditional(on node: DataNode, _ headers: HTTPHeaders,
                                    _ answer: () -> RESTResponse) -> RESTResponse {
        let wantsTag = headers.first(name: "x-firebase-etag") == "true"
        let wanted = headers.first(name: "if-none-match")
        let etag = wantsTag || wanted != nil ? Store.etag(of: node) : ""
        if let wanted, wanted == etag {
            return RESTResponse(status: .notModified, headers: [("ETag", etag)])
        }
        var response = answer()
        if wantsTag { response.headers.append(("ETag", etag)) }
        return response
    }

    /// Applies a write, under `lock`: its response, whose value is written
    /// as it is sent (after the lock), and the value whose tag it is to
    /// carry (`X-Firebase-ETag`), to be digested after the lock.
    private func write(_ method: String, at path: DatabasePath, json value: WrittenValue, options: RequestOptions,
                       headers: HTTPHeaders) throws(StoreError) -> (response: RESTResponse, tagged: DataNode?) {
        // What the locations about to change hold, to undo the write should
        // the journal refuse it.
        var before: [DatabasePath: DataNode] = [:]
        if method == "PATCH", case .json(.object(let members)) = value {
            for name in members.keys {
                if let named = try? NamedLocation(name), let full = try? path.appending(named.path) {
                    before[full] = store.get(full)
                }
            }
        } else {
            before[path] = store.get(path)
        }
        let now = ServerCore.now()
        var writes: [Write]
        // The answer, unless silent (a PUT's value is written as a GET's is).
        var reply: RESTResponse
        switch method {
        case "PUT":
            switch value {
            case .node(let node): writes = store.set(path, node: node)
            case .json(let json): writes = try store.set(path, json: json, now: now)
            }
            reply = .json(text: JSONTextChunks(store.get(path), export: options.export))
        case "PATCH":
            guard case .json(let json) = value else { throw .badRequest("An update must be a JSON object.") }
            writes = try store.update(path, json: json, now: now)
            reply = options.silent ? .json(.null) : .json(Self.updateReply(json, at: path, in: store,
                                                                           export: options.export))
        case "PRIORITY":
            // PUT or DELETE at `path/.priority`.
            guard case .json(let json) = value else { throw DataNodeReader.badPriority }
            let priority = try Store.priority(written: json)
            writes = store.setPriority(priority, of: path)
            reply = .json(priority?.jsonValue ?? .null)
        case "POST":
            let (name, pushed) = try store.push(path, value: value, now: now, ids: &pushIDs)
            writes = pushed
            reply = .json(.object(["name": .string(name.string)]))
        default:
            writes = store.delete(path)
            reply = .json(.null)
        }
        if let journal {
            do {
                try journal.append(writes)
            } catch {
                store.apply(writes.map { Write(path: $0.path, node: before[$0.path] ?? .empty) })
                throw error
            }
            if journal.journalBytes > journal.compactionBytes { compactInBackground(journal) }
        }
        // A merge is told as a patch of members below its base; one that sets
        // the base's own priority writes the base itself, told as puts.
        publish(Mutation(base: path, isMerge: method == "PATCH" && !writes.contains { $0.path == path }, writes: writes))
        let response = options.silent ? RESTResponse(status: .noContent) : reply
        return (response, headers.first(name: "x-firebase-etag") == "true" ? store.get(path) : nil)
    }
}

extension ServerCore {
    /// The reply to an update: each member's name (its path, normalised)
    /// and what is now there, resolved (server values) and normalised; a
    /// priority member (`a/.priority`), the priority.
    /// - Complexity: the size of the values written.
    static func updateReply(_ body: JSONValue, at path: DatabasePath, in store: Store, export: Bool) -> JSONValue {
        guard case .object(let members) = body else { return .null }
        var reply = JSONObject()
        for name in members.keys {
            guard let named = try? NamedLocation(name), let full = try? path.appending(named.path) else { continue }
            let node = store.get(full)
            if named.isPriority {
                reply[named.path.isRoot ? ".priority" : named.path.relativeText + "/.priority"] = node.priority?.jsonValue ?? .null
            } else {
                reply[named.path.relativeText] = node.json(export: export)
            }
        }
        return .object(reply)
    }
}

/// The parameters every request may carry besides a query.
struct RequestOptions {
    var export = false
    var silent = false
    var shallow = false

    init(_ parameters: [String: String]) throws(StoreError) {
        switch parameters["format"] {
        case nil: break
        case "export": export = true
        case let other?: throw .badRequest("format must be 'export' (got \(RequestTarget.shown(other))).")
        }
        switch parameters["print"] {
        case nil, "pretty": break
        case "silent": silent = true
        case let other?: throw .badRequest("print must be 'pretty' or 'silent' (got \(RequestTarget.shown(other))).")
        }
        switch parameters["shallow"] {
        case nil, "false": break
        case "true": shallow = true
        case let other?: throw .badRequest("shallow must be true or false (got \(RequestTarget.shown(other))).")
        }
        if let override = parameters["auth_variable_override"] {
            guard let value = try? JSONValue(parsing: override), value.isNull || value.objectValue != nil else {
                throw .badRequest("auth_variable_override must be a JSON object or null.")
            }
        }
    }
}

/// A write's value as read from its body: nodes already built, or JSON
/// still to be read against the data (server values, a patch's paths).
enum WrittenValue {
    case node(DataNode)
    case json(JSONValue)
}
