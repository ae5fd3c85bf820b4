// Duration+Seconds.swift — a duration as seconds, for rates and reports.

extension Duration {
    /// The duration in seconds.
    package var inSeconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
