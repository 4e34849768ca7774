import Foundation

/// JSON coders with the wire's conventions (ISO 8601 dates with milliseconds), shared by every side.
public enum WireCoding {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatTimestamp(date))
        }
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseTimestamp(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Expected an ISO 8601 timestamp, got \(text)")
            }
            return date
        }
        return decoder
    }

    /// `2026-11-21T15:52:00.123Z`. Milliseconds are rounded from the integer count, because
    /// formatting the binary fraction directly truncates .123 to .122.
    public static func formatTimestamp(_ date: Date) -> String {
        let millis = date.epochMillis
        let (seconds, fraction) = millis.quotientAndRemainder(dividingBy: 1000)
        let wholeSeconds = Date(timeIntervalSince1970: TimeInterval(fraction < 0 ? seconds - 1 : seconds))
        let text = wholeSeconds.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
        let milliseconds = fraction < 0 ? fraction + 1000 : fraction
        return String(text.dropLast()) + "." + String(milliseconds + 1000).dropFirst() + "Z"
    }

    public static func parseTimestamp(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}
