import Foundation

/// Readings and movements: only the assignee's device knows where the assignee is, so only the
/// assignee sends readings (`reading…`) and movements (`movedAt`). A movement says where it was
/// seen: a reading 20 m or more from the place, with tracking stopped, so no device raises an
/// alert that the rule of movement would not (`MovementRule`).
extension FamilyRules {
    static let readingFields = ReminderFields.placeFieldNames.filter { $0.hasPrefix("reading") }

    static func movementProblem(
        _ mutation: Mutation, current: [String: JSONTree], merged: [String: JSONTree], actor: String
    )
        -> APIErrorDetail?
    {
        func newlySet(_ name: String) -> Bool {
            guard let given = mutation.fields[name], given != .null else { return false }
            return given != (current[name] ?? .null)
        }
        let moves = newlySet(ReminderFields.movedAt)
        guard moves || readingFields.contains(where: newlySet) else { return nil }
        guard current[ReminderFields.assigneeId]?.stringValue?.lowercased() == actor else {
            return refuse(.notAllowed, "Only the person the reminder is for sends where they are.")
        }
        guard moves else { return nil }
        guard let place = ReminderLocation(fields: merged)?.point, let reading = ReminderLocation.reading(merged),
            MovementRule.isAway(reading, from: place)
        else {
            return refuse(
                .validationFailed, "A movement comes with a reading 20 m or more from the reminder's place.",
                field: ReminderFields.movedAt)
        }
        guard merged[ReminderFields.tracking]?.boolValue == false else {
            return refuse(.validationFailed, "Tracking stops with a movement.", field: ReminderFields.tracking)
        }
        return nil
    }
}
