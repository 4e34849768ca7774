/// Events produced on one task (a socket's reader) and awaited on another (the test) in order, each
/// wait with a deadline, so a test waits for what it expects instead of sleeping and looking.
/// One consumer at a time.
public actor Inbox<Element: Sendable> {
    private var buffered: [Element] = []
    private var waiter: (id: UInt64, continuation: CheckedContinuation<Element?, Never>)?
    private var nextWaiterID: UInt64 = 0

    public init() {}

    public func put(_ element: Element) {
        if let waiter {
            self.waiter = nil
            waiter.continuation.resume(returning: element)
        } else {
            buffered.append(element)
        }
    }

    /// The next element, waiting at most `limit` for it; nil when none came in time.
    public func next(within limit: Duration) async -> Element? {
        if !buffered.isEmpty { return buffered.removeFirst() }
        precondition(waiter == nil, "Inbox has one consumer at a time")
        nextWaiterID += 1
        let id = nextWaiterID
        let timer = Task { [weak self] in
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            await self?.expire(id)
        }
        let element = await withCheckedContinuation { waiter = (id, $0) }
        timer.cancel()
        return element
    }

    private func expire(_ id: UInt64) {
        guard let waiter, waiter.id == id else { return }
        self.waiter = nil
        waiter.continuation.resume(returning: nil)
    }
}
