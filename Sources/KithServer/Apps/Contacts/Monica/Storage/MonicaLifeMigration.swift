/// The rest of a Monica account's everyday records: calls, conversations and their messages,
/// debts, pets, the journal (entries and day ratings), places, companies, occupations and life
/// events. Listed in `Migrations.all` by version. Same conventions as `monicaContacts`: integer
/// ids, `account_id` on every row, times in milliseconds, days as `Y-m-d` text, booleans 0/1.
extension Migrations {
    static let monicaLife = Migration(version: 20, name: "monica calls, debts, pets, journal, work, life events") {
        engine in
        let key = serialKey(engine)
        let account = "account_id BIGINT NOT NULL REFERENCES monica_accounts(id) ON DELETE CASCADE"
        let contact = "contact_id BIGINT NOT NULL REFERENCES monica_contacts(id) ON DELETE CASCADE"
        let times = "created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL"
        /// A contact-owned table's indexes: by contact for deletions cascading from a contact and
        /// for the contact's statistics; by account and contact for a contact's list; by account
        /// and creation for the index.
        func ownedIndexes(_ table: String) -> [String] {
            [
                "CREATE INDEX \(table)_contact ON \(table)(contact_id)",
                "CREATE INDEX \(table)_account_contact ON \(table)(account_id, contact_id)",
                "CREATE INDEX \(table)_created ON \(table)(account_id, created_at, id)",
            ]
        }
        let calls = [
            """
            CREATE TABLE monica_calls (
                \(key), uuid TEXT NOT NULL, \(account), \(contact),
                called_at BIGINT NOT NULL, content TEXT, contact_called BIGINT NOT NULL DEFAULT 0, \(times))
            """
        ]
        let debts = [
            """
            CREATE TABLE monica_debts (
                \(key), uuid TEXT NOT NULL, \(account), \(contact),
                in_debt TEXT NOT NULL, status TEXT NOT NULL, amount DOUBLE PRECISION NOT NULL, reason TEXT, \(times))
            """
        ]
        // Pet categories are Monica's fixed list (`PetCategories`), not a table.
        let pets = [
            """
            CREATE TABLE monica_pets (
                \(key), uuid TEXT NOT NULL, \(account), \(contact),
                pet_category_id BIGINT NOT NULL, name TEXT, \(times))
            """
        ]
        let conversations = [
            """
            CREATE TABLE monica_conversations (
                \(key), uuid TEXT NOT NULL, \(account), \(contact),
                contact_field_type_id BIGINT NOT NULL REFERENCES monica_contact_field_types(id) ON DELETE CASCADE,
                happened_at BIGINT NOT NULL, \(times))
            """,
            "CREATE INDEX monica_conversations_type ON monica_conversations(contact_field_type_id)",
            """
            CREATE TABLE monica_messages (
                \(key), uuid TEXT NOT NULL, \(account), \(contact),
                conversation_id BIGINT NOT NULL REFERENCES monica_conversations(id) ON DELETE CASCADE,
                content TEXT NOT NULL, written_at BIGINT NOT NULL, written_by_me BIGINT NOT NULL DEFAULT 0, \(times))
            """,
            "CREATE INDEX monica_messages_conversation ON monica_messages(conversation_id, written_at, id)",
            "CREATE INDEX monica_messages_contact ON monica_messages(contact_id)",
        ]
        let journal = [
            """
            CREATE TABLE monica_journal_entries (
                \(key), uuid TEXT NOT NULL, \(account), title TEXT NOT NULL, post TEXT NOT NULL, date TEXT NOT NULL,
                \(times))
            """,
            "CREATE INDEX monica_journal_entries_created ON monica_journal_entries(account_id, created_at, id)",
            // One rating a day: how the day went (1 bad, 2 so so, 3 great), Monica's mood screen.
            """
            CREATE TABLE monica_journal_days (
                \(key), uuid TEXT NOT NULL, \(account), date TEXT NOT NULL, rate BIGINT NOT NULL, comment TEXT,
                \(times))
            """,
            "CREATE UNIQUE INDEX monica_journal_days_date ON monica_journal_days(account_id, date)",
            "CREATE INDEX monica_journal_days_created ON monica_journal_days(account_id, created_at, id)",
        ]
        let work = [
            """
            CREATE TABLE monica_places (
                \(key), uuid TEXT NOT NULL, \(account),
                street TEXT, city TEXT, province TEXT, postal_code TEXT, country TEXT,
                latitude DOUBLE PRECISION, longitude DOUBLE PRECISION, \(times))
            """,
            "CREATE INDEX monica_places_created ON monica_places(account_id, created_at, id)",
            """
            CREATE TABLE monica_companies (
                \(key), \(account), name TEXT NOT NULL, website TEXT, number_of_employees BIGINT, \(times))
            """,
            "CREATE INDEX monica_companies_created ON monica_companies(account_id, created_at, id)",
            """
            CREATE TABLE monica_occupations (
                \(key), \(account), \(contact),
                company_id BIGINT NOT NULL REFERENCES monica_companies(id) ON DELETE CASCADE,
                title TEXT NOT NULL, description TEXT, salary BIGINT, salary_unit TEXT,
                currently_works_here BIGINT, start_date TEXT, end_date TEXT, \(times))
            """,
            "CREATE INDEX monica_occupations_company ON monica_occupations(company_id)",
        ]
        // Life event types and categories are copied into each account, as Monica does, with
        // English names; their uuids are derived from the id, as activity types' are.
        let lifeEvents = [
            """
            CREATE TABLE monica_life_event_categories (
                \(key), \(account), name TEXT, default_life_event_category_key TEXT,
                core_monica_data BIGINT NOT NULL DEFAULT 0, created_at BIGINT, updated_at BIGINT)
            """,
            "CREATE INDEX monica_life_event_categories_account ON monica_life_event_categories(account_id)",
            """
            CREATE TABLE monica_life_event_types (
                \(key), \(account),
                life_event_category_id BIGINT NOT NULL REFERENCES monica_life_event_categories(id) ON DELETE CASCADE,
                name TEXT, default_life_event_type_key TEXT, core_monica_data BIGINT NOT NULL DEFAULT 0,
                created_at BIGINT, updated_at BIGINT)
            """,
            "CREATE INDEX monica_life_event_types_account ON monica_life_event_types(account_id)",
            "CREATE INDEX monica_life_event_types_category ON monica_life_event_types(life_event_category_id)",
            """
            CREATE TABLE monica_life_events (
                \(key), uuid TEXT NOT NULL, \(account), \(contact),
                life_event_type_id BIGINT NOT NULL REFERENCES monica_life_event_types(id) ON DELETE CASCADE,
                name TEXT, note TEXT, happened_at TEXT NOT NULL,
                happened_at_month_unknown BIGINT NOT NULL DEFAULT 0, happened_at_day_unknown BIGINT NOT NULL DEFAULT 0,
                reminder_id BIGINT REFERENCES monica_reminders(id) ON DELETE SET NULL, \(times))
            """,
            "CREATE INDEX monica_life_events_type ON monica_life_events(life_event_type_id)",
        ]
        return calls + ownedIndexes("monica_calls") + debts + ownedIndexes("monica_debts") + pets
            + ownedIndexes("monica_pets") + conversations + ownedIndexes("monica_conversations") + journal + work
            + ownedIndexes("monica_occupations") + lifeEvents + ownedIndexes("monica_life_events")
    }
}
