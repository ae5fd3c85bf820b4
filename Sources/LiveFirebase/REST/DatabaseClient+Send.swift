// DatabaseClient+Send.swift — sending a request: credentials, redirects,
// one retry with a fresh credential, and the mapping of error statuses.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LiveModel

extension DatabaseClient {
    /// Sends `request` and returns its `2xx` response.
    /// - Throws: ``DatabaseError``: the credentials provider's failure, a
    ///   transport failure, too many redirects, or the error a non-`2xx`
    ///   status stands for (see ``DatabaseClient``).
    func send(_ request: RESTClientRequest) async throws(DatabaseError) -> RESTClientResponse {
        let credentials = reference.credentials
        var credential = try await credentials.credential(forceRefresh: false)
        var refreshed = false
        while true {
            switch try await sendFollowingRedirects(request, credential: credential) {
            case .answered(let response):
                return response
            case .refused(let message):
                guard credentials.canRefresh, !refreshed else { throw .permissionDenied(message) }
                refreshed = true
                logger.debug("credential refused; asking the provider for a fresh one")
                credential = try await credentials.credential(forceRefresh: true)
            }
        }
    }

    /// How one attempt ended.
    private enum Outcome {
        /// A `2xx` response.
        case answered(RESTClientResponse)
        /// A `401`, which a fresh credential may cure: the server's message.
        case refused(String)
    }

    /// One attempt with `credential`, following redirects.
    private func sendFollowingRedirects(_ request: RESTClientRequest, credential: Credential?)
        async throws(DatabaseError) -> Outcome
    {
        let secrets = RESTRedaction.secrets(of: credential)
        let location = DatabaseReference(database: reference.database, path: request.path)
        var url: URL?
        var redirects = 0
        while true {
            var urlRequest = location.request(method: request.method, parameters: request.parameters, url: url,
                                              body: request.body, credential: credential)
            for header in request.headers { urlRequest.setValue(header.value, forHTTPHeaderField: header.name) }
            let shownURL = RESTRedaction.scrub(QueryEncoding.redact(urlRequest.url?.absoluteString ?? ""), secrets: secrets)
            let start = ContinuousClock.now
            let data: Data
            let head: HTTPURLResponse
            do {
                (data, head) = try await transport.send(urlRequest)
            } catch {
                let reason = RESTRedaction.describe(error, secrets: secrets)
                logger.debug("\(request.method) \(shownURL) failed: \(reason)")
                throw .transport(RESTRedaction.neverConnected(error) ? DatabaseError.notSentPrefix + reason : reason)
            }
            let status = head.statusCode
            logger.debug("\(request.method) \(shownURL) → \(status), \(data.count) bytes in \(ContinuousClock.now - start)")
            let response = RESTClientResponse(status: status, body: data, etag: head.value(forHTTPHeaderField: "ETag"),
                                              url: shownURL, secrets: secrets)
            switch status {
            case 200..<300:
                return .answered(response)
            case 307, 308:
                redirects += 1
                guard redirects <= DatabaseClient.maxRedirects else {
                    throw .tooManyRedirects(DatabaseClient.maxRedirects)
                }
                url = try redirectTarget(head.value(forHTTPHeaderField: "Location"), from: urlRequest.url, response)
            case 401:
                return .refused(RESTErrorBody.message(response))
            default:
                throw RESTErrorBody.error(for: response)
            }
        }
    }

    /// Where a redirect leads: `location` resolved against the URL that
    /// answered.
    /// - Throws: ``DatabaseError/invalidResponse(_:)`` without a usable
    ///   location, for a scheme other than http(s), from https to http, or
    ///   to another host (``RedirectRule``).
    private func redirectTarget(_ location: String?, from current: URL?, _ response: RESTClientResponse)
        throws(DatabaseError) -> URL
    {
        guard let location, !location.isEmpty else {
            throw .invalidResponse("HTTP \(response.status) redirect from \(response.url) without a Location")
        }
        let shown = RESTRedaction.scrub(QueryEncoding.redact(location), secrets: response.secrets)
        guard let target = URL(string: location, relativeTo: current)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "https" || scheme == "http",
              target.host != nil
        else {
            throw .invalidResponse("redirect from \(response.url) to an unusable location \(shown)")
        }
        if let reason = RedirectRule.refusal(from: current, to: target, origin: reference.database.restURL(for: .root)) {
            throw .invalidResponse("redirect from \(response.url) to \(shown) refused: \(reason)")
        }
        return target
    }
}
