extension Optional where Wrapped: Sendable {
    /// The value, or what `fallback` makes when there is none (`??` cannot await).
    func asyncOr(_ fallback: () async throws -> Wrapped) async rethrows -> Wrapped {
        if let self { return self }
        return try await fallback()
    }
}
