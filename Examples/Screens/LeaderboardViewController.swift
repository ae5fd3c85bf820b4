import LiveFirebase
import UIKit

struct Player: LiveModelProtocol, Codable {
    var identifier: Key
    var name: String
    var team: String
    var score: Int
}

/// Section headers from the teams.
final class TeamsDataSource: UITableViewDiffableDataSource<String, Key> {
    override func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? {
        sectionIdentifier(for: section)
    }
}

final class LeaderboardViewController: UITableViewController {
    private let players: DecodedCollection<Player>
    private let teams: SectionedCollection<Player, String>
    private var dataSource: TeamsDataSource?
    private var changes: DiffableChanges<Player, String>?

    init(reference: DatabaseReference) throws {
        players = try FirebaseCollection(of: Player.self, reference: reference,
                                         query: DatabaseQuery(order: .child("score")))
        teams = SectionedCollection(players.collection) { $0.team }
        super.init(style: .plain)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "player")
        let dataSource = TeamsDataSource(tableView: tableView) { [players] tableView, indexPath, key in
            let cell = tableView.dequeueReusableCell(withIdentifier: "player", for: indexPath)
            var content = cell.defaultContentConfiguration()
            content.text = players.collection.model(for: key)?.name
            content.secondaryText = players.collection.model(for: key).map { "\($0.score)" }
            cell.contentConfiguration = content
            return cell
        }
        self.dataSource = dataSource
        changes = teams.connect(dataSource)          // one animated snapshot per change
        navigationItem.rightBarButtonItem = UIBarButtonItem(systemItem: .add, primaryAction: UIAction { [players] _ in
            // A refused write is undone on screen, and its error thrown here.
            Task { try await players.push(Player(identifier: "new", name: "Ada", team: "red", score: 0)) }
        })
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        Task { try await players.start() }   // again after a stop: the smallest change, as one snapshot
    }

    override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        players.stop()                       // keeps the rows; the next start resyncs
    }
}
