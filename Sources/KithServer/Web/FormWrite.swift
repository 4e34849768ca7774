import Hummingbird
import KithCore

extension OperationWriter {
    /// Applies the operation a form asked for, under the form's write key, and redirects the
    /// browser (302, which every browser follows with a GET, so going back never sends the form
    /// again): to `location`'s answer for the output, or, when the same form arrives again with its
    /// key, to where the first one went, with nothing written.
    func submit<Output: Sendable>(
        _ operation: RecordOperation<Output>, by user: AuthenticatedUser, form: WebForm,
        location: @escaping @Sendable (Output) -> String
    ) async throws -> Response {
        let target = try await apply(
            operation, userID: user.id.lowercased, key: form.writeKey, request: form.request, answer: location)
        return .redirect(to: target, type: .found)
    }
}
