import Foundation
import KithCore

/// What the home page says about each app: a line on what it is for and, where it helps, where
/// the person stands (this year's outreach progress, today's calories against the goal, the
/// family's open reminders and unread notices). Contacts' count comes from `/api` through the
/// page's script, as everything on the Contacts pages does.
struct HomeView {
    let outreach: OutreachService
    let nutrition: NutritionService
    let reminders: ReminderService
    let inbox: NoticeInbox

    func model(for user: AuthenticatedUser, readerZone: TimeZone?) async throws -> HomeModel {
        HomeModel(
            outreach: try await outreachLine(user), food: try await foodLine(user, readerZone: readerZone),
            family: try await familyLine(user))
    }

    /// The year the Outreach page would open, without creating one (showing writes nothing).
    private func outreachLine(_ user: AuthenticatedUser) async throws -> HomeModel.OutreachLine {
        let book = try await outreach.book(for: user)
        guard case .year(let year) = book.selection(now: outreach.clock.now()) else { return .init(empty: true) }
        let progress = book.progress(of: year.id)
        guard progress.total > 0 else { return .init(empty: true, year: year.name) }
        return .init(
            summary: "\(year.name): \(progress.delivered) of \(progress.total) delivered",
            delivered: progress.delivered, total: progress.total, year: year.name)
    }

    /// Today in the reader's zone (else the goal's), as the Food page counts it.
    private func foodLine(_ user: AuthenticatedUser, readerZone: TimeZone?) async throws -> HomeModel.FoodLine {
        let book = try await nutrition.book(for: user)
        let today = nutrition.today(in: readerZone ?? book.goal?.timeZone ?? .gmt)
        let day = book.day(today)
        let eaten = NutritionFormat.kcal(day.totalCalories)
        guard let goal = day.goal, goal > 0 else { return .init(summary: "Today: \(eaten) kcal") }
        return .init(
            summary: "Today: \(eaten) of \(NutritionFormat.kcal(Double(goal))) kcal",
            eaten: Int64(min(max(day.totalCalories.rounded(), 0), Double(goal))), goal: goal)
    }

    private func familyLine(_ user: AuthenticatedUser) async throws -> HomeModel.FamilyLine {
        let snapshot: FamilySnapshot
        do {
            snapshot = try await reminders.snapshot(for: user)
        } catch let error as AppError where error.status == .notFound {
            return .init(none: true)
        }
        let open = snapshot.book.reminders.count { $0.status == .pending }
        let unread = try await inbox.unreadCount(of: user.id.lowercased)
        var parts = [snapshot.family.name, open == 1 ? "1 open reminder" : "\(open) open reminders"]
        if unread > 0 { parts.append(unread == 1 ? "1 unread notice" : "\(unread) unread notices") }
        return .init(summary: parts.joined(separator: " · "))
    }
}
