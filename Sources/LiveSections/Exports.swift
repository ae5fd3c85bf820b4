// Exports.swift — what `import LiveSections` brings with it.
//
// Sections are made over a `SortedCollection`, whose API names the model
// layer's types: importing this layer imports both layers below it.
@_exported import LiveCollection
