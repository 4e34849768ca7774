import Foundation
import KithCore
import Testing

/// Bodies as curl, Python's requests and browsers send them, read part for part and byte for
/// byte; bodies KithKit writes, read back; and every malformed, cut or random body refused with
/// a reason rather than a crash or a shorter file.
@Suite("multipart/form-data")
struct MultipartFormDataTests {
    // MARK: What real clients send

    @Test func readsWhatRequestsSends() throws {
        let form = try Self.captured("requests-document").form
        let pdf = try WireFixtures.bytes("multipart/sent/tiny.pdf")
        #expect(form.parts.map(\.name) == ["contact_id", "document"])
        #expect(form.field("contact_id") == "3")
        let document = try #require(form.file("document"))
        #expect(document.filename == "a b.pdf")
        #expect(document.contentType == "application/pdf")
        #expect(document.body == pdf)
    }

    /// requests writes a non-ASCII filename as UTF-8 and its quotes as `%22` (as browsers do),
    /// and no Content-Type for a file it was given none for.
    @Test func readsRequestsUnicodeAndBinaryParts() throws {
        let form = try Self.captured("requests-unicode").form
        let note = try WireFixtures.bytes("multipart/sent/note.txt")
        let blob = try WireFixtures.bytes("multipart/sent/blob.bin")
        #expect(form.parts.map(\.name) == ["title", "note", "blob"])
        #expect(form.field("title") == "Café ☕")
        #expect(form.file("note")?.filename == "résumé %22final%22.txt")
        #expect(form.file("note")?.contentType == "text/plain")
        #expect(form.file("note")?.body == note)
        #expect(form.file("blob")?.filename == "blob.bin")
        #expect(form.file("blob")?.contentType == nil)
        #expect(form.file("blob")?.body == blob)
    }

    @Test func readsWhatCurlSends() throws {
        let form = try Self.captured("curl-form").form
        let pdf = try WireFixtures.bytes("multipart/sent/tiny.pdf")
        let blob = try WireFixtures.bytes("multipart/sent/blob.bin")
        let note = try WireFixtures.bytes("multipart/sent/note.txt")
        #expect(form.parts.map(\.name) == ["contact_id", "document", "blob", "note"])
        #expect(form.field("contact_id") == "3")
        #expect(form.file("document")?.filename == "a b.pdf")
        #expect(form.file("document")?.contentType == "application/pdf")
        #expect(form.file("document")?.body == pdf)
        #expect(form.file("blob")?.contentType == "application/octet-stream")
        #expect(form.file("blob")?.body == blob)
        #expect(form.file("note")?.filename == "résumé %22final%22.txt")
        #expect(form.file("note")?.body == note)
    }

    /// `curl --form-escape` writes `\"` and `\\` in filenames, which read back as `"` and `\`.
    @Test func readsCurlsBackslashEscapes() throws {
        let form = try Self.captured("curl-form-escape").form
        #expect(form.file("note")?.filename == #"résumé "final".txt"#)
        #expect(form.file("path")?.filename == #"C:\Users\me\a.pdf"#)
    }

    /// Chrome's form: a WebKit boundary, and a file input with no file chosen sent as a part with
    /// an empty filename, which is no file.
    @Test func readsABrowserFormWithNoFileChosen() throws {
        let boundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW"
        let body = Self.crlf([
            "--\(boundary)", #"Content-Disposition: form-data; name="contact_id""#, "", "3",
            "--\(boundary)", #"Content-Disposition: form-data; name="document"; filename="""#,
            "Content-Type: application/octet-stream", "", "", "--\(boundary)--", "",
        ])
        let form = try MultipartFormData(parsing: body, boundary: boundary)
        #expect(form.field("contact_id") == "3")
        #expect(form.parts[1].filename == "")
        #expect(form.parts[1].body.isEmpty)
        #expect(form.file("document") == nil)
        #expect(form.field("document") == nil)
    }

    // MARK: Reading

    @Test func ignoresPreambleEpilogueAndTransportPadding() throws {
        let body = Self.crlf([
            "This is the preamble; --B is not a boundary line here.", "--B \t",
            "Content-Disposition: form-data; name=a", "", "x", "--B--  ", "The epilogue. --B", "--B", "",
        ])
        let form = try MultipartFormData(parsing: body, boundary: "B")
        #expect(form.parts == [.init(name: "a", value: "x")])
    }

    /// A body whose first boundary line ends in a bare LF uses LF throughout, and a CR in a part
    /// is the part's own.
    @Test func readsBareLineFeedBodies() throws {
        let lines =
            ["--B", #"Content-Disposition: form-data; name="a""#, "", "line 1\r", "line 2", "--B"]
            + [#"Content-Disposition: form-data; name="b""#, "", "", "--B--", ""]
        let body = Array(lines.joined(separator: "\n").utf8)
        let form = try MultipartFormData(parsing: body, boundary: "B")
        #expect(form.field("a") == "line 1\r\nline 2")
        #expect(form.field("b") == "")
    }

    /// In a CRLF body, only CRLF then `--boundary` then a line end (or `--`) ends a part: a bare LF
    /// before it, or a longer word after it, is content.
    @Test func keepsNearMissesInsideAPart() throws {
        let content = "one\n--B\r\ntwo\r\n--Bonus\r\n--B-\r\n--\r\n\r\n-"
        let body = Array("--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\(content)\r\n--B--\r\n".utf8)
        #expect(try MultipartFormData(parsing: body, boundary: "B").field("a") == content)
    }

    @Test func prefersTheExtendedFilename() throws {
        let cases: [(String, String)] = [
            (#"filename="resume.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf"#, "résumé.pdf"),
            (#"filename*=utf-8'fr'r%c3%a9sum%c3%a9.pdf; filename="resume.pdf""#, "résumé.pdf"),
            (#"filename="cafe.txt"; filename*=ISO-8859-1'en'caf%E9.txt"#, "café.txt"),
            (#"filename*="UTF-8''quoted%20anyway.txt""#, "quoted anyway.txt"),
            // An extended value that can't be read leaves the plain one.
            (#"filename="plain.txt"; filename*=UTF-8''bad%ZZescape"#, "plain.txt"),
            (#"filename="plain.txt"; filename*=UTF-8''%FF%FE"#, "plain.txt"),
            (#"filename="plain.txt"; filename*=x-unknown''abc"#, "plain.txt"),
            (#"filename="plain.txt"; filename*=no-quotes"#, "plain.txt"),
        ]
        for (parameters, expected) in cases {
            let form = try MultipartFormData(
                parsing: Self.onePart("form-data; name=\"f\"; \(parameters)"), boundary: "B")
            #expect(form.file("f")?.filename == expected, "\(parameters)")
        }
    }

    @Test func readsQuotedAndUnquotedParameters() throws {
        let cases: [(String, String, String?)] = [
            (#"form-data; name="a;b"; filename="x; y.txt""#, "a;b", "x; y.txt"),
            (#"form-data; name="q"; filename="say \"hi\" \\ bye.txt""#, "q", #"say "hi" \ bye.txt"#),
            // Internet Explorer's unescaped Windows path.
            (#"form-data; name="p"; filename="C:\dir\new.txt""#, "p", #"C:\dir\new.txt"#),
            ("form-data; name=plain; filename=a b.txt ", "plain", "a b.txt"),
            (#"FORM-DATA; NAME="upper"; FileName="Case.txt""#, "upper", "Case.txt"),
            (#"form-data;name="tight";filename="t.txt""#, "tight", "t.txt"),
            (#"form-data; name="first"; name="second""#, "first", nil),
            (#"form-data; name="naïve ☕""#, "naïve ☕", nil),
            (#"form-data; name="""#, "", nil),
            (#"form-data; name="unterminated"#, "unterminated", nil),
        ]
        for (disposition, name, filename) in cases {
            let part = try MultipartFormData(parsing: Self.onePart(disposition), boundary: "B").parts[0]
            #expect(part.name == name, "\(disposition)")
            #expect(part.filename == filename, "\(disposition)")
        }
    }

    @Test func readsHeadersInAnyCaseAndFolded() throws {
        let body = Self.crlf([
            "--B", "content-disposition: form-data;", "\tname=\"folded\"", "CONTENT-TYPE:   text/csv  ", "X-Other: 1",
            "Content-Type: text/plain", "", "a,b", "--B--",
        ])
        let part = try MultipartFormData(parsing: body, boundary: "B").parts[0]
        #expect(part.name == "folded")
        #expect(part.contentType == "text/csv")
        #expect(part.body == Array("a,b".utf8))
    }

    @Test func readsTheBoundaryFromTheContentType() {
        let cases: [(String, String?)] = [
            ("multipart/form-data; boundary=abc", "abc"),
            (#"multipart/form-data; boundary="a b:c""#, "a b:c"),
            ("Multipart/Form-Data; charset=utf-8; BOUNDARY=abc", "abc"),
            ("multipart/form-data;boundary=abc ; charset=utf-8", "abc"),
            (
                "multipart/form-data; boundary=------------------------7e4c5ad5f5d7229a",
                "------------------------7e4c5ad5f5d7229a"
            ),
            ("multipart/form-data", nil),
            ("multipart/form-data; boundary=", nil),
            ("multipart/mixed; boundary=abc", nil),
            ("application/json", nil),
            ("", nil),
        ]
        for (contentType, boundary) in cases {
            #expect(MultipartFormData.boundary(fromContentType: contentType) == boundary, "\(contentType)")
        }
        for boundary in ["simple", "a b", "x=y", MultipartFormData.makeBoundary()] {
            #expect(
                MultipartFormData.boundary(fromContentType: MultipartFormData.contentType(boundary: boundary))
                    == boundary)
        }
    }

    @Test func findsFieldsAndFilesByName() {
        let form = MultipartFormData(parts: [
            .init(name: "a", value: "1"),
            .init(name: "a", filename: "x.txt", body: [0x78]),
            .init(name: "a", value: "2"),
            .init(name: "b", filename: "", contentType: "application/octet-stream", body: []),
            .init(name: "c", filename: "empty.txt", body: []),
            .init(name: "d", body: [0x66, 0xFF]),
        ])
        #expect(form.field("a") == "1")
        #expect(form.file("a")?.filename == "x.txt")
        #expect(form.file("b") == nil)
        #expect(form.field("b") == nil)
        #expect(form.file("c")?.body == [])
        #expect(form.field("d") == "f\u{FFFD}")
        #expect(form.field("missing") == nil && form.file("missing") == nil)
    }

    // MARK: Refusals

    @Test func refusesUnusableBoundaries() {
        for boundary in ["", "line\r\nbreak", "ends in a space ", "accentué", "tab\there"] {
            #expect(throws: MultipartError.invalidBoundary, "\(boundary)") {
                try MultipartFormData(parsing: Array("--x--".utf8), boundary: boundary)
            }
        }
        let longest = String(repeating: "b", count: 70)
        #expect(throws: MultipartError.boundaryTooLong(length: 71)) {
            try MultipartFormData(parsing: Self.onePart(boundary: longest + "b"), boundary: longest + "b")
        }
        #expect((try? MultipartFormData(parsing: Self.onePart(boundary: longest), boundary: longest))?.parts.count == 1)
    }

    @Test func refusesMalformedBodies() {
        let disposition = #"Content-Disposition: form-data; name="a""#
        let cases: [(String, [String], MultipartError)] = [
            ("empty", [""], .noParts),
            ("no boundary line", ["just text", "--Bogus", "-- B", ""], .noParts),
            ("only the closing line", ["preamble", "--B--", ""], .noParts),
            ("cut in a part", ["--B", disposition, "", "the rest is missing"], .missingClosingDelimiter),
            ("cut after a boundary line", ["--B", disposition, "", "x", "--B", ""], .missingClosingDelimiter),
            ("closing line cut short", ["--B", disposition, "", "x", "--B-"], .missingClosingDelimiter),
            ("no disposition", ["--B", "Content-Type: text/plain", "", "x", "--B--"], .missingName(part: 1)),
            (
                "not form-data", ["--B", #"Content-Disposition: attachment; name="a""#, "", "x", "--B--"],
                .missingName(part: 1)
            ),
            (
                "no name",
                [
                    "--B", disposition, "", "x", "--B", #"Content-Disposition: form-data; filename="f""#, "", "x",
                    "--B--",
                ],
                .missingName(part: 2)
            ),
            ("empty part", ["--B", "", "--B--"], .missingName(part: 1)),
            ("headers run into the boundary", ["--B", disposition, "--B--"], .unterminatedHeaders(part: 1)),
            ("no part at all", ["--B", "--B--"], .missingName(part: 1)),
            (
                "a line without a colon", ["--B", disposition, "no colon", "", "x", "--B--"],
                .malformedHeaderLine(part: 1)
            ),
            (
                "a fold with nothing to continue", ["--B", " folded", disposition, "", "x", "--B--"],
                .malformedHeaderLine(part: 1)
            ),
            (
                "headers too long",
                ["--B", disposition, "X-Long: " + String(repeating: "x", count: 9000), "", "x", "--B--"],
                .headerSectionTooLong(part: 1)
            ),
        ]
        for (label, lines, error) in cases {
            #expect(throws: error, "\(label)") { try MultipartFormData(parsing: Self.crlf(lines), boundary: "B") }
        }
    }

    @Test func refusesMoreThanAThousandParts() throws {
        let parts = (0..<MultipartFormData.maximumParts).map { MultipartFormData.Part(name: "f\($0)", value: "\($0)") }
        let atTheLimit = MultipartFormData(parts: parts).encoded(boundary: "B")
        #expect(try MultipartFormData(parsing: atTheLimit, boundary: "B").parts.count == 1000)
        let overTheLimit = MultipartFormData(parts: parts + [.init(name: "one", value: "more")]).encoded(boundary: "B")
        #expect(throws: MultipartError.tooManyParts) { try MultipartFormData(parsing: overTheLimit, boundary: "B") }
    }

    @Test func explainsEveryRefusal() {
        let errors: [MultipartError] = [
            .invalidBoundary, .boundaryTooLong(length: 71), .noParts, .missingClosingDelimiter, .missingName(part: 2),
            .headerSectionTooLong(part: 3), .unterminatedHeaders(part: 4), .malformedHeaderLine(part: 5), .tooManyParts,
        ]
        for error in errors { #expect(!error.description.isEmpty) }
        #expect(
            MultipartError.missingName(part: 2).description
                == "part 2 has no Content-Disposition: form-data header with a name")
        #expect(MultipartError.boundaryTooLong(length: 71).description.contains("71"))
        #expect(MultipartError.tooManyParts.description.contains("1000"))
    }

    // MARK: Writing

    /// Parts written as requests writes them: re-encoding its body with its boundary gives back
    /// the very bytes it sent.
    @Test func writesWhatRequestsWrites() throws {
        let (form, body) = try Self.captured("requests-document")
        let contentType = try WireFixtures.text("multipart/requests-document.content-type")
        let boundary = try #require(MultipartFormData.boundary(fromContentType: contentType))
        #expect(form.encoded(boundary: boundary) == body)
        #expect(MultipartFormData.contentType(boundary: boundary) == contentType)
        #expect(try MultipartFormData(parsing: Data(body), boundary: boundary) == form)
    }

    @Test func writesANonASCIIFilenameTwice() {
        let cases: [(String, String)] = [
            (
                #"résumé "final".txt"#,
                #"filename="resume _final_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.txt"#
            ),
            ("日本語.pdf", #"filename="___.pdf"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E.pdf"#),
            (#"C:\x.txt"#, #"filename="C:_x.txt"; filename*=UTF-8''C%3A%5Cx.txt"#),
            ("plain name (1).pdf", #"filename="plain name (1).pdf""#),
        ]
        for (filename, parameters) in cases {
            let body = MultipartFormData(parts: [.init(name: "f", filename: filename, body: [])]).encoded(boundary: "B")
            let expected = "--B\r\nContent-Disposition: form-data; name=\"f\"; \(parameters)\r\n\r\n\r\n--B--\r\n"
            #expect(String(decoding: body, as: UTF8.self) == expected)
            #expect((try? MultipartFormData(parsing: body, boundary: "B"))?.parts[0].filename == filename)
        }
    }

    /// A name or type with a line break can't add a header of its own.
    @Test func writesNoHeaderOfTheCallersMaking() throws {
        let form = MultipartFormData(parts: [
            .init(
                name: "a\r\nX-Injected: 1", filename: "f\r\nX-Injected: 2", contentType: "text/plain\r\nX-Injected: 3",
                body: [])
        ])
        let text = String(decoding: form.encoded(boundary: "B"), as: UTF8.self)
        #expect(!text.contains("\r\nX-Injected") && !text.contains("\nX-Injected"))
        let part = try MultipartFormData(parsing: form.encoded(boundary: "B"), boundary: "B").parts[0]
        #expect(part.name == "a%0D%0AX-Injected: 1")
        #expect(part.filename == "f\r\nX-Injected: 2")
        #expect(part.contentType == "text/plainX-Injected: 3")
    }

    @Test func makesFreshUsableBoundaries() throws {
        let boundaries = (0..<100).map { _ in MultipartFormData.makeBoundary() }
        #expect(Set(boundaries).count == 100)
        for boundary in boundaries {
            #expect(boundary.count <= 70 && boundary.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
        }
        let form = MultipartFormData(parts: [.init(name: "a", value: "1")])
        let boundary = try #require(boundaries.first)
        #expect(try MultipartFormData(parsing: form.encoded(boundary: boundary), boundary: boundary) == form)
    }

    /// Whatever the names, filenames, types and bytes, what is written reads back the same.
    @Test func readsBackWhatItWrites() throws {
        var generator = SeededGenerator(state: 7578)
        let names = ["contact_id", "a;b", #"q"uote"#, #"back\slash"#, "naïve ☕", "", "%0D", "tags[]"]
        let filenames: [String?] = [
            nil, nil, "", "a b.pdf", #"résumé "final".txt"#, "日本語.pdf", #"C:\dir\x.txt"#, "%22.txt", " spaced ",
            "emoji 🎉.png",
        ]
        let types: [String?] = [nil, "application/pdf", "text/plain; charset=utf-8", "image/png"]
        for _ in 0..<200 {
            let boundary = MultipartFormData.makeBoundary()
            let tricky = Array("\r\n--\(boundary.dropLast())".utf8) + [0x0D, 0x0A, 0x2D, 0x2D, 0x00]
            let parts = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                let body = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                    Bool.random(using: &generator)
                        ? UInt8.random(in: 0...255, using: &generator)
                        : tricky[Int.random(in: 0..<tricky.count, using: &generator)]
                }
                return MultipartFormData.Part(
                    name: names[Int.random(in: 0..<names.count, using: &generator)],
                    filename: filenames[Int.random(in: 0..<filenames.count, using: &generator)],
                    contentType: types[Int.random(in: 0..<types.count, using: &generator)], body: body)
            }
            let form = MultipartFormData(parts: parts)
            #expect(try MultipartFormData(parsing: form.encoded(boundary: boundary), boundary: boundary) == form)
        }
    }

    // MARK: Hostile and broken bodies

    /// Every prefix of a real body is refused, until the prefix holds its closing line.
    @Test func refusesEveryTruncation() throws {
        let (form, body) = try Self.captured("curl-form")
        let boundary = try #require(
            MultipartFormData.boundary(fromContentType: try WireFixtures.text("multipart/curl-form.content-type")))
        let closing = Array("\r\n--\(boundary)--".utf8)
        let complete = try #require(body.indices.last { body[$0...].starts(with: closing) }) + closing.count
        for length in 0..<body.count {
            let prefix = Array(body[..<length])
            if length < complete {
                #expect(throws: MultipartError.self) { try MultipartFormData(parsing: prefix, boundary: boundary) }
            } else {
                #expect(try MultipartFormData(parsing: prefix, boundary: boundary) == form)
            }
        }
    }

    /// Random bytes, random pieces of multipart syntax and random damage to a real body: each is
    /// read or refused, never a crash.
    @Test func neverTrapsOnGarbage() throws {
        var generator = SeededGenerator(state: 2046)
        let pieces = [
            "--B", "\r\n", "\n", "\r", "--", "-", " ", "Content-Disposition: form-data; name=\"a\"", "; filename=\"x\"",
            "; filename*=UTF-8''%C3%", "name=", "\"", "\\", ";", ":", "Content-Type:", "\t", "x", "\r\n\r\n", "%",
        ].map { Array($0.utf8) }
        for _ in 0..<2000 {
            var body: [UInt8] = []
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                body += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
            }
            _ = try? MultipartFormData(parsing: body, boundary: "B")
        }
        for _ in 0..<500 {
            let body = (0..<Int.random(in: 0...2000, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? MultipartFormData(parsing: body, boundary: "B")
        }
        let real = try WireFixtures.bytes("multipart/curl-form.body")
        let boundary = "------------------------7e4c5ad5f5d7229a"
        for _ in 0..<500 {
            var body = real
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let index = Int.random(in: 0..<body.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: body[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: body.remove(at: index)
                default: body.insert([0x0D, 0x0A, 0x2D, 0x22][Int.random(in: 0..<4, using: &generator)], at: index)
                }
            }
            _ = try? MultipartFormData(parsing: body, boundary: boundary)
        }
    }

    /// 10 MiB parts built to defeat a naive search (near-miss boundary lines, and a boundary of
    /// dashes in a sea of dashes, as curl's boundaries are) read in linear time. The bound is
    /// loose, for a debug build on a busy machine (each read takes about 0.25 s there); a search
    /// that compares the whole boundary at every byte takes far longer.
    @Test func readsLargeHostileBodiesInLinearTime() throws {
        let mebibytes = 10 << 20
        let boundary = "------------------------" + String(repeating: "-", count: 40) + "x"
        let nearMiss = Array("\r\n--\(boundary.dropLast())".utf8)
        var nearMisses: [UInt8] = []
        nearMisses.reserveCapacity(mebibytes)
        while nearMisses.count + nearMiss.count <= mebibytes { nearMisses += nearMiss }
        let contents = [nearMisses, [UInt8](repeating: UInt8(ascii: "-"), count: mebibytes)]
        for content in contents {
            let form = MultipartFormData(parts: [.init(name: "big", filename: "big.bin", body: content)])
            let body = form.encoded(boundary: boundary)
            let clock = ContinuousClock()
            let start = clock.now
            let read = try MultipartFormData(parsing: body, boundary: boundary)
            #expect(clock.now - start < .seconds(5))
            #expect(read.file("big")?.body == content)
        }
    }

    // MARK: Helpers

    /// A captured body (Tests/fixtures/multipart/) read with the boundary its Content-Type names.
    static func captured(_ name: String) throws -> (form: MultipartFormData, body: [UInt8]) {
        let contentType = try WireFixtures.text("multipart/\(name).content-type")
        let boundary = try #require(MultipartFormData.boundary(fromContentType: contentType))
        let body = try WireFixtures.bytes("multipart/\(name).body")
        return (try MultipartFormData(parsing: body, boundary: boundary), body)
    }

    static func crlf(_ lines: [String]) -> [UInt8] { Array(lines.joined(separator: "\r\n").utf8) }

    /// A body of one part with this Content-Disposition and the body `x`.
    static func onePart(_ disposition: String = #"form-data; name="a""#, boundary: String = "B") -> [UInt8] {
        crlf(["--\(boundary)", "Content-Disposition: \(disposition)", "", "x", "--\(boundary)--", ""])
    }
}

/// The files in Tests/fixtures/ (each folder's README says where they come from), for the Wire
/// tests: multipart bodies here, sniffed files in FileSnifferTests.
enum WireFixtures {
    static let folder: URL = {
        // Up from this file to the folder that holds fixtures/multipart (Tests/).
        var directory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = directory.appendingPathComponent("fixtures")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("multipart").path) {
                return candidate
            }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../fixtures")
    }()

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(path)))
    }

    static func text(_ path: String) throws -> String { String(decoding: try bytes(path), as: UTF8.self) }
}
