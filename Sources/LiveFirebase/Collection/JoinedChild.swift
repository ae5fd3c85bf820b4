// JoinedChild.swift — one row of an index-joined collection.
import LiveModel

/// A row of a ``JoinedCollection``: a key listed at the index location and
/// what the data location holds for it. A key whose data is missing stays
/// a row (``State/missing``), so positions always follow the index.
public struct JoinedChild<Model: LiveModelProtocol>: LiveModelProtocol {
    /// What is known of the key's data.
    public enum State {
        /// The data has not arrived yet.
        case loading
        /// The data, as a model.
        case loaded(Model)
        /// There is no data for this key.
        case missing
        /// The data does not make a model; the error says why.
        case failed(any Error)
    }

    /// The key, as listed at the index location.
    public let identifier: Key
    /// What is known of the key's data.
    public var state: State

    /// A row for `identifier` in `state`.
    public init(identifier: Key, state: State) {
        self.identifier = identifier
        self.state = state
    }

    /// The model, when the data is loaded.
    public var model: Model? {
        if case .loaded(let model) = state { return model }
        return nil
    }

    /// A row from the key's data: ``State/missing`` for `null`,
    /// ``State/failed(_:)`` when the model cannot be made from it.
    public init(identifier: Key, dictionary: JSONValue) {
        self.identifier = identifier
        if dictionary.isAbsent {
            state = .missing
        } else {
            do { state = .loaded(try Model(identifier: identifier, dictionary: dictionary)) } catch { state = .failed(error) }
        }
    }

    /// Replaces the row's state with what `dictionary`, the key's new data,
    /// makes, as ``init(identifier:dictionary:)`` does.
    public mutating func update(with dictionary: JSONValue) {
        self = JoinedChild(identifier: identifier, dictionary: dictionary)
    }

    /// The model's value; `null` unless loaded.
    public var dictionary: JSONValue {
        get throws { try model?.dictionary ?? .null }
    }
}
