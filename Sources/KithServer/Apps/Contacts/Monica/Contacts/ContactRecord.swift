import Foundation

/// A row of `monica_contacts`: a person, with Monica's special dates flattened into columns (a
/// day plus its two flags) and the folded words contact search reads (`searchText`).
struct ContactRecord: MonicaRecord {
    static let table = "monica_contacts"

    let id: Int64
    let uuid: String
    let firstName: String
    let middleName: String?
    let lastName: String?
    let nickname: String?
    let description: String?
    let genderID: Int64?
    @StoredFlag var isStarred: Bool
    @StoredFlag var isPartial: Bool
    @StoredFlag var isActive: Bool
    @StoredFlag var isDead: Bool
    let birthdate: String?
    @StoredFlag var birthdateIsAgeBased: Bool
    @StoredFlag var birthdateIsYearUnknown: Bool
    let deceasedDate: String?
    @StoredFlag var deceasedDateIsAgeBased: Bool
    @StoredFlag var deceasedDateIsYearUnknown: Bool
    let job: String?
    let company: String?
    let foodPreferences: String?
    let firstMetGeneralInformation: String?
    let firstMetDate: String?
    @StoredFlag var firstMetDateIsAgeBased: Bool
    @StoredFlag var firstMetDateIsYearUnknown: Bool
    let firstMetThroughContactID: Int64?
    let stayInTouchFrequency: Int64?
    let stayInTouchTriggerDate: Int64?
    let lastCalled: Int64?
    let birthdayReminderID: Int64?
    let deceasedReminderID: Int64?
    let firstMetReminderID: Int64?
    let avatarColor: String
    /// `default` (or nil), `gravatar` or `photo`: what the contact's avatar shows.
    let avatarSource: String?
    let avatarPhotoID: Int64?
    /// The Gravatar picture of the contact's email, worked out when that source was chosen.
    let avatarGravatarURL: String?
    let searchText: String
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, uuid, nickname, description, job, company, birthdate
        case firstName = "first_name", middleName = "middle_name", lastName = "last_name", genderID = "gender_id"
        case isStarred = "is_starred", isPartial = "is_partial", isActive = "is_active", isDead = "is_dead"
        case birthdateIsAgeBased = "birthdate_is_age_based", birthdateIsYearUnknown = "birthdate_is_year_unknown"
        case deceasedDate = "deceased_date", deceasedDateIsAgeBased = "deceased_date_is_age_based"
        case deceasedDateIsYearUnknown = "deceased_date_is_year_unknown", foodPreferences = "food_preferences"
        case firstMetGeneralInformation = "first_met_general_information", firstMetDate = "first_met_date"
        case firstMetDateIsAgeBased = "first_met_date_is_age_based"
        case firstMetDateIsYearUnknown = "first_met_date_is_year_unknown"
        case firstMetThroughContactID = "first_met_through_contact_id"
        case stayInTouchFrequency = "stay_in_touch_frequency", stayInTouchTriggerDate = "stay_in_touch_trigger_date"
        case lastCalled = "last_called", birthdayReminderID = "birthday_reminder_id"
        case deceasedReminderID = "deceased_reminder_id", firstMetReminderID = "first_met_reminder_id"
        case avatarColor = "avatar_color", searchText = "search_text", createdAt = "created_at"
        case avatarSource = "avatar_source", avatarPhotoID = "avatar_photo_id", avatarGravatarURL =
            "avatar_gravatar_url"
        case updatedAt = "updated_at"
    }

    /// Monica's default avatar colours; a new contact gets one at random.
    static let avatarColors = ["#fdb660", "#93521e", "#bd5067", "#b3d5fe", "#ff9807", "#709512", "#5f479a", "#e5e5cd"]

    /// One of a contact's special dates as stored: the day and its two flags.
    struct SpecialDate: Sendable {
        let day: MonicaDate?
        let isAgeBased: Bool
        let isYearUnknown: Bool
    }

    var birthdateValue: SpecialDate {
        SpecialDate(
            day: birthdate.flatMap(MonicaDate.init(ymd:)), isAgeBased: birthdateIsAgeBased,
            isYearUnknown: birthdateIsYearUnknown)
    }

    var deceasedDateValue: SpecialDate {
        SpecialDate(
            day: deceasedDate.flatMap(MonicaDate.init(ymd:)), isAgeBased: deceasedDateIsAgeBased,
            isYearUnknown: deceasedDateIsYearUnknown)
    }

    var firstMetDateValue: SpecialDate {
        SpecialDate(
            day: firstMetDate.flatMap(MonicaDate.init(ymd:)), isAgeBased: firstMetDateIsAgeBased,
            isYearUnknown: firstMetDateIsYearUnknown)
    }

    /// `first [middle] [last]`, with Monica's coffin for the dead.
    var completeName: String {
        let name = [firstName, middleName, lastName].compactMap { $0 }.joined(separator: " ")
        return isDead ? name + " ⚰" : name
    }
}
