/// The currency an account writes its gifts' values in, listed in `Migrations.all` by version.
extension Migrations {
    static let accountCurrency = Migration(version: 18, name: "account currency") { _ in
        // Null until the person chooses: US dollars, Monica's default (`MonicaCurrency`).
        ["ALTER TABLE monica_accounts ADD COLUMN currency TEXT"]
    }
}
