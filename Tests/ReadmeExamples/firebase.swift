// What the README's Firebase example leaves to the app: its sign-in's ID
// token (compiled beside the example by Tools/check-readme).
func idToken(_ forceRefresh: Bool) async throws -> String { "token" }
