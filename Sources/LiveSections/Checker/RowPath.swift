// RowPath.swift — a row's place in a sectioned list: UIKit's IndexPath, on every platform.

/// A row's place: a section and a row within it (UIKit's `IndexPath` with
/// `section` and `row`), ordered section first.
public struct RowPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var section: Int
    public var row: Int

    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    public static func < (a: RowPath, b: RowPath) -> Bool {
        a.section != b.section ? a.section < b.section : a.row < b.row
    }

    public var description: String { "[\(section), \(row)]" }
}
