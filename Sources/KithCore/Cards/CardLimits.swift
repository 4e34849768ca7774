import Foundation

/// The most a vCard or iCalendar body may hold. A body past any of them is refused with a
/// `CardFormatError` naming the line, before the work grows with it: a huge or hostile body fails
/// cleanly instead of taking the server's memory or time.
public enum CardLimits {
    /// Content lines in one body, after unfolding (a Google Contacts export of 1,000 people is
    /// about 8,000).
    public static let maxLines = 10_000
    /// Octets in one unfolded content line (a vCard PHOTO of about 48 KB fits).
    public static let maxLineBytes = 65_536
    /// Parameters on one content line.
    public static let maxParameters = 100
    /// Components inside one another (VCALENDAR > VTODO > VALARM is 3).
    public static let maxNesting = 10
}
