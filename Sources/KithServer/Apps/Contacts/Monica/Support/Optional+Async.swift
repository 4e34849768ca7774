extension Optional where Wrapped: Sendable {
    /// The value, or what `fallback` makes when there is none (`??` cannot await).
    func asyncOr(_ fallback: () async throws -> Wrapped) async rethrows -> Wrapped {
        if let self { return self }
        return try await fallback()
    }

    /// The transformed value, or nil when there is none (`map` cannot await).
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
