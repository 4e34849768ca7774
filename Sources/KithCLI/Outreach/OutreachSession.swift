import Foundation
import KithCore
import KithKit

/// What every `kith outreach` command works with: the profile's device session (local store, sync)
/// and the Outreach app over it. On the main actor, as `OutreachStore` is.
@MainActor
struct OutreachSession: AppSession {
    let device: DeviceSession
    let outreach: OutreachStore
    var output: Output { device.output }

    init(_ profile: Profile, output: Output) async throws {
        device = try await DeviceSession(profile, output: output)
        outreach = OutreachStore(store: device.store)
    }

    func sync() async { await device.syncIfReachable() }

    /// The year named `name`, or the selected one.
    func year(named name: String?) throws -> OutreachYear {
        guard let name else { return try outreach.selectedYear() }
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard let year = try outreach.years().first(where: { $0.name.caseInsensitiveCompare(trimmed) == .orderedSame })
        else {
            throw KithError.invalid(APIErrorDetail(.notFound, "No year named \(trimmed)."))
        }
        return year
    }

    /// The person whose id is `text` or starts with it (a unique prefix), in any year.
    func contact(_ text: String) throws -> OutreachContact {
        let match = try DeviceSession.record(text, among: try outreach.store.records("outreach.contact"), kind: "person")
        guard let contact = try outreach.contact(match.id) else {
            throw KithError.invalid(APIErrorDetail(.notFound, "No person with id \(text)."))
        }
        return contact
    }
}
