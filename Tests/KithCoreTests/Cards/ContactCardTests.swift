import Foundation
import KithCore
import Testing

@Suite("vCard: ContactCard")
struct ContactCardTests {
    // MARK: - Real-world cards

    @Test func iOSContactsCard() throws {
        let cards = try ContactCard.parse(try DAVFixtures.text("ios-contact-v3.vcf"))
        let card = try #require(cards.first)
        #expect(cards.count == 1)
        #expect(card.formattedName == "Kate Bell")
        #expect(card.name == StructuredName(family: "Bell", given: "Kate", additional: "Anne"))
        #expect(card.nickname == "Katie")
        #expect(card.organization == "Creative Consulting" && card.organizationUnits == ["Design"])
        #expect(
            card.birthday == .monthDay(month: 1, day: 20), "Apple's 1604 + X-APPLE-OMIT-YEAR is a day without a year")
        #expect(
            card.emails == [
                TypedValue("kate-bell@mac.com", types: ["pref"], label: "_$!<Other>!$_"),
                TypedValue("kate@creative.example", types: ["work"]),
            ])
        #expect(card.emails[0].displayLabel == "Other")
        #expect(card.phones.map(\.value) == ["(555) 564-8583", "(415) 555-3695"])
        #expect(card.phones[0].types == ["cell", "voice", "pref"])
        #expect(card.phones[1].label == "Studio")
        #expect(card.addresses.count == 2)
        #expect(card.addresses[0].street == "165 Davis Street" && card.addresses[0].countryCode == "US")
        #expect(card.addresses[1].label == "Pied-à-terre" && card.addresses[1].extended == "Flat 2")
        #expect(card.addresses[1].countryCode == "FR" && card.addresses[1].country == "France")
        #expect(
            card.urls == [TypedValue("https://www.creative.example/kate", types: ["pref"], label: "_$!<HomePage>!$_")])
        #expect(
            card.socialProfiles.map(\.value) == [
                "http://twitter.com/katebell", "https://www.linkedin.com/in/kate-bell-42",
            ])
        #expect(card.socialProfiles[0].types == ["twitter"])
        #expect(card.socialProfiles[0].parameters == [ContentLine.Parameter(name: "x-user", values: ["katebell"])])
        #expect(card.instantMessaging.map(\.value) == ["skype:kate.bell", "x-apple:%2B15555648583"])
        #expect(card.instantMessaging.map(\.types) == [["skype", "home", "pref"], ["whatsapp"]])
        #expect(card.note == "Met at the Hillsborough fair, 2019.\nPrefers texts; calls after 6pm.")
        // Kept as they came: the photo, the anniversary and spouse with their labels, X-ABShowAs.
        #expect(
            card.unknown.map(\.name) == [
                "X-ABDATE", "X-ABLABEL", "X-ABRELATEDNAMES", "X-ABLABEL", "PHOTO", "X-ABSHOWAS",
            ])
        #expect(card.unknown[0].group == "item6" && card.unknown[1].value == "_$!<Anniversary>!$_")
        #expect(card.unknown[4].value.hasPrefix("/9j/4AAQ") && card.unknown[4].value.hasSuffix("AKp//2Q=="))
        try expectWriteKeepsEverything(card)
        // Written as 3.0, the birthday is in Apple's form again, so iOS shows it without a year.
        #expect(card.write(.v3).contains("BDAY;X-APPLE-OMIT-YEAR=1604:1604-01-20\r\n"))
        #expect(card.write(.v4).contains("BDAY:--0120\r\n"))
    }

    @Test func davx5CardWithEveryField() throws {
        let card = try #require(try ContactCard.parse(try DAVFixtures.text("davx5-allfields-v3.vcf")).first)
        #expect(card.uid == "mostfields1@at.bitfire.vcard4android")
        #expect(card.formattedName == "Ämi Display")
        #expect(
            card.name.prefixes == "DDDr." && card.name.suffixes == "MBA"
                && card.name.additional == "Middlename1 Middlename2")
        #expect(
            card.phones[0]
                == TypedValue("+49 1234 56788", types: ["voice", "home", "pref", "x-useless"], label: "Useless"))
        #expect(card.emails[1] == TypedValue("work@example.com", types: ["work"], label: "@work"))
        #expect(card.organization == "ABC, Inc." && card.organizationUnits == ["North American Division", "Marketing"])
        #expect(card.title == "Director, Research and Development")
        #expect(card.nickname == "Nick1,Nick2")
        #expect(card.instantMessaging[0].value == "myIM:anonymous@example.com")
        #expect(card.instantMessaging[0].types.first == "myim" && card.instantMessaging[0].label == "MyIM")
        #expect(card.instantMessaging[1].types == ["skype", "business", "video", "voice"])
        #expect(card.addresses[0].street == "6544 Battleford Drive" && card.addresses[0].country == "U.S.A.")
        #expect(card.addresses[0].types == ["work", "postal", "parcel", "pref"])
        #expect(card.addresses[1].poBox == "Postfach 314" && card.addresses[1].locality == "Mönchspfaffingen")
        #expect(card.addresses[1].postalCode == "4043" && card.addresses[1].label == "Monkey Tree")
        #expect(card.note == "This fax number is operational 0800 to 1715 EST, Mon-Fri.")
        #expect(card.categories == ["A", "B'C"])
        #expect(
            card.urls.map(\.value) == ["https://www.davx5.com/", "http://www.swbyps.restaurant.french/~chezchic.html"])
        #expect(card.birthday == .full(year: 1996, month: 4, day: 15))
        let unknownNames = card.unknown.map(\.name)
        #expect(
            unknownNames == [
                "X-PHONETIC-FIRST-NAME", "X-PHONETIC-MIDDLE-NAME", "X-PHONETIC-LAST-NAME", "ROLE", "X-SIP", "NOTE",
                "ANNIVERSARY", "RELATED", "RELATED", "PHOTO", "X-TEST", "X-ABDATE", "X-ABLABEL",
            ])
        #expect(card.unknown[5].value == "Second note", "a second NOTE is kept, not lost")
        try expectWriteKeepsEverything(card)
    }

    @Test func thunderbirdCard40() throws {
        let card = try #require(try ContactCard.parse(try DAVFixtures.text("thunderbird-contact-v4.vcf")).first)
        #expect(card.uid == "7c1a0a4e-3f3b-4a8e-9d2e-1b5c6f7a8b9c")
        #expect(
            card.emails == [
                TypedValue("jonas.weber@example.org", types: ["pref"]),
                TypedValue("j.weber@firma.example", types: ["work"]),
            ])
        #expect(
            card.phones == [
                TypedValue("+49 170 1234567", types: ["cell"]), TypedValue("+49-30-1234567", types: ["work"]),
            ])
        #expect(card.name.prefixes == "Dr.")
        #expect(card.note == "Schlüssel für den Keller\nliegt beim Nachbarn.")
        #expect(card.birthday == .full(year: 1985, month: 4, day: 12))
        #expect(card.gender == Gender(sex: "M"))
        #expect(card.addresses[0].latitude == 52.52 && card.addresses[0].longitude == 13.405)
        #expect(card.addresses[0].countryCode == nil && card.addresses[0].country == "Germany")
        #expect(card.urls == [TypedValue("https://jonas.example.org")])
        #expect(card.instantMessaging == [TypedValue("xmpp:jonas@jabber.example.org", types: ["xmpp"])])
        #expect(card.categories == ["Familie", "Nachbarn"])
        #expect(card.unknown.map(\.name) == ["ANNIVERSARY"])
        try expectWriteKeepsEverything(card)
        let written = card.write(.v4)
        #expect(written.contains("EMAIL;PREF=1:jonas.weber@example.org\r\n"))
        let address = ContentLine(
            name: "ADR",
            parameters: [.init(name: "TYPE", values: ["home"]), .init(name: "GEO", values: ["geo:52.52,13.405"])],
            value: ";;Unter den Linden 1;Berlin;;10117;Germany")
        #expect(try ContentLines.parse(written).contains(address))
        #expect(card.write(.v3).contains("X-GENDER:Male\r\n"))
    }

    @Test func googleContactsExportOfSeveralCards() throws {
        let cards = try ContactCard.parse(try DAVFixtures.text("google-contacts-export.vcf"))
        #expect(cards.map(\.formattedName) == ["Arun Kumar", "Priya Sharma", "Charles Babbage"])
        #expect(cards.allSatisfy { $0.uid.isEmpty }, "Google's export has no UID; the server gives one")
        #expect(
            cards[0].emails == [
                TypedValue("arun.kumar@acme.example", types: ["work"]), TypedValue("arun@home.example"),
            ])
        #expect(cards[0].addresses[0].locality == "Bengaluru" && cards[0].addresses[0].country == "India")
        #expect(cards[0].categories == ["myContacts", "starred", "Vendors"])
        #expect(cards[0].note == "Met at the expo, prefers calls.\nVegetarian.")
        #expect(cards[0].unknown.map(\.name) == ["X-ABRELATEDNAMES", "X-ABLABEL"])
        #expect(cards[1].birthday == .monthDay(month: 2, day: 29))
        #expect(cards[1].phones[1] == TypedValue("+91 80 4000 1234", label: "Office"))
        #expect(cards[1].urls == [TypedValue("https://priya.example/blog", label: "Blog")])
        #expect(
            cards[2].instantMessaging == [TypedValue("xmpp:babbage", types: ["xmpp"])],
            "X-GOOGLE-TALK is an xmpp address")
        #expect(cards[2].addresses[0].countryCode == "UK", "a two-letter country is taken as its code")
        #expect(cards[2].note?.hasSuffix("punched-card order from last spring.") == true)
        for card in cards { try expectWriteKeepsEverything(card) }
    }

    @Test func vCard21QuotedPrintableIsReadAsBestItCan() throws {
        let card = try #require(try ContactCard.parse(try DAVFixtures.text("radicale-quoted-printable-v21.vcf")).first)
        #expect(card.formattedName == "黄世勇")
        #expect(card.name.family == "黄" && card.name.given == "世勇")
        #expect(card.addresses.first?.locality == "北京 丰台区" && card.addresses.first?.types == ["home"])
        #expect(card.urls.first?.value == "http://weibo.com/3094900433?闪闪H红星", "a soft line break joins the value")
        try expectWriteKeepsEverything(card)
    }

    // MARK: - Fields

    @Test func datesInEveryForm() {
        #expect(CardDate(vCardValue: "19870412") == .full(year: 1987, month: 4, day: 12))
        #expect(CardDate(vCardValue: "1987-04-12") == .full(year: 1987, month: 4, day: 12))
        #expect(CardDate(vCardValue: "1987-04-12T00:00:00Z") == .full(year: 1987, month: 4, day: 12))
        #expect(CardDate(vCardValue: "--0412") == .monthDay(month: 4, day: 12))
        #expect(CardDate(vCardValue: "--04-12") == .monthDay(month: 4, day: 12))
        #expect(CardDate(vCardValue: "1604-04-12", omittedYear: 1604) == .monthDay(month: 4, day: 12))
        #expect(CardDate(vCardValue: "1987") == .year(1987))
        #expect(CardDate(vCardValue: "circa 1800") == nil)
        #expect(CardDate(vCardValue: "1987-13-01") == nil)
    }

    @Test func aBirthdayThatIsNotADateIsKeptAsItCame() throws {
        let card = try #require(
            try ContactCard.parse("BEGIN:VCARD\nVERSION:4.0\nFN:A\nBDAY;VALUE=text:circa 1800\nEND:VCARD").first)
        #expect(card.birthday == nil)
        #expect(
            card.unknown == [
                ContentLine(name: "BDAY", parameters: [.init(name: "VALUE", values: ["text"])], value: "circa 1800")
            ])
    }

    @Test func gendersInBothVersions() throws {
        let four = try ContactCard.parse("BEGIN:VCARD\nVERSION:4.0\nFN:A\nGENDER:O;non-binary\nEND:VCARD")[0]
        #expect(four.gender == Gender(sex: "O", identity: "non-binary"))
        let three = try ContactCard.parse("BEGIN:VCARD\nVERSION:3.0\nFN:A\nX-GENDER:Female\nEND:VCARD")[0]
        #expect(three.gender == Gender(sex: "F"))
        let text = try ContactCard.parse("BEGIN:VCARD\nVERSION:3.0\nFN:A\nX-GENDER:genderfluid\nEND:VCARD")[0]
        #expect(text.gender == Gender(identity: "genderfluid"))
        #expect(four.write(.v4).contains("GENDER:O;non-binary\r\n"))
    }

    @Test func prefInVersion4IsFoldedIntoTypes() throws {
        let card = try ContactCard.parse(
            "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nTEL;VALUE=uri;PREF=1;TYPE=\"voice,home\":tel:+1-555-555-5555\r\nEND:VCARD\r\n"
        )[0]
        #expect(card.phones == [TypedValue("+1-555-555-5555", types: ["voice", "home", "pref"])])
    }

    @Test func writesKithsHeaderAndOrder() {
        let card = ContactCard(
            uid: "u-1", formattedName: "Ada Lovelace", name: StructuredName(family: "Lovelace", given: "Ada"),
            emails: [TypedValue("ada@example.org", types: ["home"], label: "Private")],
            unknown: [ContentLine(group: "item1", name: "X-ABDATE", value: "1835-07-08")])
        let written = card.write(.v3)
        #expect(
            written.hasPrefix(
                "BEGIN:VCARD\r\nVERSION:3.0\r\nPRODID:-//Kith//Kith//EN\r\nUID:u-1\r\nFN:Ada Lovelace\r\nN:Lovelace;Ada;;;\r\n"
            ))
        #expect(
            written.contains("item2.EMAIL;TYPE=home:ada@example.org\r\nitem2.X-ABLabel:Private\r\n"),
            "item1 is the unknown line's")
        #expect(written.hasSuffix("item1.X-ABDATE:1835-07-08\r\nEND:VCARD\r\n"))
    }

    // MARK: - Bad bodies

    @Test func bodiesThatAreNotCardsAreRefusedWithASentence() {
        let cases: [(String, Int?, String)] = [
            ("FN:Ada\nEND:VCARD", nil, "The text has no BEGIN:VCARD"),
            ("", nil, "The text has no BEGIN:VCARD"),
            ("BEGIN:VCARD\nFN:A\nEND:VCARD\nEND:VCARD", 4, "Line 4 has END:VCARD with no BEGIN:VCARD"),
            ("BEGIN:VCARD\nFN:A\n", 1, "The text ends inside VCARD, opened on line 1"),
            ("FN:A\nBEGIN:VCARD\nEND:VCARD", 1, "Line 1 is outside BEGIN:VCARD"),
            ("BEGIN:VCARD\nBEGIN:X\nEND:VCARD", 3, "Line 3 ends VCARD, but X"),
            ("BEGIN:VCALENDAR\nEND:VCALENDAR", 1, "Line 1 begins VCALENDAR where a contact"),
            ("BEGIN:VCARD\nVERSION:5.0\nEND:VCARD", 2, "Line 2 says VERSION:5.0"),
            ("BEGIN:VCARD\nVERSION:3.0\nFN\nEND:VCARD", 3, "Line 3 has no colon"),
        ]
        for (text, line, start) in cases {
            let error = #expect(throws: CardFormatError.self) { try ContactCard.parse(text) }
            #expect(error?.line == line, "\(text)")
            #expect(error?.message.hasPrefix(start) == true, "\(error?.message ?? "")")
            #expect(error?.message.hasSuffix(".") == true)
        }
    }

    @Test func componentsNested50DeepAreRefused() {
        let text = String(repeating: "BEGIN:VCARD\n", count: 50) + String(repeating: "END:VCARD\n", count: 50)
        let error = #expect(throws: CardFormatError.self) { try ContactCard.parse(text) }
        #expect(error?.line == 11)
        #expect(error?.message.contains("nested more than 10") == true)
    }

    @Test func aLargeExportReadsQuickly() throws {
        let one = try DAVFixtures.text("google-contacts-export.vcf")
        let text = String(repeating: one, count: 230)  // 690 cards, 9,660 lines: just under the limit
        let started = Date()
        let cards = try ContactCard.parse(text)
        #expect(cards.count == 690)
        #expect(Date().timeIntervalSince(started) < 5)
    }

    // MARK: - Round trip over generated cards

    @Test(arguments: [ContactCard.Version.v3, .v4])
    func writingThenReadingGivesTheSameCard(_ version: ContactCard.Version) throws {
        var generator = SeededGenerator(state: version == .v3 ? 3 : 4)
        for _ in 0..<150 {
            let card = CardGenerator.card(&generator, version: version)
            let written = card.write(version)
            let read = try ContactCard.parse(written)
            #expect(read == [card], "\(written)")
            if read != [card] { return }
            for physical in written.components(separatedBy: "\r\n") { #expect(physical.utf8.count <= 75) }
        }
    }

    /// Writing in either version and reading back keeps every field this card has, and the
    /// unknown lines byte for byte.
    private func expectWriteKeepsEverything(_ card: ContactCard) throws {
        for version in [ContactCard.Version.v3, .v4] {
            let again = try #require(try ContactCard.parse(card.write(version)).first)
            #expect(again.unknown == card.unknown)
            var expected = card
            // A 4.0 card marks preference with PREF=1, which reads back as "pref" last.
            if version == .v4 {
                for index in expected.emails.indices {
                    expected.emails[index].types = CardGenerator.prefLast(expected.emails[index].types)
                }
                for index in expected.phones.indices {
                    expected.phones[index].types = CardGenerator.prefLast(expected.phones[index].types)
                }
                for index in expected.urls.indices {
                    expected.urls[index].types = CardGenerator.prefLast(expected.urls[index].types)
                }
                for index in expected.addresses.indices {
                    expected.addresses[index].types = CardGenerator.prefLast(expected.addresses[index].types)
                }
                for index in expected.instantMessaging.indices {
                    expected.instantMessaging[index].types = CardGenerator.prefLast(
                        expected.instantMessaging[index].types)
                }
                for index in expected.socialProfiles.indices {
                    expected.socialProfiles[index].types = CardGenerator.prefLast(expected.socialProfiles[index].types)
                }
            }
            #expect(again == expected, "\(version.rawValue)")
        }
    }
}

/// Cards in normal form (see ContactCard's documentation) with text that tests the escapes.
enum CardGenerator {
    static let texts = [
        "plain", "Zoë O'Brien", "a,b;c\\d", "line one\nline two", "emoji 👩‍👩‍👧 ok", "ends with backslash\\",
        "  spaced  ", "tab\there", "quote \" and colon:", "日本語のテキスト", "^caret^", "",
    ]

    static func prefLast(_ types: [String]) -> [String] {
        types.contains("pref") ? types.filter { $0 != "pref" } + ["pref"] : types
    }

    static func pick<T>(_ values: [T], _ generator: inout SeededGenerator) -> T {
        values[Int.random(in: 0..<values.count, using: &generator)]
    }

    static func text(_ generator: inout SeededGenerator) -> String {
        if Int.random(in: 0..<8, using: &generator) == 0 {
            return String(repeating: "A long note, with commas; semicolons\\ and ünïcödé. ", count: 6)
        }
        return pick(texts, &generator) + pick(texts, &generator)
    }

    static func optionalText(_ generator: inout SeededGenerator) -> String? {
        Bool.random(using: &generator) ? text(&generator) : nil
    }

    static func types(_ generator: inout SeededGenerator, version: ContactCard.Version) -> [String] {
        var types = Array(
            ["home", "work", "cell", "x-custom"].shuffled(using: &generator).prefix(
                Int.random(in: 0...2, using: &generator)))
        if Bool.random(using: &generator) { types.append("pref") }
        return version == .v4 ? prefLast(types) : types
    }

    static func typed(_ generator: inout SeededGenerator, version: ContactCard.Version, value: String) -> TypedValue {
        let label = Int.random(in: 0..<3, using: &generator) == 0 ? text(&generator) : nil
        let parameters =
            Int.random(in: 0..<4, using: &generator) == 0
            ? [ContentLine.Parameter(name: "X-KEEP", values: ["a:b", "c"])] : []
        return TypedValue(value, types: types(&generator, version: version), label: label, parameters: parameters)
    }

    static func date(_ generator: inout SeededGenerator) -> CardDate? {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0:
            .full(
                year: Int.random(in: 1900...2024, using: &generator), month: Int.random(in: 1...12, using: &generator),
                day: Int.random(in: 1...28, using: &generator))
        case 1:
            .monthDay(month: Int.random(in: 1...12, using: &generator), day: Int.random(in: 1...31, using: &generator))
        case 2: .year(Int.random(in: 1900...2024, using: &generator))
        default: nil
        }
    }

    static func card(_ generator: inout SeededGenerator, version: ContactCard.Version) -> ContactCard {
        var card = ContactCard(
            uid:
                "urn:uuid:\(UUID(uuidString: "00000000-0000-0000-0000-\(String(format: "%012d", Int.random(in: 0..<1_000_000, using: &generator)))")!.uuidString.lowercased())"
        )
        card.formattedName = text(&generator)
        card.name = StructuredName(
            family: text(&generator), given: text(&generator), additional: text(&generator), prefixes: "",
            suffixes: text(&generator))
        card.nickname = optionalText(&generator)
        let genders: [Gender?] =
            version == .v4
            ? [nil, Gender(sex: "M"), Gender(sex: "O", identity: "non-binary; other"), Gender(identity: "two-spirit")]
            : [nil, Gender(sex: "F"), Gender(sex: "U"), Gender(identity: "two-spirit")]
        card.gender = pick(genders, &generator)
        card.birthday = date(&generator)
        card.deathDate = Int.random(in: 0..<4, using: &generator) == 0 ? date(&generator) : nil
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
            card.emails.append(
                typed(&generator, version: version, value: "p\(Int.random(in: 0...99, using: &generator))@example.org"))
        }
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
            card.phones.append(
                typed(
                    &generator, version: version,
                    value: pick(["+49 170 1234567", "(555) 564-8583", "0800,123;4"], &generator)))
        }
        for _ in 0..<Int.random(in: 0...2, using: &generator) {
            let country = pick(["Germany", "DE", "", "Côte d'Ivoire; CI"], &generator)
            var address = CardAddress(
                types: types(&generator, version: version),
                label: Int.random(in: 0..<3, using: &generator) == 0 ? text(&generator) : nil,
                poBox: "", extended: text(&generator), street: text(&generator), locality: "Berlin", region: "",
                postalCode: "10117",
                country: country, countryCode: country == "DE" ? "DE" : pick([nil, "FR"], &generator))
            if Bool.random(using: &generator) {
                address.latitude = Double(Int.random(in: -900_000...900_000, using: &generator)) / 10_000
                address.longitude = Double(Int.random(in: -1_800_000...1_800_000, using: &generator)) / 10_000
            }
            card.addresses.append(address)
        }
        card.organization = optionalText(&generator)
        if card.organization != nil, Bool.random(using: &generator) {
            card.organizationUnits = [text(&generator), "Unit"]
        }
        card.title = optionalText(&generator)
        card.categories = Array(
            ["friends", "a,b", "x;y", "back\\slash"].prefix(Int.random(in: 0...4, using: &generator)))
        card.note = optionalText(&generator)
        if Bool.random(using: &generator) {
            var profile = typed(&generator, version: version, value: "https://twitter.com/a,b;c\\d")
            profile.types = prefLast(["twitter"] + profile.types.filter { $0 != "twitter" })
            card.socialProfiles.append(profile)
        }
        if Bool.random(using: &generator) {
            var messaging = typed(
                &generator, version: version,
                value: pick(["xmpp:a@example.org", "whatsapp:+4917012345", "skype:live:ada"], &generator))
            let scheme = String(messaging.value.prefix { $0 != ":" })
            let service = pick([scheme, "facebook"], &generator)
            messaging.types = [service] + messaging.types.filter { $0 != service }
            if version == .v4 { messaging.types = prefLast(messaging.types) }
            if messaging.types.first == "pref" { messaging.types = [service] }
            card.instantMessaging.append(messaging)
        }
        if Bool.random(using: &generator) {
            card.urls.append(typed(&generator, version: version, value: "https://example.org/?a=1,2;b"))
        }
        if Bool.random(using: &generator) {
            card.unknown = [
                ContentLine(
                    name: "PHOTO",
                    parameters: [.init(name: "ENCODING", values: ["b"]), .init(name: "TYPE", values: ["JPEG"])],
                    value: String(repeating: "QUJD", count: 60)),
                ContentLine(
                    group: "item1", name: "X-ABDATE", parameters: [.init(name: "type", values: ["pref"])],
                    value: "2010-10-10"),
                ContentLine(group: "item1", name: "X-ABLABEL", value: "_$!<Anniversary>!$_"),
                ContentLine(
                    name: "X-WEIRD", parameters: [.init(name: "X-Q", values: ["a\"b", "c^d\ne"])],
                    value: "raw\\, kept;as\\nis"),
            ]
        }
        return card
    }
}
