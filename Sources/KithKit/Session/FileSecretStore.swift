import Foundation
import KithCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps a secret in a JSON file readable only by its owner (mode 0600), as SSH keys are kept.
public struct FileSecretStore<Secret: Codable & Sendable>: SecretStore {
    public let fileURL: URL

    public init(fileURL: URL) { self.fileURL = fileURL }

    public func load() throws -> Secret? {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
        do {
            return try WireCoding.decoder().decode(Secret.self, from: Data(contentsOf: fileURL))
        } catch {
            throw KithError.storage("\(fileURL.path) is unreadable (\(error.localizedDescription))")
        }
    }

    public func save(_ secret: Secret) throws {
        let directory = fileURL.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let data = try WireCoding.encoder().encode(secret)
            // Written to a private temporary file first, then renamed, so the secret is never
            // readable by others, not even for a moment, and a crash never leaves half a file.
            let temporary = directory.appendingPathComponent(".\(fileURL.lastPathComponent).\(UUID().uuidString)")
            guard
                FileManager.default.createFile(
                    atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
            else { throw KithError.storage("cannot write \(temporary.path)") }
            // rename(2) replaces the destination atomically; FileManager.replaceItemAt fails on Linux.
            guard rename(temporary.path, fileURL.path) == 0 else {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: temporary)
                throw KithError.storage("cannot save \(fileURL.path) (\(reason))")
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: fileURL.path)
        } catch let error as KithError {
            throw error
        } catch {
            throw KithError.storage("cannot save \(fileURL.path) (\(error.localizedDescription))")
        }
    }

    public func clear() throws {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return }
        do {
            try FileManager.default.removeItem(at: fileURL)
        } catch {
            throw KithError.storage("cannot remove \(fileURL.path) (\(error.localizedDescription))")
        }
    }
}

extension FileSecretStore: SessionStore where Secret == StoredSession {}
public typealias FileSessionStore = FileSecretStore<StoredSession>
