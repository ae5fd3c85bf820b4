// Exports.swift — what `import LiveCollection` brings with it.
//
// A sorted collection's API names the model layer's types (`Key`,
// `LiveModelProtocol`, `QueryOrder`, `Snapshot`, `SortValue`), so importing
// this layer imports that one too: one import per use.
@_exported import LiveModel
