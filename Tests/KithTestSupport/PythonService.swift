import Foundation

/// A stand-in server written in Python (Tests/support/*.py, or inline), run as a child process
/// that prints "READY <port>" once it listens: the SMTP sink, the push service.
public struct PythonService: Sendable {
    public let process: Process
    public let port: Int
    private let errors: Locked<Data>

    /// What it has written to standard error so far.
    public var errorText: String { String(decoding: errors.value, as: UTF8.self) }

    /// Why `python3` cannot import `modules`, or nil when it can: tests that need them must fail
    /// loudly with how to install them, never pass silently. `install` names the packages.
    public static func problem(importing modules: [String], install: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import " + modules.joined(separator: ", ")]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.runWithDefaultSignalMask()
        } catch {
            return "cannot run python3 via /usr/bin/env: \(error)"
        }
        let output = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitForExit(within: .seconds(30))
        guard process.terminationStatus != 0 else { return nil }
        // A traceback's last line names the problem ("No module named 'aiosmtpd'").
        let lastLine =
            String(decoding: output, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? "(no output)"
        return """
            these tests need python3 with \(modules.joined(separator: ", ")) (install: python3 -m pip install \(install)); \
            `python3 -c "import \(modules.joined(separator: ", "))"` exited \(process.terminationStatus): \(lastLine)
            """
    }

    /// Starts `python3 arguments…` and waits (30 s at most) for its READY line.
    public static func start(_ arguments: [String], name: String) async throws -> PythonService {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let output = Locked(Data())
        let errors = Locked(Data())
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            output.withLock { $0.append(chunk) }
        }
        stderr.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            errors.withLock { $0.append(chunk) }
        }
        try process.runWithDefaultSignalMask()
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let text = String(decoding: output.value, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("READY ") }),
                let port = Int(line.dropFirst("READY ".count).trimmingCharacters(in: .whitespaces))
            {
                return PythonService(process: process, port: port, errors: errors)
            }
            if !process.isRunning { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.stop()
        throw TestFailure(
            "\(name) did not become ready (exit \(process.terminationStatus)); stderr: \(String(decoding: errors.value, as: UTF8.self))"
        )
    }

    public func stop() { process.stop() }
}
