// PackageVersion.swift — the version of this package, as CHANGELOG.md
// names it.

/// The version of LiveCollection this code is, as `CHANGELOG.md` lists it
/// (a test keeps the two the same). `live-repl --version` and
/// `live-server --version` print it.
public enum PackageVersion {
    /// The version, `major.minor.patch`. Below 1.0, a minor version may
    /// change the public API (the changelog says how).
    public static let current = "0.1.0"
}
