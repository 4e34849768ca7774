import Testing

@testable import KithServer

@Suite("Monica contact presentation")
struct ContactPresenterTests {
    /// ASCII names take a byte path, others Foundation's folding: both give Monica's initials.
    @Test(arguments: [
        ("John Freaking Doe", "JFD"), ("  ada\tlovelace ", "al"), ("-ann o'neil 3rd", "o3"), ("Émile Zola", "EZ"),
        ("Zoë\nÅsa", "ZA"), ("", ""), ("x", "x"),
    ])
    func initialsAreTheFirstLetterOrDigitOfEachWord(_ name: String, _ initials: String) {
        #expect(ContactPresenter.initials(name) == initials)
    }
}
