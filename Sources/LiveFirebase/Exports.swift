// Exports.swift — what `import LiveFirebase` brings with it.
//
// A `FirebaseCollection` holds a `SortedCollection` and is usually shown
// through a `SectionedCollection`: importing this layer imports every layer
// below it.
@_exported import LiveSections
