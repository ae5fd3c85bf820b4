// Exports.swift — what `import LiveServer` brings with it.
//
// The server's API names the model layer's types (`JSONValue`, `Key`,
// `DatabasePath`): importing the server imports that layer too.
@_exported import LiveModel
