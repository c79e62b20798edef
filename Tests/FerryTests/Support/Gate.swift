/// Holds every arriving task until `count` have arrived, then lets them all through.
actor Gate {
    private let count: Int
    private var arrived = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) {
        self.count = count
    }

    /// Arrives and waits until `count` tasks have.
    func arrive() async {
        arrived += 1
        if arrived >= count {
            let released = waiting
            waiting = []
            for waiter in released { waiter.resume() }
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}
