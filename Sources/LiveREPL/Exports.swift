// Exports.swift — what `import LiveREPL` brings with it.
//
// A session runs over a `FirebaseCollection` and reports sections:
// importing the REPL's engine imports every layer below it.
@_exported import LiveFirebase
