import ArgumentParser
import Foundation
import KithCore
import KithKit

/// Prints results as text or JSON on the console's standard output, notes on its standard error,
/// and failures as one clear line on standard error with exit code 1.
struct Output: Sendable {
    let json: Bool
    let console: Console

    func emit<Value: Encodable>(_ value: Value, text: () -> String) {
        if json {
            let encoder = WireCoding.encoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            if let data = try? encoder.encode(value) { console.write(String(decoding: data, as: UTF8.self) + "\n") }
        } else {
            console.write(text() + "\n")
        }
    }

    /// One line of a stream (`--watch`): compact JSON with --json.
    func emitLine<Value: Encodable>(_ value: Value, text: () -> String) {
        var line = text()
        if json {
            let encoder = WireCoding.encoder()
            encoder.outputFormatting = [.sortedKeys]
            line = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        }
        console.write(line + "\n")
    }

    /// Text as it is, such as a CSV file.
    func write(_ text: String) { console.write(text) }

    /// A line on standard error that is not a failure (progress, offline notes).
    func note(_ line: String) { console.writeError(line + "\n") }

    /// Runs a command body and turns any failure into a message and exit code 1: KithKit's errors
    /// (`UserFacingError`) all the same way, as their sentence (`--json`: `{"error":{code,message,field}}`).
    func run(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as any UserFacingError {
            report(error.apiDetail)
            throw ExitCode.failure
        } catch let error as ValidationError {
            throw error
        } catch let error as ExitCode {
            throw error
        } catch {
            report(APIErrorDetail(.error, "\(error)"))
            throw ExitCode.failure
        }
    }

    private func report(_ detail: APIErrorDetail) {
        let line: String
        if json, let data = try? WireCoding.encoder().encode(APIErrorBody(detail)) {
            line = String(decoding: data, as: UTF8.self)
        } else {
            line = "error: \(detail.message)"
        }
        console.writeError(line + "\n")
    }
}

extension UserFacingError {
    /// The error as the wire shape, so `--json` errors look like the server's: its identifier as
    /// the code, its sentence, the field at fault.
    var apiDetail: APIErrorDetail {
        if let error = self as? KithError, error == .notSignedIn {
            return APIErrorDetail(
                code: identifier, message: "You are not signed in. Run `kith account login` first.")
        }
        return APIErrorDetail(code: identifier, message: userMessage, field: field)
    }
}
