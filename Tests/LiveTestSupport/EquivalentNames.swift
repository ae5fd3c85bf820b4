/// Member names and keys that Swift's `String` calls equal (canonical
/// equivalence) but whose code units differ: each group must stay as many
/// distinct names as it has entries.
package enum EquivalentNames {
    package static let groups: [[String]] = [
        ["\u{E9}", "e\u{301}"],                                       // é precomposed / decomposed
        ["\u{1EAD}", "a\u{323}\u{302}", "a\u{302}\u{323}",             // ậ: marks in either order,
         "\u{E2}\u{323}", "\u{1EA1}\u{302}"],                          // and partly precomposed
        ["\u{1EA5}", "a\u{302}\u{301}", "\u{E2}\u{301}"],              // ấ
        ["\u{D55C}", "\u{1112}\u{1161}\u{11AB}", "\u{D558}\u{11AB}"],  // 한: syllable / jamo / LV + T
        ["\u{C5}", "A\u{30A}", "\u{212B}"],                            // Å / A + ring / Angstrom sign
        ["K", "\u{212A}"],                                             // K / Kelvin sign
        ["\u{3A9}", "\u{2126}"],                                       // Ω / Ohm sign
    ]

    /// Every name of every group.
    package static var all: [String] { groups.flatMap { $0 } }

    /// The name as its scalars, for failure messages.
    package static func scalars(_ name: String) -> String {
        name.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
    }

    /// JSON text of an object with one member per name, valued by `value`.
    package static func objectText(_ names: [String] = all, value: (Int, String) -> String) -> String {
        "{" + names.enumerated().map { i, name in "\"\(name)\": \(value(i, name))" }.joined(separator: ", ") + "}"
    }
}
