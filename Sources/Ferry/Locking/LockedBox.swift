/// A value behind a lock, for small state read and written whole.
final class LockedBox<Value: Sendable>: Sendable {
    private let storage: Locked<Value>

    init(_ value: Value) {
        storage = Locked(value)
    }

    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
