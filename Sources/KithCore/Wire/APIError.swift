import Foundation

/// The one error shape every `/v1` route answers with:
/// `{"error":{"code":"snake_case","message":"human text","field":"name"}}`.
public struct APIErrorBody: Codable, Sendable, Equatable {
    public var error: APIErrorDetail

    public init(_ error: APIErrorDetail) { self.error = error }
}

public struct APIErrorDetail: Codable, Sendable, Equatable, Error {
    /// A stable machine-readable code; see `ErrorCode`.
    public var code: String
    /// A sentence a person can read.
    public var message: String
    /// The input at fault, when exactly one is.
    public var field: String?

    public init(code: String, message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    public init(_ code: ErrorCode, _ message: String, field: String? = nil) {
        self.init(code: code.rawValue, message: message, field: field)
    }
}

/// Every error code that crosses the wire. Clients switch on these, so they never change meaning.
public enum ErrorCode: String, Codable, Sendable, CaseIterable {
    case badRequest = "bad_request"
    case invalidEmail = "invalid_email"
    case weakPassword = "weak_password"
    case passwordTooLong = "password_too_long"
    case emailTaken = "email_taken"
    case invalidCredentials = "invalid_credentials"
    case tooManyAttempts = "too_many_attempts"
    case unauthorized = "unauthorized"
    case tokenExpired = "token_expired"
    case invalidToken = "invalid_token"
    case validationFailed = "validation_failed"
    case notFound = "not_found"
    case payloadTooLarge = "payload_too_large"
    case methodNotAllowed = "method_not_allowed"
    case csrfFailed = "csrf_failed"
    case internalError = "internal_error"
    /// The server's disk is full: nothing was written; try again later (503).
    case storageFull = "storage_full"
    case forbidden = "forbidden"
    /// Families (docs/family.md): one family per user, at least one parent, join codes.
    case alreadyInFamily = "already_in_family"
    case notInFamily = "not_in_family"
    case lastParent = "last_parent"
    case invalidJoinCode = "invalid_join_code"

    // Sync (docs/sync.md): a mutation's refusals that are not the person's input.
    /// The record was deleted; a change to it is refused.
    case deleted = "deleted"
    /// The server or device has no entity of that name.
    case unknownEntity = "unknown_entity"
    /// The change was stamped too far ahead of the server's clock: the device re-stamps and resends.
    case clockSkew = "clock_skew"

    // Outreach (docs/outreach.md).
    case duplicateYear = "duplicate_year"
    case lastYear = "last_year"
    /// A CSV file's row is refused, by its line; nothing is imported.
    case invalidCSV = "invalid_csv"
    /// Someone with the same names and enterprise is already in the year: the page asks first.
    case samePerson = "same_person"

    // Nutrition (docs/nutrition.md).
    /// A day outside the retention window.
    case outsideRetention = "outside_retention"
    /// A day's id is not the one derived from the account and date.
    case dayID = "day_id"
    /// A day that is still within the window is kept.
    case dayKept = "day_kept"
    /// The goal's id is not the account's one.
    case goalID = "goal_id"
    /// The goal is cleared, never deleted.
    case goalKept = "goal_kept"

    // Family (docs/family.md): what the rules refuse a member.
    /// The member's role or part in the reminder does not allow it.
    case notAllowed = "not_allowed"
    case notAMember = "not_a_member"
    case childrenAssignThemselves = "children_assign_themselves"
    case dueInPast = "due_in_past"
    /// A completion is undone only within `FamilyLimits.undoSeconds`.
    case undoExpired = "undo_expired"
    case snoozeLimit = "snooze_limit"
    /// A completed reminder is read-only.
    case completed = "completed"
    /// A location reading for a reminder whose place is not tracked.
    case notTracked = "not_tracked"
    /// Completing a reminder whose checklist has unticked items, not confirmed (asked first).
    case untickedItems = "unticked_items"

    // The command line's own refusals (docs/client.md).
    case unreadableFile = "unreadable_file"
    case ambiguousID = "ambiguous_id"
    case ambiguousMember = "ambiguous_member"
    case unknownMember = "unknown_member"
    /// An error with no code of its own, reported as it came.
    case error = "error"
}
