import LiveFirebase
import Observation
import SwiftUI

struct Player: LiveModelProtocol, Codable {
    var identifier: Key
    var name: String
    var team: String
    var score: Int
}

/// What the screen shows: the players of a location, a section per team,
/// and the collection's state.
@MainActor @Observable
final class Leaderboard {
    let players: DecodedCollection<Player>
    let teams: ObservedSections<Player, String>
    let state: ObservedFirebaseState<DecodingDataSource<Player>>

    init(reference: DatabaseReference) throws {
        players = try FirebaseCollection(of: Player.self, reference: reference,
                                         query: DatabaseQuery(order: .child("score")))
        teams = ObservedSections(SectionedCollection(players.collection) { $0.team })
        state = ObservedFirebaseState(players)
    }

    func add(_ name: String, team: String) async throws {
        try await players.push(Player(identifier: "new", name: name, team: team, score: 0))
    }
}

/// Shown inside a `NavigationStack` (for its toolbar).
struct LeaderboardView: View {
    @State var board: Leaderboard

    var body: some View {
        SectionedList(board.teams, phase: board.state.listPhase) { player in
            Text("\(player.name)  \(player.score)")
        } header: { team in
            Text(team.title)
        } empty: {
            Text("No players yet")
        } loading: {
            ProgressView()
        } failed: { message in
            Text(message)
        }
        .toolbar {
            // A refused write is undone on screen; its error is board.state.lastError.
            Button("Add") { Task { try? await board.add("Ada", team: "red") } }
        }
        .task { try? await board.players.start() }   // a failure shows as the list's `failed` content
        .onDisappear { board.players.stop() }
    }
}
