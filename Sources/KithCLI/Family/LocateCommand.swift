import ArgumentParser
import Foundation
import KithCore
import KithKit

extension RemindersCommand {
    /// `kith reminders locate ID --lat --lon [--accuracy M]`: stands in for a phone's location
    /// service. A reminder without a place gets this one; after that each call is a reading that
    /// `MovementRule` judges against the place (`FamilyStore.report`).
    struct Locate: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Report where you are for a reminder: the first report sets its place, later ones are readings.",
            discussion:
                "A reading less accurate than 20 m is ignored; within 5 m of the place nothing changes; 5 to 20 m away moves the place; farther away tells the parents at once and stops tracking the reminder."
        )
        @OptionGroup var options: ClientOptions
        @Argument(help: "The reminder's id or a unique prefix of it.") var id: String
        @OptionGroup var place: PlaceOptions

        func validate() throws { _ = try place.requiredPoint() }

        func run(_ console: Console) async throws {
            try await RemindersCommand.run(options, console) { session in
                let family = try session.knownFamily()
                let reminder = try session.reminder(id)
                let point = try place.requiredPoint()
                let located: LocateJSON
                if reminder.location == nil {
                    let placed = try session.family.setLocation(reminder.id, point: point, accuracy: place.metres)
                    located = LocateJSON(outcome: .set, distance: nil, reminder: ReminderJSON(placed, in: family))
                } else {
                    let outcome = try session.family.report(point, accuracy: place.metres, for: reminder.id)
                    let after = try session.family.reminder(reminder.id) ?? reminder
                    located = LocateJSON(outcome, reminder: ReminderJSON(after, in: family))
                }
                session.output.emit(located) { located.text }
            }
        }
    }
}

/// `--json` of `kith reminders locate`: what the report did, and the reminder after it.
struct LocateJSON: Encodable {
    enum Outcome: String, Encodable {
        /// The reminder had no place: it has this one now.
        case set
        /// `MovementRule`'s answers.
        case ignored, unchanged, updated, moved
    }

    let outcome: Outcome
    /// Metres from the place the reading was judged against.
    let distance: Double?
    let reminder: ReminderJSON

    init(outcome: Outcome, distance: Double?, reminder: ReminderJSON) {
        self.outcome = outcome
        self.distance = distance
        self.reminder = reminder
    }

    init(_ outcome: MovementRule.Outcome, reminder: ReminderJSON) {
        switch outcome {
        case .ignored: self.init(outcome: .ignored, distance: nil, reminder: reminder)
        case .unchanged(let distance): self.init(outcome: .unchanged, distance: distance, reminder: reminder)
        case .updated(let distance): self.init(outcome: .updated, distance: distance, reminder: reminder)
        case .moved(let distance): self.init(outcome: .moved, distance: distance, reminder: reminder)
        }
    }

    var text: String {
        let metres = "\(Int((distance ?? 0).rounded())) m"
        let what: String
        switch outcome {
        case .set:
            let place = reminder.place.map { FamilyText.place($0.latitude, $0.longitude, accuracy: $0.accuracy) } ?? ""
            return "Set the place of \(reminder.title): \(place)."
        case .ignored:
            what = "ignored (not accurate enough: readings count within \(Int(MovementRule.worstTrustedAccuracy)) m)"
        case .unchanged: what = "still here (\(metres) from its place)"
        case .updated: what = "on the move (\(metres) from its place; reading sent)"
        case .moved: what = "moved away \(metres): the parents are told"
        }
        return "\(reminder.title): \(what)."
    }
}
