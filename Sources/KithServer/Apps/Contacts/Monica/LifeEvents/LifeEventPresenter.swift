import KithCore

enum LifeEventPresenter {
    static func present(
        _ record: LifeEventRecord, kind: LifeEventKind?, contact: JSONTree?, _ presentation: MonicaPresentation
    ) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("uuid", .string(record.uuid)), ("object", "lifeevent"),
                    ("name", .nullable(record.name)), ("note", .nullable(record.note)),
                    ("happened_at", .nullable(MonicaDate(ymd: record.happenedAt)?.midnightTimestamp)),
                    // Kith's: Monica keeps these flags but its answer leaves them out, so a client
                    // could not tell "in 1990" from "on 1 January 1990".
                    ("happened_at_month_unknown", .bool(record.happenedAtMonthUnknown)),
                    ("happened_at_day_unknown", .bool(record.happenedAtDayUnknown)),
                    ("life_event_type", kind.map { presentType($0, presentation) } ?? .null),
                ] + presentation.stamps(record, contact: contact)))
    }

    static func presentType(_ kind: LifeEventKind, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(kind.type.id)), ("uuid", .string(kind.type.derivedUUID)), ("object", "lifeeventtype"),
                    ("name", .nullable(kind.type.name)), ("core_monica_data", .bool(kind.type.coreMonicaData)),
                    ("default_life_event_type_key", .nullable(kind.type.defaultLifeEventTypeKey)),
                    ("life_event_category", kind.category.map { presentCategory($0, presentation) } ?? .null),
                ] + presentation.stamps(kind.type)))
    }

    static func presentCategory(_ record: LifeEventCategoryRecord, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("uuid", .string(record.derivedUUID)), ("object", "lifeeventcategory"),
                    ("name", .nullable(record.name)), ("core_monica_data", .bool(record.coreMonicaData)),
                    ("default_life_event_category_key", .nullable(record.defaultLifeEventCategoryKey)),
                ] + presentation.stamps(record)))
    }
}
