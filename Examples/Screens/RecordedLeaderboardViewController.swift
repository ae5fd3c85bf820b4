import Foundation
import LiveFirebase
import UIKit

struct Ranked: LiveModelProtocol, Codable {
    var identifier: Key
    var name: String
    var team: String
    var score: Int
}

/// A leaderboard table whose batches a flight recording keeps: a batch
/// UIKit would refuse is written out, with what led to it, before UIKit
/// raises. `live-repl --replay leaderboard.recording` names the change.
final class RecordedLeaderboardViewController: UITableViewController {
    private let players: DecodedCollection<Ranked>
    private let teams: SectionedCollection<Ranked, String>
    private let recorder = FlightRecorder()   // 1 MiB at most, values redacted
    private var steps: ObservationToken?

    init(reference: DatabaseReference) throws {
        players = try FirebaseCollection(of: Ranked.self, reference: reference,
                                         query: DatabaseQuery(order: .child("score")))
        teams = SectionedCollection(players.collection) { $0.team }
        super.init(style: .plain)
        players.record(into: recorder, sectionBy: "team", sections: teams)
        recorder.exportOnRejection = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?
            .appendingPathComponent("leaderboard.recording")
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "player")
        // Each stage checked with UIKit's rules, inside its batch, against what the data source says.
        let list = RecordedListTarget(TableViewTarget(tableView), counts: { [teams] in teams.counts }, recorder: recorder)
        let connector = ListConnector(target: list)
        connector.isReady = true
        steps = teams.observeSteps { connector.apply($0) }
    }

    override func numberOfSections(in tableView: UITableView) -> Int { teams.numberOfSections }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        teams.numberOfRows(inSection: section)
    }

    override func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? {
        teams.title(ofSection: section)
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "player", for: indexPath)
        let player = teams[RowPath(section: indexPath.section, row: indexPath.row)]
        var content = cell.defaultContentConfiguration()
        content.text = player.name
        content.secondaryText = "\(player.score)"
        cell.contentConfiguration = content
        return cell
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        Task { try await players.start() }
    }

    override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        players.stop()
    }
}
