import Foundation
import KithTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// An executable of this package (`kith`, `kith-bench`) that SwiftPM built next to the test bundle.
enum KithBinary {
    static func url(_ name: String = "kith") throws -> URL {
        var candidates: [URL] = []
        if name == "kith", let given = ProcessInfo.processInfo.environment["KITH_BINARY"], !given.isEmpty {
            candidates.append(URL(fileURLWithPath: given))
        }
        // The directory of the running test binary (.build/<triple>/debug/kithPackageTests.xctest).
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(argv0.deletingLastPathComponent().appendingPathComponent(name))
        candidates.append(Bundle.main.bundleURL.appendingPathComponent(name))
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
        candidates.append(RepositoryPaths.root.appendingPathComponent(".build/debug/\(name)"))
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        throw TestFailure(
            "the \(name) executable was not found; build it with `swift build --product \(name)`. Looked at:\n"
                + candidates.map(\.path).joined(separator: "\n"))
    }
}

/// What a finished `kith` run printed and how it ended.
struct KithRun: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    var description: String { "exit \(status)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)" }

    func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] else {
            throw TestFailure("stdout is not a JSON object:\n\(self)")
        }
        return object
    }
}

/// The environment for child processes: this one's, without any `KITH_*` that would leak in.
func childEnvironment(_ extra: [String: String]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("KITH_") }
    // A loaded 2-core CI machine can keep a request waiting for seconds; only timeout tests mean to time out.
    environment["KITH_TIMEOUT"] = "30"
    // A `kith serve` started by a test never asks OpenStreetMap's public geocoder.
    environment["KITH_GEOCODER_URL"] = "off"
    environment.merge(extra) { _, new in new }
    return environment
}

/// Runs `kith` to completion (killed after `timeout`), feeding `stdin`.
func runKith(
    _ arguments: [String], environment: [String: String], stdin: String? = nil, timeout: TimeInterval = 30
) async throws -> KithRun {
    let binary = try KithBinary.url()
    return try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            process.environment = childEnvironment(environment)
            let input = Pipe()
            let output = Pipe()
            let errors = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = errors
            do {
                try process.runWithDefaultSignalMask()
            } catch {
                continuation.resume(throwing: error)
                return
            }
            if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
            try? input.fileHandleForWriting.close()
            let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
            let group = DispatchGroup()
            let errorData = Locked(Data())
            group.enter()
            DispatchQueue.global().async {
                errorData.value = errors.fileHandleForReading.readDataToEndOfFile()
                group.leave()
            }
            let outputData = output.fileHandleForReading.readDataToEndOfFile()
            group.wait()
            process.waitUntilExit()
            watchdog.cancel()
            continuation.resume(
                returning: KithRun(
                    status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                    stderr: String(decoding: errorData.value, as: UTF8.self)))
        }
    }
}

/// A long-running `kith serve` (or another of the package's programs), whose output is collected as it comes.
final class ServeProcess: @unchecked Sendable {
    let process: Process
    private let output = Locked("")
    private let errors = Locked("")
    /// Pipes whose end has been read: the process's last words are collected.
    private let pipesEnded = Locked(0)

    var stdout: String { output.value }
    var stderr: String { errors.value }

    init(arguments: [String], environment: [String: String], executable: String = "kith") throws {
        let process = Process()
        process.executableURL = try KithBinary.url(executable)
        process.arguments = arguments
        process.environment = childEnvironment(environment)
        process.standardInput = FileHandle.nullDevice
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        let pipesEnded = self.pipesEnded
        for (pipe, text) in [(outputPipe, output), (errorPipe, errors)] {
            pipe.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                guard !data.isEmpty else {
                    handle.readabilityHandler = nil
                    pipesEnded.withLock { $0 += 1 }
                    return
                }
                text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
        self.process = process
        try process.runWithDefaultSignalMask()
    }

    /// Waits for the readiness line and returns the URL it names.
    func waitUntilServing(timeout: Duration = .seconds(60)) async throws -> (url: URL, line: String) {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let line = stdout.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix("Kith is serving ") }) {
                let rest = line.dropFirst("Kith is serving ".count)
                let address = rest.prefix { !$0.isWhitespace }
                guard let url = URL(string: String(address)) else { throw TestFailure("unreadable line: \(line)") }
                return (url, String(line))
            }
            if !process.isRunning {
                throw TestFailure(
                    "kith serve exited (\(process.terminationStatus)) before serving:\n\(stdout)\n\(stderr)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("kith serve did not say it was serving within \(timeout):\n\(stdout)\n\(stderr)")
    }

    /// Waits for the process to end; nil if it is still running after `timeout`.
    func waitForExit(timeout: Duration) async throws -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(25))
        }
        if process.isRunning { return nil }
        // The exit can be seen before the last of its output is read: wait for both pipes' ends.
        while pipesEnded.value < 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(25))
        }
        return process.terminationStatus
    }

    func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Ends the process if a test left it running (SIGTERM, then SIGKILL).
    func stop() { process.stop() }
}
