import Foundation

/// A content line and the physical line it started on, for error messages.
struct NumberedLine {
    var line: ContentLine
    var number: Int
}

/// A BEGIN:X … END:X block of a body: its own properties, the blocks inside it, and where it sits
/// among the body's lines (to give a component back as it came, `verbatim`).
struct CardComponent {
    var name: String
    var beginLine: Int
    var properties: [NumberedLine] = []
    var children: [CardComponent] = []
    /// Indices into the body's lines, BEGIN and END included.
    var range: Range<Int> = 0..<0

    /// The component's lines, sub-components included, written again (folded, CRLF).
    func verbatim(in lines: [NumberedLine]) -> String {
        ContentLines.write(lines[range].map(\.line))
    }
}

extension ContentLines {
    static func parseNumbered(_ text: String) throws(CardFormatError) -> [NumberedLine] {
        var lines: [NumberedLine] = []
        for unfolded in try unfold(text) {
            lines.append(
                NumberedLine(line: try parseLine(unfolded.bytes, number: unfolded.number), number: unfolded.number))
        }
        return lines
    }

    /// The body's top-level components, each with its nested ones; lines outside every component
    /// are refused by `stray`, which names what was expected.
    static func components(
        _ lines: [NumberedLine], stray: (NumberedLine) -> CardFormatError
    ) throws(CardFormatError) -> [CardComponent] {
        var top: [CardComponent] = []
        var open: [CardComponent] = []
        for (index, numbered) in lines.enumerated() {
            let line = numbered.line
            switch line.name {
            case "BEGIN":
                let name = line.value.trimmingCharacters(in: .whitespaces).uppercased()
                guard open.count < CardLimits.maxNesting else {
                    throw CardFormatError(
                        line: numbered.number,
                        message:
                            "Line \(numbered.number) opens BEGIN:\(name) nested more than \(CardLimits.maxNesting) "
                            + "components deep; Kith reads at most \(CardLimits.maxNesting).")
                }
                var component = CardComponent(name: name, beginLine: numbered.number)
                component.range = index..<index
                open.append(component)
            case "END":
                let name = line.value.trimmingCharacters(in: .whitespaces).uppercased()
                guard var component = open.popLast() else {
                    throw CardFormatError(
                        line: numbered.number,
                        message: "Line \(numbered.number) has END:\(name) with no BEGIN:\(name) before it.")
                }
                guard component.name == name else {
                    throw CardFormatError(
                        line: numbered.number,
                        message: "Line \(numbered.number) ends \(name), but \(component.name) (opened on line "
                            + "\(component.beginLine)) is still open: an END is missing or out of place.")
                }
                component.range = component.range.lowerBound..<(index + 1)
                if open.isEmpty {
                    top.append(component)
                } else {
                    open[open.count - 1].children.append(component)
                }
            default:
                guard !open.isEmpty else { throw stray(numbered) }
                open[open.count - 1].properties.append(numbered)
            }
        }
        if let unclosed = open.last {
            throw CardFormatError(
                line: unclosed.beginLine,
                message: "The text ends inside \(unclosed.name), opened on line \(unclosed.beginLine): "
                    + "END:\(unclosed.name) is missing.")
        }
        return top
    }
}

/// vCard 2.1's quoted-printable values (`=C3=A9`), decoded as UTF-8, or Latin-1 when the bytes
/// are not UTF-8 (2.1 cards from old phones name CHARSET=ISO-8859-1 or none).
enum QuotedPrintable {
    static func decode(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x3D, index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        if let utf8 = String(validating: out, as: UTF8.self) { return utf8 }
        return String(String.UnicodeScalarView(out.map { Unicode.Scalar($0) }))
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
