import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Two servers on one PostgreSQL database serve one address book: a phone syncing through either
/// sees every change made through the other, each once, and changes made at once through both
/// all arrive with change numbers no two members share.
@Suite("DAV across servers", .enabled(if: Engine.adminURL != nil, "KITH_TEST_DATABASE_URL is not set"))
struct DAVAcrossServersTests {
    @Test func aPhoneSyncingThroughEitherServerSeesEveryChangeOnce() async throws {
        try await TestServer.withRouter(.postgres) { first, firstClient in
            let shared = try #require(first.config.databaseURL)
            try await TestServer.withRouter(.postgres, sharedDatabaseURL: shared) { second, secondClient in
                let onFirst = try await DAVPhone.make("across@example.com", firstClient)
                let onSecond = DAVPhone(
                    email: onFirst.email, userID: onFirst.userID, bearer: onFirst.bearer,
                    appPassword: onFirst.appPassword, client: secondClient)
                let start = try await onFirst.syncCollection(onFirst.addressBook, token: "")
                let token = try #require(start.syncToken)

                // Twelve cards written at once, half through each server, while both are read.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<12 {
                        let phone = index.isMultiple(of: 2) ? onFirst : onSecond
                        group.addTask {
                            let made = try await phone.put(
                                phone.addressBook + "c\(index).vcf", CardText.card(uid: "c\(index)", given: "Card\(index)"))
                            #expect(made.status == .created, "\(made.text)")
                        }
                        group.addTask { _ = try await phone.syncCollection(phone.addressBook, token: "") }
                    }
                    try await group.waitForAll()
                }
                let throughSecond = try await onSecond.syncCollection(onSecond.addressBook, token: token)
                #expect(throughSecond.hrefs == Set((0..<12).map { onSecond.addressBook + "c\($0).vcf" }))
                let throughFirst = try await onFirst.syncCollection(onFirst.addressBook, token: token)
                #expect(throughFirst.hrefs == throughSecond.hrefs && throughFirst.syncToken == throughSecond.syncToken)

                // A change through /api on one server reaches a sync through the other, alone.
                let contacts = try await onFirst.api(.get, "/api/contacts?limit=100")
                let id = try #require(contacts["data"]?[0]?["id"]?.intValue)
                _ = try await onFirst.api(
                    .put, "/api/contacts/\(id)",
                    #"{"first_name":"Renamed","is_birthdate_known":false,"is_deceased":false,"is_deceased_date_known":false}"#)
                let after = try await onSecond.syncCollection(
                    onSecond.addressBook, token: try #require(throughSecond.syncToken), data: "card:address-data")
                #expect(after.members.count == 1)
                #expect(after.members.first?.found["address-data"]?.contains("N:;Renamed;;;") == true)
                #expect(
                    try await onFirst.syncCollection(onFirst.addressBook, token: try #require(after.syncToken)).members
                        .isEmpty)
            }
        }
    }
}
