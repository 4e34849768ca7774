import Foundation

/// Why a vCard or iCalendar body could not be read: the line at fault (1-based, counted in the
/// text as sent, folded lines included) when there is one, and a sentence a person can act on.
public struct CardFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int?
    public let message: String

    public init(line: Int?, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { message }
}
