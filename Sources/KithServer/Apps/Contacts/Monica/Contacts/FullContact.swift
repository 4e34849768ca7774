import KithCore

/// A full contact as the contacts endpoints answer it (reduced for partial contacts), written
/// straight to bytes in Monica's key order. A page of contacts was built as a tree of `JSONTree`s
/// and then written: building and freeing the tree were a third of a list page's CPU.
/// The short form and the small nested objects it shares with other presenters stay trees.
struct FullContact: JSONWritable {
    let details: ContactDetails
    let presentation: MonicaPresentation

    func writeJSON(to output: inout [UInt8]) {
        let record = details.record
        let partial = record.isPartial
        var object = JSONObjectWriter(&output)
        for (key, value) in ContactPresenter.head(details.summary, presentation, description: true) {
            object.value(named: key, value, &output)
        }
        if !partial {
            object.value("last_called", JSONTree.nullable(record.lastCalled.map(ContactPresenter.carbon)), &output)
            object.value(
                "last_activity_together", JSONTree.nullable(details.lastActivity.map(ContactPresenter.carbon)), &output)
            object.value("stay_in_touch_frequency", JSONTree.nullable(record.stayInTouchFrequency), &output)
            object.value(
                "stay_in_touch_trigger_date",
                JSONTree.nullable(MonicaTimestamp.format(millis: record.stayInTouchTriggerDate)), &output)
        }
        object.key("information", &output)
        writeInformation(&output)
        if !partial {
            // The short form nested in each address, field and note: built once, when one is there.
            let needsSummary =
                !details.addresses.isEmpty || !(details.contactFields ?? []).isEmpty
                || !(details.latestNotes ?? []).isEmpty
            let summary = needsSummary ? ContactPresenter.short(details.summary, presentation) : nil
            object.value(
                "addresses", details.addresses.map { AddressPresenter.present($0, contact: summary, presentation) },
                &output)
            object.value("tags", details.tags.map { TagPresenter.present($0, presentation) }, &output)
            object.key("statistics", &output)
            var statistics = JSONObjectWriter(&output)
            for source in ContactDetailsLoader.statisticsSources {
                statistics.value(named: source.key, JSONTree.int(details.counts[source.key] ?? 0), &output)
            }
            statistics.end(&output)
            if let fields = details.contactFields {
                object.value(
                    "contactFields",
                    fields.map {
                        ContactFieldPresenter.present($0.field, type: $0.type, contact: summary, presentation)
                    },
                    &output)
                object.value(
                    "notes",
                    (details.latestNotes ?? []).map { NotePresenter.present($0, contact: summary, presentation) },
                    &output)
            }
            object.string("url", presentation.url("contacts/\(record.id)"), &output)
        }
        for (key, value) in presentation.stamps(record) { object.value(named: key, value, &output) }
        object.end(&output)
    }

    private func writeInformation(_ output: inout [UInt8]) {
        let record = details.record
        let partial = record.isPartial
        var information = JSONObjectWriter(&output)
        if !partial {
            information.key("relationships", &output)
            writeRelationships(&output)
        }
        information.key("dates", &output)
        var dates = JSONObjectWriter(&output)
        dates.value("birthdate", ContactPresenter.specialDate(record.birthdateValue), &output)
        dates.value("deceased_date", ContactPresenter.specialDate(record.deceasedDateValue), &output)
        dates.end(&output)
        if !partial {
            information.key("career", &output)
            var career = JSONObjectWriter(&output)
            career.value("job", JSONTree.nullable(record.job), &output)
            career.value("company", JSONTree.nullable(record.company), &output)
            career.end(&output)
            information.value("avatar", ContactPresenter.avatar(record, presentation), &output)
            information.value("food_preferences", JSONTree.nullable(record.foodPreferences), &output)
            information.key("how_you_met", &output)
            var met = JSONObjectWriter(&output)
            met.value("general_information", JSONTree.nullable(record.firstMetGeneralInformation), &output)
            met.value("first_met_date", ContactPresenter.specialDate(record.firstMetDateValue), &output)
            met.value(
                "first_met_through_contact",
                JSONTree.nullable(details.firstMetThrough.map { ContactPresenter.short($0, presentation) }), &output)
            met.end(&output)
        }
        information.end(&output)
    }

    /// `{group: {"total", "contacts"}}` for Monica's four groups. Monica shows `contacts: null` for
    /// a group the account lacks; a Kith account has all four from its creation (`MonicaDefaults`)
    /// and no route removes one (docs/decisions.md 99).
    private func writeRelationships(_ output: inout [UInt8]) {
        var groups = JSONObjectWriter(&output)
        for group in RelationshipTypeDefaults.groupNames {
            let entries = details.relationships[group] ?? []
            groups.key(named: group, &output)
            var body = JSONObjectWriter(&output)
            body.integer("total", Int64(entries.count), &output)
            let items: [JSONTree] = entries.map { entry in
                [
                    "relationship": [
                        "id": .int(entry.relationship.id), "uuid": .string(entry.relationship.derivedUUID),
                        "name": .string(entry.type.name),
                    ],
                    "contact": ContactPresenter.short(entry.other, presentation),
                ]
            }
            body.value("contacts", items, &output)
            body.end(&output)
        }
        groups.end(&output)
    }
}
