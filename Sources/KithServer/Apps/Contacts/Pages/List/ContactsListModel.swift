import Foundation

/// The contact list (contacts.mustache); empty, it tells what to give a Monica app.
struct ContactsListModel: ContactsPageModel {
    static let template = "contacts"
    static let scriptFiles = ["contacts-kit.js", "contacts.js", "contacts-transfer.js"]

    let serverURL: String
    let apiURL: String

    init(serverURL: String) {
        self.serverURL = serverURL
        apiURL = serverURL + "/api"
    }
}
