import Foundation

/// What stands in the way of deleting an account (an app's rule, such as a family's only parent),
/// and the way out, so the account page says it before the person tries.
struct AccountDeletionBlocker: Sendable {
    let reason: String
    let wayOut: String
    /// The page where the way out is, and its link's words.
    let address: String
    let label: String
}
