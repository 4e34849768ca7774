#if canImport(Security)
    import Foundation
    import KithCore
    import Security

    /// Keeps a secret in the Keychain (Apple platforms), readable only after first unlock and
    /// never synced to other devices: a session or token belongs to one device.
    public struct KeychainSecretStore<Secret: Codable & Sendable>: SecretStore {
        public let service: String
        public let account: String

        public init(service: String = "kith.session", account: String = "default") {
            self.service = service
            self.account = account
        }

        private var query: [String: Any] {
            [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
        }

        public func load() throws -> Secret? {
            var request = query
            request[kSecReturnData as String] = true
            request[kSecMatchLimit as String] = kSecMatchLimitOne
            var item: CFTypeRef?
            let status = SecItemCopyMatching(request as CFDictionary, &item)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = item as? Data else {
                throw KithError.storage("the Keychain refused to read the secret (status \(status))")
            }
            return try WireCoding.decoder().decode(Secret.self, from: data)
        }

        public func save(_ secret: Secret) throws {
            let data = try WireCoding.encoder().encode(secret)
            let update: [String: Any] = [kSecValueData as String: data]
            var status = SecItemUpdate(query as CFDictionary, update as CFDictionary)
            if status == errSecItemNotFound {
                var add = query
                add[kSecValueData as String] = data
                add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                status = SecItemAdd(add as CFDictionary, nil)
            }
            guard status == errSecSuccess else {
                throw KithError.storage("the Keychain refused to save the secret (status \(status))")
            }
        }

        public func clear() throws {
            let status = SecItemDelete(query as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw KithError.storage("the Keychain refused to remove the secret (status \(status))")
            }
        }
    }

    extension KeychainSecretStore: SessionStore where Secret == StoredSession {}
    public typealias KeychainSessionStore = KeychainSecretStore<StoredSession>
#endif
