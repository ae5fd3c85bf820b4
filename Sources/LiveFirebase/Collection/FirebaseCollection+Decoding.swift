// FirebaseCollection+Decoding.swift — a collection of models made straight
// from their snapshots, without naming the data source.
import LiveCollection
import LiveModel

/// A ``FirebaseCollection`` whose models are made from their snapshots
/// (`Model(snapshot:)`, such as any `Decodable` model): the type to store
/// one in.
///
/// ```swift
/// let messages: DecodedCollection<Message> = try FirebaseCollection(of: Message.self, reference: lobby)
/// ```
public typealias DecodedCollection<Model: LiveModelProtocol> = FirebaseCollection<DecodingDataSource<Model>>

extension FirebaseCollection {
    /// A collection of `Item`s made from their snapshots
    /// (`DecodingDataSource`), not started yet; see
    /// ``init(reference:query:mode:dataSource:opener:cache:writer:sharedCache:)``
    /// for the other parameters.
    /// - Throws: as that initializer.
    @inlinable
    public convenience init<Item>(of item: Item.Type, reference: DatabaseReference, query: DatabaseQuery = DatabaseQuery(),
                                  mode: LoadMode = .live, opener: StreamOpener = .database(),
                                  cache: CollectionCache? = nil, writer: WriteSender = .database(),
                                  sharedCache: SharedCache? = nil) throws(DatabaseError)
    where Source == DecodingDataSource<Item> {
        try self.init(reference: reference, query: query, mode: mode, dataSource: DecodingDataSource<Item>(),
                      opener: opener, cache: cache, writer: writer, sharedCache: sharedCache)
    }
}
