// Session+Recording.swift — a session kept in a flight recording (`record
// FILE`, `--record FILE`), written after each command.
import Foundation
import LiveFirebase
import LiveModel

extension Session {
    /// Records the session into `url` from now on: the collection as it is
    /// now, then what it is given and what it tells. The file is written
    /// after every command and by ``finishRecording()``; a new query,
    /// sections or load mode starts a new part of it.
    /// - Parameters:
    ///   - url: The file the recording is written to.
    ///   - limit: The most bytes of entries kept (the oldest go first).
    ///   - keepsValues: Keep values as they are, not only keys, sort and
    ///     section values.
    /// - Throws: ``REPLError/recording(_:)`` when the file cannot be
    ///   written; ``REPLError/usage(command:problem:usage:)`` when the
    ///   query has `--where` conditions (a replay would not apply them).
    public func startRecording(to url: URL, limit: Int = 1 << 20, keepsValues: Bool = false) throws(REPLError) {
        if !options.conditions.isEmpty {
            throw .usage(command: "record", problem: "a recording cannot keep --where conditions (a replay would not apply them); query without them first",
                         usage: usage(of: "record"))
        }
        flight?.recorder.stop()
        let recorder = FlightRecorder(limit: limit, keepsValues: keepsValues)
        flight = (recorder, url)
        attachRecorder()
        do { try recorder.write(to: url) } catch {
            recorder.stop()
            flight = nil
            throw .recording(error)
        }
    }

    /// Records the session into `recorder` from now on, written nowhere:
    /// as ``startRecording(to:limit:keepsValues:)`` does otherwise.
    func startRecording(into recorder: FlightRecorder) {
        flight?.recorder.stop()
        flight = (recorder, nil)
        attachRecorder()
    }

    /// Writes the recording a last time and stops it.
    /// - Throws: ``REPLError/recording(_:)`` when the file cannot be written.
    public func finishRecording() throws(REPLError) {
        guard let (recorder, url) = flight else { return }
        flight = nil
        recorder.stop()
        guard let url else { return }
        do { try recorder.write(to: url) } catch { throw .recording(error) }
    }

    /// `record FILE` and `record stop`.
    func record(_ file: String?) throws(REPLError) -> [String] {
        guard let file else {
            guard let url = flight?.url ?? nil else { return ["not recording"] }
            try finishRecording()
            return ["recorded into \(url.path)"]
        }
        let url = URL(fileURLWithPath: file)
        try startRecording(to: url)
        return ["recording into \(url.path); replay it with live-repl --replay \(file)"]
    }

    /// Records the collection as it is now, as a new part (a new query,
    /// sections or load mode).
    func recordAgain() {
        guard flight != nil else { return }
        attachRecorder()
    }

    private func attachRecorder() {
        guard let recorder = flight?.recorder else { return }
        attach(recorder)
    }

    /// Records the collection and its sections into `recorder`.
    func attach(_ recorder: FlightRecorder) {
        if let sectioned = view.sectioned {
            firebase.record(into: recorder, sectionBy: view.sectionPath, sections: sectioned)
        } else {
            firebase.record(into: recorder)
        }
    }

    /// Writes the recording, if the session keeps one (after each command,
    /// and what came between commands with it), its state off the main
    /// actor. A file that cannot be written is said at the end
    /// (``finishRecording()``).
    public func saveRecording() async {
        guard let (recorder, url) = flight, let url else { return }
        try? await recorder.save(to: url)
    }
}
