// SectionValue.swift — the order of sections: the distinct values of one
// child, ascending in Firebase value order.

import LiveModel

/// Section values in ascending Firebase value order (null < false < true
/// < numbers < strings < objects); objects, which Firebase ranks equal,
/// follow one another by their JSON text so that distinct sections never
/// tie.
/// - Complexity: O(size of the values) per comparison.
func sectionPrecedes(_ a: JSONValue, _ b: JSONValue) -> Bool {
    let (x, y) = (SortValue(a), SortValue(b))
    if x != y { return x < y }
    if case .object = x { return a.jsonText(sortedKeys: true) < b.jsonText(sortedKeys: true) }
    return false
}

/// The section of a child under `--section-by path`: the value there, null
/// when missing (an empty object or array counts as missing, as in Firebase).
/// - Complexity: O(1) when the child was prepared with this path, else
///   O(size of the child): a primitive is read from the child's text
///   without parsing it.
func sectionValue(of child: REPLChild, at path: DatabasePath) -> JSONValue {
    if let section = child.section, section.path == path { return section.value }
    if let quick = child.quickValue(at: path) { return quick }
    let value = child.value(at: path)
    if case .null = SortValue(value) { return .null }
    return value
}
