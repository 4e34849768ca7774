import Foundation

/// Turns a TZID into a zone: an IANA id ("Europe/Berlin"), a path ending in one
/// ("/mozilla.org/20050126_1/Europe/Berlin", as older Thunderbird writes), or a Windows name
/// (Outlook's "W. Europe Standard Time", the common ones). A VTIMEZONE whose TZID is none of these
/// is read as a fixed offset, its STANDARD's TZOFFSETTO (`CalendarDocument.parse`).
enum CalendarTimeZones {
    static func resolve(_ tzid: String) -> TimeZone? {
        let name = tzid.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        if let windows = windowsNames[name], let zone = TimeZone(identifier: windows) { return zone }
        if name.contains("/") || ["UTC", "GMT"].contains(name.uppercased()), let zone = TimeZone(identifier: name) {
            return zone
        }
        // A path: try its last two or three components ("Europe/Berlin", "America/Indiana/Knox").
        let components = name.split(separator: "/")
        for count in [3, 2] where components.count > count {
            if let zone = TimeZone(identifier: components.suffix(count).joined(separator: "/")) { return zone }
        }
        // "CET", "EST5EDT", and Foundation's fixed-offset ids ("GMT+0530"), which Kith writes itself.
        return TimeZone(identifier: name)
    }

    /// Windows zone names (Outlook, Exchange) to IANA, for the zones most people live in.
    static let windowsNames: [String: String] = [
        "UTC": "UTC", "Coordinated Universal Time": "UTC", "GMT Standard Time": "Europe/London",
        "Greenwich Standard Time": "Atlantic/Reykjavik", "W. Europe Standard Time": "Europe/Berlin",
        "Romance Standard Time": "Europe/Paris", "Central Europe Standard Time": "Europe/Budapest",
        "Central European Standard Time": "Europe/Warsaw", "E. Europe Standard Time": "Europe/Chisinau",
        "FLE Standard Time": "Europe/Kiev", "GTB Standard Time": "Europe/Bucharest",
        "Russian Standard Time": "Europe/Moscow", "Turkey Standard Time": "Europe/Istanbul",
        "Israel Standard Time": "Asia/Jerusalem", "South Africa Standard Time": "Africa/Johannesburg",
        "Arabian Standard Time": "Asia/Dubai", "India Standard Time": "Asia/Kolkata",
        "China Standard Time": "Asia/Shanghai", "Singapore Standard Time": "Asia/Singapore",
        "Tokyo Standard Time": "Asia/Tokyo", "Korea Standard Time": "Asia/Seoul",
        "AUS Eastern Standard Time": "Australia/Sydney", "E. Australia Standard Time": "Australia/Brisbane",
        "AUS Central Standard Time": "Australia/Darwin", "W. Australia Standard Time": "Australia/Perth",
        "New Zealand Standard Time": "Pacific/Auckland", "Eastern Standard Time": "America/New_York",
        "Central Standard Time": "America/Chicago", "Mountain Standard Time": "America/Denver",
        "US Mountain Standard Time": "America/Phoenix", "Pacific Standard Time": "America/Los_Angeles",
        "Alaskan Standard Time": "America/Anchorage", "Hawaiian Standard Time": "Pacific/Honolulu",
        "Atlantic Standard Time": "America/Halifax", "Canada Central Standard Time": "America/Regina",
        "Central Standard Time (Mexico)": "America/Mexico_City", "E. South America Standard Time": "America/Sao_Paulo",
        "Argentina Standard Time": "America/Argentina/Buenos_Aires",
    ]

    /// The zone a VTIMEZONE describes: its TZID or X-LIC-LOCATION when either names a zone, else
    /// a fixed offset (the STANDARD observance's TZOFFSETTO, else the first observance's).
    static func zone(of vtimezone: CardComponent) -> (tzid: String, zone: TimeZone)? {
        guard let tzid = vtimezone.properties.first(where: { $0.line.name == "TZID" })?.line.value else { return nil }
        if let zone = resolve(tzid) { return (tzid, zone) }
        if let location = vtimezone.properties.first(where: { $0.line.name == "X-LIC-LOCATION" })?.line.value,
            let zone = resolve(location)
        {
            return (tzid, zone)
        }
        let observance = vtimezone.children.first { $0.name == "STANDARD" } ?? vtimezone.children.first
        guard let offsetText = observance?.properties.first(where: { $0.line.name == "TZOFFSETTO" })?.line.value,
            let offset = utcOffset(offsetText), let zone = TimeZone(secondsFromGMT: offset)
        else { return nil }
        return (tzid, zone)
    }

    /// "+0530", "-0800", "+013045" → seconds east of UTC.
    static func utcOffset(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let sign = trimmed.first, sign == "+" || sign == "-" else { return nil }
        let digits = trimmed.dropFirst()
        guard digits.count == 4 || digits.count == 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let hours = Int(digits.prefix(2)), let minutes = Int(digits.dropFirst(2).prefix(2))
        else { return nil }
        let seconds = digits.count == 6 ? Int(digits.suffix(2)) ?? 0 : 0
        let total = hours * 3600 + minutes * 60 + seconds
        return sign == "-" ? -total : total
    }

    static func offsetText(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let value = abs(seconds)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let text = sign + two(value / 3600) + two(value % 3600 / 60)
        return value % 60 == 0 ? text : text + two(value % 60)
    }
}
