import LiveFirebase
import LiveServer

/// A player, as stored at /players/<key>.
struct Player: LiveModelProtocol, Codable {
    var identifier: Key
    var name: String
    var team: String
    var score: Int
}

/// An update of one member: the server adds to the score.
struct Bonus: Encodable { var score: ServerValue }

// The embedded local server here; in an app, your database's URL and a credential.
let server = try await LiveServer.start(LiveServerConfiguration())
let players = try FirebaseCollection(of: Player.self,
                                     reference: try DatabaseReference(url: server.url, path: "/players"),
                                     query: DatabaseQuery(order: .child("score")), mode: .all)
let teams = SectionedCollection(players.collection) { $0.team }   // a section per team, rows by score

// What a UITableView would be told, checked with UIKit's rules (on Linux too).
let list = CheckingListTarget { teams.counts }
let connector = ListConnector(target: list)
connector.isReady = true
let steps = teams.observeSteps { connector.apply($0) }

try await players.start()
var keys: [String: Key] = [:]
for (name, team, score) in [("Ada", "red", 42), ("Grace", "blue", 37), ("Alan", "red", 12)] {
    keys[name] = try await players.push(Player(identifier: "new", name: name, team: team, score: score))
}
try await players.update(Bonus(score: .increment(40)), at: DatabasePath(keys["Alan"]!.string))

for section in 0..<teams.numberOfSections {
    print(teams.title(ofSection: section))
    for row in 0..<teams.numberOfRows(inSection: section) {
        let player = teams[RowPath(section: section, row: row)]
        print("  \(player.name) \(player.score)")
    }
}
print("a list view took \(list.batches) batches, refused \(list.rejected.count)")
steps.cancel()
players.stop()
try await server.shutdown()
