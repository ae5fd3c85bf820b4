// RowPath.swift — a row's place in a sectioned list: UIKit's IndexPath, on every platform.

/// A row's place: a section and a row within it (UIKit's `IndexPath` with
/// `section` and `row`), ordered section first.
public struct RowPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section's index.
    public var section: Int
    /// The row's index within its section.
    public var row: Int

    /// The path of row `row` in section `section`.
    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    /// Whether `a` comes before `b`: by section, then by row.
    public static func < (a: RowPath, b: RowPath) -> Bool {
        a.section != b.section ? a.section < b.section : a.row < b.row
    }

    /// The path as `[section, row]`, as the checker's messages write it.
    public var description: String { "[\(section), \(row)]" }
}
