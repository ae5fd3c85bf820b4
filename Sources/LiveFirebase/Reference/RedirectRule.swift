// RedirectRule.swift — where a request may follow a redirect with its
// credential: the one rule of the REST client and the stream.
import Foundation

/// Whether a redirect may be followed with the request's credential.
///
/// The credential goes only where the database is: the same host, or a
/// host of the same parent domain (Firebase hands a database over to a
/// server of its own domain, `xyz.firebaseio.com` to
/// `s-usc1b-nss-201.firebaseio.com`); and never from `https` to `http`,
/// which would send it unencrypted. Everything else is refused rather than
/// followed without it, so that the reason is told.
enum RedirectRule {
    /// Why following `target` from `current` (a request first sent to
    /// `origin`) is refused; nil when it may be followed.
    static func refusal(from current: URL?, to target: URL, origin: URL?) -> String? {
        guard let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = target.host?.lowercased() else {
            return "its location is not an http(s) URL"
        }
        if scheme == "http", current?.scheme?.lowercased() == "https" {
            return "it would send the request and its credential unencrypted (https to http)"
        }
        guard let home = (origin ?? current)?.host?.lowercased() else { return nil }
        guard host == home || (parent(of: host) != nil && parent(of: host) == parent(of: home)) else {
            return "it leads to another host (\(host), not \(home)), which the credential is not for"
        }
        return nil
    }

    /// `host` without its first label, when that still names a domain
    /// below a top-level one (`a.b.com` → `b.com`); nil for an address, a
    /// single label or a name directly under a top-level domain.
    private static func parent(of host: String) -> Substring? {
        guard !host.hasPrefix("["), !host.allSatisfy({ $0.isNumber || $0 == "." }) else { return nil }
        guard let dot = host.firstIndex(of: ".") else { return nil }
        let rest = host[host.index(after: dot)...]
        return rest.contains(".") ? rest : nil
    }
}
