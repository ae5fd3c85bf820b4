// TerminalSafeTests.swift — no key or value can act on the terminal that
// shows it: controls and bidirectional overrides are written as escapes.
@testable import LiveREPL
import LiveModel
import Testing

@Suite("Terminal-safe output")
struct TerminalSafeTests {
    @Test("C0, DEL, C1 (CSI among them) and bidi controls are escaped; other text is left as it is")
    func escaped() {
        #expect("plain é 😀 e\u{301}".terminalSafe == "plain é 😀 e\u{301}")
        #expect("a\u{1B}[2Jb".terminalSafe == #"a\u{1B}[2Jb"#)
        #expect("x\u{9B}31my".terminalSafe == #"x\u{9B}31my"#)
        #expect("\u{7F}\u{85}".terminalSafe == #"\u{7F}\u{85}"#)
        #expect("user\u{202E}fdp.exe".terminalSafe == #"user\u{202E}fdp.exe"#)
        #expect("\u{2066}\u{2069}\u{200E}\u{061C}".terminalSafe == #"\u{2066}\u{2069}\u{200E}\u{61C}"#)
    }

    @Test("a key with a C1 control and a bidi override is shown escaped by show")
    func shownKeys() throws {
        let output = HumanOutput(colors: false)
        let lines = output.show([ShownSection(value: .null, rows: [
            ShownRow(key: Key("k\u{9B}2J\u{202E}x"), sortValue: "\u{9B}", summary: "s\u{202E}"),
        ])])
        #expect(lines.allSatisfy { !$0.unicodeScalars.contains { $0.value == 0x9B || $0.value == 0x202E } }, "\(lines)")
    }
}
