#if canImport(Security)
    import Foundation
    import KithCore
    import Security

    /// Keeps the session in the Keychain (Apple platforms), readable only after first unlock and
    /// never synced to other devices: a session belongs to one device.
    public struct KeychainSessionStore: SessionStore {
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

        public func load() throws -> StoredSession? {
            var request = query
            request[kSecReturnData as String] = true
            request[kSecMatchLimit as String] = kSecMatchLimitOne
            var item: CFTypeRef?
            let status = SecItemCopyMatching(request as CFDictionary, &item)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = item as? Data else {
                throw KithError.storage("the Keychain refused to read the session (status \(status))")
            }
            return try WireCoding.decoder().decode(StoredSession.self, from: data)
        }

        public func save(_ session: StoredSession) throws {
            let data = try WireCoding.encoder().encode(session)
            let update: [String: Any] = [kSecValueData as String: data]
            var status = SecItemUpdate(query as CFDictionary, update as CFDictionary)
            if status == errSecItemNotFound {
                var add = query
                add[kSecValueData as String] = data
                add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                status = SecItemAdd(add as CFDictionary, nil)
            }
            guard status == errSecSuccess else {
                throw KithError.storage("the Keychain refused to save the session (status \(status))")
            }
        }

        public func clear() throws {
            let status = SecItemDelete(query as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw KithError.storage("the Keychain refused to remove the session (status \(status))")
            }
        }
    }
#endif
