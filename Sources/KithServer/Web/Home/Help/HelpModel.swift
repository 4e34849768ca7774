import Foundation

/// The help page (help.mustache): what each app is for, and this server's addresses for a Monica
/// app and the command line.
struct HelpModel: PageModel {
    static let template = "help"

    let serverURL: String
    let apiURL: String
    var section: WebSection { .help }

    init(serverURL: String) {
        self.serverURL = serverURL
        apiURL = serverURL + "/api"
    }
}
