/// What a file is, as its bytes tell it: its media type, the extension to store it under, and
/// whether a browser may show it as an image.
public struct SniffedFile: Sendable, Hashable, CustomStringConvertible {
    public let mimeType: String
    /// Without the dot: `jpg`, `pdf`, `bin`.
    public let fileExtension: String
    /// Whether every current browser shows it in an `<img>`: JPEG, PNG, GIF, WebP, AVIF and BMP.
    /// HEIC, HEIF and TIFF are images that only Safari shows, so a page can't rely on them. SVG
    /// never is, since it can carry script; the sniffer reads it as text anyway.
    public let isImage: Bool

    init(_ mimeType: String, _ fileExtension: String, isImage: Bool = false) {
        self.mimeType = mimeType
        self.fileExtension = fileExtension
        self.isImage = isImage
    }

    public var description: String { "\(mimeType) (.\(fileExtension))" }

    public static let jpeg = SniffedFile("image/jpeg", "jpg", isImage: true)
    public static let png = SniffedFile("image/png", "png", isImage: true)
    public static let gif = SniffedFile("image/gif", "gif", isImage: true)
    public static let webp = SniffedFile("image/webp", "webp", isImage: true)
    public static let avif = SniffedFile("image/avif", "avif", isImage: true)
    public static let bmp = SniffedFile("image/bmp", "bmp", isImage: true)
    public static let heic = SniffedFile("image/heic", "heic")
    /// A HEIF image in another codec than HEVC or AV1.
    public static let heif = SniffedFile("image/heif", "heif")
    public static let tiff = SniffedFile("image/tiff", "tiff")
    public static let pdf = SniffedFile("application/pdf", "pdf")
    public static let rtf = SniffedFile("application/rtf", "rtf")
    public static let zip = SniffedFile("application/zip", "zip")
    public static let docx = SniffedFile(
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx")
    public static let xlsx = SniffedFile("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx")
    public static let pptx = SniffedFile(
        "application/vnd.openxmlformats-officedocument.presentationml.presentation", "pptx")
    public static let odt = SniffedFile("application/vnd.oasis.opendocument.text", "odt")
    public static let ods = SniffedFile("application/vnd.oasis.opendocument.spreadsheet", "ods")
    public static let odp = SniffedFile("application/vnd.oasis.opendocument.presentation", "odp")
    public static let epub = SniffedFile("application/epub+zip", "epub")
    public static let mp3 = SniffedFile("audio/mpeg", "mp3")
    public static let m4a = SniffedFile("audio/mp4", "m4a")
    public static let mp4 = SniffedFile("video/mp4", "mp4")
    public static let mov = SniffedFile("video/quicktime", "mov")
    public static let wav = SniffedFile("audio/wav", "wav")
    public static let ogg = SniffedFile("audio/ogg", "ogg")
    /// UTF-8 (or ASCII) text. HTML, XML and SVG are text too and read as this: a file someone
    /// uploaded must never come back as markup the browser runs.
    public static let plainText = SniffedFile("text/plain", "txt")
    /// Anything else, an empty file included.
    public static let unknown = SniffedFile("application/octet-stream", "bin")
}

/// Tells what a file is from its first bytes, never from its name or the type its sender claimed:
/// those are the sender's word, and a page that trusted them would serve an "image" that is HTML.
public enum FileSniffer {
    /// How many leading bytes `sniff` reads: enough for every signature, the first entries of an
    /// Office or OpenDocument zip, and two MP3 frames.
    public static let window = 8 * 1024

    /// What `bytes` are, from at most their first `window` bytes.
    public static func sniff(_ bytes: some Collection<UInt8>) -> SniffedFile {
        var head = Array(bytes.prefix(window + 1))
        let isCut = head.count > window
        if isCut { head.removeLast() }
        return signature(head) ?? (isText(head, isCut: isCut) ? .plainText : .unknown)
    }

    private static func signature(_ head: [UInt8]) -> SniffedFile? {
        if head.has([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.has([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.has("GIF87a") || head.has("GIF89a") { return .gif }
        if head.has("RIFF") && head.has("WEBP", at: 8) { return .webp }
        if head.has("RIFF") && head.has("WAVE", at: 8) { return .wav }
        if head.has("ftyp", at: 4) { return isoMedia(head) }
        if isBMP(head) { return .bmp }
        if head.has("II*\0") || head.has("MM\0*") { return .tiff }
        if head.has("%PDF-") { return .pdf }
        if head.has("PK\u{3}\u{4}") { return zipKind(head) }
        // An empty archive (end of central directory only), and one split into volumes.
        if head.has("PK\u{5}\u{6}") || head.has("PK\u{7}\u{8}") { return .zip }
        if head.has(#"{\rtf"#) { return .rtf }
        if head.has("OggS\0") { return .ogg }
        if isID3(head) { return .mp3 }
        // Without a tag, two layer III frames in a row: a frame header alone happens by chance
        // (a UTF-16 text's byte order mark is one), the next one where the first says it is does not.
        if let length = mpegFrameLength(head, at: 0, layerIII: true),
            mpegFrameLength(head, at: length, layerIII: true) != nil
        {
            return .mp3
        }
        return nil
    }

    // MARK: Images

    /// `BM`, then zeros where the header reserves them and a DIB header size Windows or OS/2
    /// writes: `BM` alone starts plenty of text files.
    private static func isBMP(_ head: [UInt8]) -> Bool {
        guard head.count >= 18, head.has("BM"), head[6..<10].allSatisfy({ $0 == 0 }) else { return false }
        return [12, 16, 40, 52, 56, 64, 108, 124].contains(head.littleEndian(at: 14, count: 4))
    }

    /// ISO base media files (MP4, QuickTime, HEIF, AVIF) by their `ftyp` box: the major brand,
    /// else the first compatible brand known. A HEIF file (`mif1`, `msf1`) is an image whatever
    /// else it lists, as its other brands name the codec.
    private static func isoMedia(_ head: [UInt8]) -> SniffedFile? {
        let size = head.bigEndian(at: 0, count: 4)
        guard size >= 16, head.count >= 12 else { return nil }
        let major = head.brand(at: 8)
        let end = min(size, head.count)
        let compatible = stride(from: 16, to: end - 3, by: 4).map { head.brand(at: $0) }
        if let kind = kind(ofBrand: major) { return kind }
        if ([major] + compatible).contains(where: { $0 == "mif1" || $0 == "msf1" }) {
            return compatible.lazy.compactMap(kind(ofBrand:)).first { $0 == .avif || $0 == .heic } ?? .heif
        }
        return compatible.lazy.compactMap(kind(ofBrand:)).first
    }

    private static func kind(ofBrand brand: String) -> SniffedFile? {
        switch brand {
        case "avif", "avis": .avif
        case "heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs": .heic
        case "qt  ": .mov
        case "M4A ", "M4B ", "M4P ": .m4a
        case "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9", "mp41", "mp42", "avc1", "dash",
            "M4V ", "M4VH", "M4VP", "mmp4", "f4v ", "MSNV", "XAVC":
            .mp4
        default: nil
        }
    }

    // MARK: Archives

    /// A zip, or the document format built on one: OpenDocument and EPUB name themselves in a
    /// first entry `mimetype`, stored uncompressed; Office Open XML has `[Content_Types].xml` and
    /// a `word/`, `xl/` or `ppt/` folder among its first entries. Plain `application/zip` when the
    /// window shows neither.
    private static func zipKind(_ head: [UInt8]) -> SniffedFile {
        guard let first = ZipEntry(head, at: 0) else { return .zip }
        if first.name == "mimetype" {
            guard first.method == 0, let size = first.compressedSize, size > 0, size <= head.count - first.dataStart
            else { return .zip }
            switch String(decoding: head[first.dataStart..<first.dataStart + size], as: UTF8.self) {
            case SniffedFile.odt.mimeType: return .odt
            case SniffedFile.ods.mimeType: return .ods
            case SniffedFile.odp.mimeType: return .odp
            case SniffedFile.epub.mimeType: return .epub
            default: return .zip
            }
        }
        var names = [first.name]
        var entry = first
        while names.count < 64, let next = entry.next(in: head) {
            names.append(next.name)
            entry = next
        }
        guard names.contains("[Content_Types].xml") else { return .zip }
        for name in names {
            if name.hasPrefix("word/") { return .docx }
            if name.hasPrefix("xl/") { return .xlsx }
            if name.hasPrefix("ppt/") { return .pptx }
        }
        return .zip
    }

    /// A zip's local file header: the name of the entry and where its data starts.
    private struct ZipEntry {
        static let signature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

        let name: String
        let method: Int
        /// Nil when a data descriptor after the data holds it (flag bit 3), as streaming writers do.
        let compressedSize: Int?
        let dataStart: Int

        init?(_ head: [UInt8], at offset: Int) {
            guard offset >= 0, offset <= head.count - 30, head.has(Self.signature, at: offset) else { return nil }
            let nameStart = offset + 30
            let nameLength = head.littleEndian(at: offset + 26, count: 2)
            guard nameLength <= head.count - nameStart else { return nil }
            name = String(decoding: head[nameStart..<nameStart + nameLength], as: UTF8.self)
            method = head.littleEndian(at: offset + 8, count: 2)
            let hasDescriptor = head.littleEndian(at: offset + 6, count: 2) & 0x8 != 0
            compressedSize = hasDescriptor ? nil : head.littleEndian(at: offset + 18, count: 4)
            dataStart = nameStart + nameLength + head.littleEndian(at: offset + 28, count: 2)
        }

        /// The entry after this one: where its size says, else (a data descriptor, a zip64 size)
        /// the next local header signature after its name.
        func next(in head: [UInt8]) -> ZipEntry? {
            if let size = compressedSize, size <= head.count - dataStart,
                let entry = ZipEntry(head, at: dataStart + size)
            {
                return entry
            }
            var offset = dataStart
            while offset <= head.count - 4 {
                if head.has(Self.signature, at: offset) { return ZipEntry(head, at: offset) }
                offset += 1
            }
            return nil
        }
    }

    // MARK: Audio

    /// An ID3v2 tag, which MP3 files start with: `ID3`, a version from 2 to 4, and a size whose
    /// four bytes keep their high bit clear. The rare tag before other audio (AAC, FLAC) reads as
    /// MP3 too: telling them apart means reading past a tag that can be megabytes long.
    private static func isID3(_ head: [UInt8]) -> Bool {
        head.count >= 10 && head.has("ID3") && (2...4).contains(head[3]) && head[6..<10].allSatisfy { $0 < 0x80 }
    }

    /// The length of the MPEG audio frame whose header starts at `offset`; nil when the bytes
    /// there are no frame header (sync bits, then no reserved version, layer, bitrate or rate), or
    /// no layer III one (what `.mp3` files hold) when asked for that.
    private static func mpegFrameLength(_ head: [UInt8], at offset: Int, layerIII: Bool) -> Int? {
        guard offset <= head.count - 4, head[offset] == 0xFF, head[offset + 1] & 0xE0 == 0xE0 else { return nil }
        let version = Int(head[offset + 1] >> 3 & 0b11)  // 0: MPEG 2.5, 1: reserved, 2: MPEG 2, 3: MPEG 1
        let layer = Int(head[offset + 1] >> 1 & 0b11)  // 1: layer III, 2: layer II, 3: layer I
        let bitrateIndex = Int(head[offset + 2] >> 4)
        let rateIndex = Int(head[offset + 2] >> 2 & 0b11)
        let padding = Int(head[offset + 2] >> 1 & 1)
        guard version != 1, layer != 0, (1...14).contains(bitrateIndex), rateIndex != 3, !layerIII || layer == 1 else {
            return nil
        }
        let isMPEG1 = version == 3
        let kilobits: [Int] =
            switch (isMPEG1, layer) {
            case (true, 3): [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
            case (true, 2): [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
            case (true, _): [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
            case (false, 3): [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
            case (false, _): [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
            }
        let bitrate = kilobits[bitrateIndex - 1] * 1000
        let sampleRate = [44_100, 48_000, 32_000][rateIndex] >> (isMPEG1 ? 0 : version == 2 ? 1 : 2)
        switch layer {
        case 3: return (12 * bitrate / sampleRate + padding) * 4
        case 1 where !isMPEG1: return 72 * bitrate / sampleRate + padding
        default: return 144 * bitrate / sampleRate + padding
        }
    }

    // MARK: Text

    /// Valid UTF-8 without control characters other than tab, line feed, form feed and carriage
    /// return (so no NUL, DEL or C1 control): text in any language, and never a binary format.
    /// A character the window cuts in two is not held against it. UTF-16 text, full of NULs,
    /// reads as binary.
    private static func isText(_ head: [UInt8], isCut: Bool) -> Bool {
        var end = head.count
        if isCut {
            var start = end - 1
            while start > 0, end - start < 4, head[start] & 0xC0 == 0x80 { start -= 1 }
            let lead = head[start]
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
            if start + length > end { end = start }
        }
        guard end > 0 else { return false }
        let text = String(decoding: head[..<end], as: UTF8.self)
        guard text.utf8.elementsEqual(head[..<end]) else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x09, 0x0A, 0x0C, 0x0D: true
            case 0x00..<0x20, 0x7F...0x9F: false
            default: true
            }
        }
    }
}

extension [UInt8] {
    fileprivate func has(_ signature: [UInt8], at offset: Int = 0) -> Bool {
        offset <= count - signature.count && self[offset..<offset + signature.count].elementsEqual(signature)
    }

    fileprivate func has(_ signature: String, at offset: Int = 0) -> Bool {
        has(Array(signature.utf8), at: offset)
    }

    fileprivate func brand(at offset: Int) -> String {
        String(decoding: self[offset..<offset + 4], as: UTF8.self)
    }

    /// The unsigned integer of `count` (at most 4) bytes at `offset`, least significant first.
    fileprivate func littleEndian(at offset: Int, count: Int) -> Int {
        self[offset..<offset + count].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    fileprivate func bigEndian(at offset: Int, count: Int) -> Int {
        self[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }
}
