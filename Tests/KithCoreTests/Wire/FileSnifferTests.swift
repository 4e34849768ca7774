import Foundation
import KithCore
import Testing

/// Files are told apart by their bytes: real files of every kind Kith takes, the first box of
/// the ISO media formats as their writers make it, text that must stay text (HTML and SVG
/// included), and binary or broken bytes that are nothing but `application/octet-stream`.
@Suite("File sniffing")
struct FileSnifferTests {
    /// The files in Tests/fixtures/sniffer/ (its README says where each comes from).
    static let realFiles: [(String, SniffedFile)] = [
        ("python.jpg", .jpeg), ("python.png", .png), ("python.gif", .gif), ("python.webp", .webp), ("python.bmp", .bmp),
        ("python.tiff", .tiff), ("minimal.pdf", .pdf), ("letter.rtf", .rtf), ("archive.zip", .zip),
        ("word.docx", .docx),
        ("streamed.docx", .docx), ("sheet.xlsx", .xlsx), ("slides.pptx", .pptx), ("docutils-styles.odt", .odt),
        ("sheet.ods", .ods), ("slides.odp", .odp), ("gsutil-test.mp3", .mp3), ("frames-only.mp3", .mp3),
        ("sndhdr.wav", .wav), ("tone.wav", .wav), ("opus.ogg", .ogg),
    ]

    @Test(arguments: realFiles)
    func tellsRealFilesApart(_ name: String, _ expected: SniffedFile) throws {
        let bytes = try WireFixtures.bytes("sniffer/\(name)")
        #expect(FileSniffer.sniff(bytes) == expected)
        #expect(FileSniffer.sniff(Data(bytes)) == expected)
    }

    @Test func readsBothGIFVersions() {
        #expect(FileSniffer.sniff(Array("GIF87a".utf8) + [1, 0, 1, 0, 0x80, 0, 0]) == .gif)
        #expect(FileSniffer.sniff(Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0]) == .gif)
    }

    /// The `ftyp` box as iPhones, libavif, ffmpeg, iTunes and QuickTime write it.
    @Test func tellsISOMediaApartByBrand() {
        let cases: [(String, [String], SniffedFile)] = [
            ("heic", ["mif1", "heic"], .heic),
            ("avif", ["avif", "mif1", "miaf", "MA1B"], .avif),
            ("mif1", ["mif1", "avif", "miaf"], .avif),
            ("mif1", ["mif1", "isom", "heic"], .heic),
            ("mif1", ["mif1", "miaf"], .heif),
            ("msf1", ["msf1", "iso8", "hevc"], .heic),
            ("isom", ["isom", "iso2", "avc1", "mp41"], .mp4),
            ("mp42", ["mp42", "isom"], .mp4),
            ("3gp4", ["isom", "3gp4"], .mp4),
            ("M4A ", ["M4A ", "mp42", "isom"], .m4a),
            ("qt  ", ["qt  "], .mov),
            ("xxxx", ["yyyy"], .unknown),
        ]
        for (major, compatible, expected) in cases {
            #expect(FileSniffer.sniff(Self.ftyp(major, compatible)) == expected, "\(major) \(compatible)")
        }
        // A box too small to hold its brands, or cut before them.
        #expect(FileSniffer.sniff([0, 0, 0, 8] + Array("ftypheic".utf8)) == .unknown)
        #expect(FileSniffer.sniff(Array(Self.ftyp("heic", ["mif1"]).prefix(10))) == .unknown)
    }

    /// Whether a page may show it in an `<img>`.
    @Test func saysWhichImagesABrowserShows() {
        for kind in [SniffedFile.jpeg, .png, .gif, .webp, .avif, .bmp] { #expect(kind.isImage, "\(kind)") }
        for kind in [SniffedFile.heic, .heif, .tiff, .pdf, .plainText, .zip, .unknown] {
            #expect(!kind.isImage, "\(kind)")
        }
    }

    /// OpenDocument and EPUB by their `mimetype` entry; a type the sniffer does not know, or a
    /// `mimetype` that is compressed or empty, leaves a plain zip.
    @Test func readsTheMimetypeEntry() {
        let cases: [([UInt8], SniffedFile)] = [
            (Self.storedEntry("mimetype", "application/vnd.oasis.opendocument.text"), .odt),
            (
                Self.storedEntry("mimetype", "application/epub+zip")
                    + Self.storedEntry("META-INF/container.xml", "<c/>"), .epub
            ),
            (Self.storedEntry("mimetype", "application/vnd.oasis.opendocument.text-template"), .zip),
            (Self.storedEntry("mimetype", "application/vnd.oasis.opendocument.graphics"), .zip),
            (Self.storedEntry("mimetype", ""), .zip),
            (Self.storedEntry("mimetype", "application/vnd.oasis.opendocument.text", method: 8), .zip),
            (Self.storedEntry("[Content_Types].xml", "<Types/>") + Self.storedEntry("_rels/.rels", "<r/>"), .zip),
            (Self.storedEntry("[Content_Types].xml", "<Types/>") + Self.storedEntry("xl/workbook.xml", "<w/>"), .xlsx),
            (Self.storedEntry("word/document.xml", "<w/>"), .zip),
            ([0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18), .zip),
        ]
        for (bytes, expected) in cases { #expect(FileSniffer.sniff(bytes) == expected) }
    }

    /// Two bytes of MPEG frame sync happen by chance: without an ID3 tag, the next layer III frame
    /// must be where the first says.
    @Test func checksTheSecondMP3Frame() {
        // MPEG 1 layer III, 128 kbit/s, 44.1 kHz: 417-byte frames.
        let frame: [UInt8] = [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 413)
        #expect(FileSniffer.sniff(frame + frame) == .mp3)
        #expect(FileSniffer.sniff(frame) == .unknown)
        #expect(FileSniffer.sniff(frame + [0x00, 0x01, 0x02, 0x03]) == .unknown)
        #expect(FileSniffer.sniff(Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 0] + frame) == .mp3)
        // A UTF-16 byte order mark reads as a layer I header.
        #expect(
            FileSniffer.sniff([0xFF, 0xFE, 0x68, 0x00, 0x69, 0x00] + [UInt8](repeating: 0x20, count: 600)) == .unknown)
        // A reserved version, layer or sample rate is no frame.
        for header: [UInt8] in [[0xFF, 0xEB, 0x90, 0x64], [0xFF, 0xF9, 0x90, 0x64], [0xFF, 0xFB, 0x9C, 0x64]] {
            let bogus = header + [UInt8](repeating: 0, count: 413)
            #expect(FileSniffer.sniff(bogus + bogus) == .unknown)
        }
    }

    @Test(arguments: [
        "Hello, world\n", "Grüße, 日本語, 🎉\r\n\tTabbed\u{0C}next page", "\u{FEFF}text after a byte order mark",
        "<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>",
        #"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>"#,
        #"<?xml version="1.0"?><note>hi</note>"#, "BMW is a car\n", "BM", "ID3 is a tag\n", "%PDF is how PDFs start",
    ])
    func readsTextAsPlainText(_ text: String) {
        #expect(FileSniffer.sniff(Array(text.utf8)) == .plainText)
    }

    @Test func readsBinaryAsNothingInParticular() {
        let cases: [[UInt8]] = [
            [], Array("text with a NUL\0".utf8), Array("escape \u{1B}[31m".utf8), Array("delete \u{7F}".utf8),
            Array("next line \u{85}".utf8), Array("caf".utf8) + [0xE9], [0xFF, 0xFE, 0x68, 0x00, 0x69, 0x00],
            Array("truncated \u{E9}".utf8.dropLast()), [0x00, 0x00, 0x00, 0x01], [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0],
        ]
        for bytes in cases { #expect(FileSniffer.sniff(bytes) == .unknown, "\(bytes)") }
    }

    /// Only the window is read: what comes after it can't change the answer, and a character it
    /// cuts in two is not held against the text.
    @Test func readsOnlyTheWindow() {
        let window = FileSniffer.window
        let text = [UInt8](repeating: UInt8(ascii: "a"), count: window)
        #expect(FileSniffer.sniff(text + [0, 0, 0]) == .plainText)
        #expect(FileSniffer.sniff(repeatElement(UInt8(ascii: "a"), count: 1 << 40)) == .plainText)
        let cutCharacter = [UInt8](repeating: UInt8(ascii: "a"), count: window - 1) + Array("é".utf8)
        #expect(FileSniffer.sniff(cutCharacter) == .plainText)
        #expect(FileSniffer.sniff(Array(cutCharacter.dropLast())) == .unknown)
        let cutEmoji = [UInt8](repeating: UInt8(ascii: "a"), count: window - 2) + Array("🎉🎉".utf8)
        #expect(FileSniffer.sniff(cutEmoji) == .plainText)
        #expect(FileSniffer.sniff(cutEmoji[2...]) == .plainText)
    }

    /// Every prefix of every file, random bytes, and real files with random damage: each gets an
    /// answer, never a crash.
    @Test func neverTrapsOnBrokenFiles() throws {
        var generator = SeededGenerator(state: 8187)
        let names = [
            "python.jpg", "python.png", "python.webp", "python.bmp", "python.tiff", "word.docx", "streamed.docx",
            "sheet.ods",
            "gsutil-test.mp3", "frames-only.mp3", "opus.ogg", "tone.wav", "letter.rtf",
        ]
        var files = try names.map { try WireFixtures.bytes("sniffer/\($0)") }
        files += [
            Self.ftyp("mif1", ["mif1", "heic"]),
            Self.storedEntry("mimetype", "application/vnd.oasis.opendocument.text"),
        ]
        for file in files {
            for length in 0...min(file.count, 600) { _ = FileSniffer.sniff(file.prefix(length)) }
            for _ in 0..<200 {
                var damaged = Array(file.prefix(2048))
                for _ in 0..<Int.random(in: 1...6, using: &generator) {
                    let index = Int.random(in: 0..<min(damaged.count, 64), using: &generator)
                    let values: [UInt8] = [0x00, 0xFF, 0x80, 0x7F, UInt8.random(in: 0...255, using: &generator)]
                    damaged[index] = values[Int.random(in: 0..<values.count, using: &generator)]
                }
                _ = FileSniffer.sniff(damaged)
            }
        }
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            _ = FileSniffer.sniff(bytes)
        }
    }

    // MARK: Helpers

    /// An `ftyp` box with these brands (minor version 0), then an empty `mdat` box.
    static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
        let brands = ([major, "\0\0\0\0"] + compatible).flatMap { Array($0.utf8) }
        return bigEndian(8 + brands.count) + Array("ftyp".utf8) + brands + [0, 0, 0, 8] + Array("mdat".utf8)
    }

    /// A zip entry's local header and data, stored uncompressed (`method` 0) unless told; the CRC
    /// is left zero, as the sniffer never reads it.
    static func storedEntry(_ name: String, _ content: String, method: UInt8 = 0) -> [UInt8] {
        let name = Array(name.utf8)
        let content = Array(content.utf8)
        let header: [UInt8] = [0x50, 0x4B, 0x03, 0x04, 20, 0, 0, 0, method, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        return header + littleEndian(content.count, 4) + littleEndian(content.count, 4) + littleEndian(name.count, 2)
            + littleEndian(0, 2) + name + content
    }

    static func bigEndian(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    static func littleEndian(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
