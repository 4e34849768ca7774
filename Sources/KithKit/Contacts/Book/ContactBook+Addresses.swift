import Foundation
import KithCore

/// Address edits: made in the cache at once, queued, and sent in order
/// through Monica's REST calls whenever the server can be reached. An address added offline has
/// a temporary negative id until the server gives it one; later edits of it follow the new id.
/// The observable state shows an edit as soon as it is queued (`pendingEdits`, the contact's
/// addresses in `list`, `searchResults` and `selectedContact`), and again once it is sent.
extension ContactBook {
    public func addresses(of contactID: Int) throws -> [MonicaAddress] { try cache.addresses(of: contactID) }

    /// An address as this device has it (its own edits included), or nil when not cached.
    public func cachedAddress(_ id: Int) throws -> MonicaAddress? {
        try cache.address(try cache.serverID(forTemporary: id) ?? id)
    }

    /// Adds an address to a contact. Online, it is on the server when this returns (with the
    /// server's id); offline, it is kept here with a temporary id and sent later. A refusal by
    /// the server (422) throws its message and leaves nothing behind.
    @discardableResult
    public func addAddress(_ address: PostalAddress, to contactID: Int) async throws -> MonicaAddress {
        let input = try Self.checked(address, contactID: contactID)
        let local = try cache.queueCreation(of: input, contact: try cache.contact(contactID)?.summary, at: now())
        refresher.refresh()
        try await sendNow(editing: local.id)
        let id = try cache.serverID(forTemporary: local.id) ?? local.id
        return try cache.address(id) ?? local
    }

    /// Replaces every field of an address (as Monica's update does).
    @discardableResult
    public func updateAddress(_ id: Int, to address: PostalAddress) async throws -> MonicaAddress {
        let id = try cache.serverID(forTemporary: id) ?? id
        guard let contactID = try cache.contactID(ofAddress: id) else { throw MonicaClientError.notFound }
        let input = try Self.checked(address, contactID: contactID)
        let local = try cache.queueUpdate(of: id, to: input, at: now())
        refresher.refresh()
        try await sendNow(editing: id)
        return try cache.address(try cache.serverID(forTemporary: id) ?? id) ?? local
    }

    public func deleteAddress(_ id: Int) async throws {
        let id = try cache.serverID(forTemporary: id) ?? id
        try cache.queueDeletion(of: id, at: now())
        refresher.refresh()
        try await sendNow(editing: id)
    }

    /// Address edits made here and not yet on the server, oldest first.
    public func pendingAddressEdits() throws -> [PendingAddressEdit] { try cache.pendingAddressEdits() }

    /// Edits the server refused, so the person can see what did not stick.
    public func refusedAddressEdits() throws -> [FailedAddressEdit] { try cache.failedAddressEdits() }

    public func dismissRefusedAddressEdits() throws {
        try cache.dismissFailedAddressEdits()
        refresher.refresh()
    }

    /// Sends the queued edits in order. Stops (keeping the rest) at the first one that can't reach
    /// the server; an edit the server refuses is dropped, recorded, and the contact's addresses
    /// re-read so the cache shows the server's truth. Only one replay runs at a time.
    @discardableResult
    public func sendPendingAddressEdits() async throws -> AddressReplay {
        if let replay { return try await replay.value }
        let task = Task { try await self.replayQueuedEdits() }
        replay = task
        defer {
            replay = nil
            refresher.refresh()
        }
        return try await task.value
    }

    /// Sends the queue now; a refusal of the edit just made is thrown to its caller (and so not
    /// kept among `refusedAddressEdits()` as well), while a network failure leaves it queued (the
    /// caller sees it as pending).
    private func sendNow(editing addressID: Int) async throws {
        let result = try await sendPendingAddressEdits()
        if case .signedOut = result.stoppedBy { throw MonicaClientError.signedOut }
        let mapped = try cache.serverID(forTemporary: addressID)
        let mine = result.refused.filter { $0.addressID == addressID || $0.addressID == mapped }
        if let refusal = mine.first {
            try cache.forgetFailedAddressEdits(mine)
            refresher.refresh()
            throw MonicaClientError.invalid(refusal.message)
        }
    }

    private func replayQueuedEdits() async throws -> AddressReplay {
        var result = AddressReplay()
        while let edit = try cache.nextAddressEdit() {
            do {
                switch edit.action {
                case .create:
                    guard let input = edit.input else {
                        throw MonicaClientError.invalid("This new address has no fields.")
                    }
                    try cache.completeAddressEdit(edit, saved: try await client.createAddress(input))
                case .update:
                    guard let input = edit.input else {
                        throw MonicaClientError.invalid("This address change has no fields.")
                    }
                    try cache.completeAddressEdit(edit, saved: try await client.updateAddress(edit.addressID, input))
                case .delete:
                    do {
                        try await client.deleteAddress(edit.addressID)
                    } catch MonicaClientError.notFound {
                        // Already gone: what the edit wanted.
                    }
                    try cache.completeAddressEdit(edit, saved: nil)
                }
                result.sent += 1
            } catch let error as MonicaClientError where error.isRetryable || error == .signedOut {
                try cache.noteAttempt(edit, error: error.userMessage)
                result.stoppedBy = error
                break
            } catch let error as MonicaClientError {
                let failedAt = now()
                try cache.failAddressEdit(edit, message: error.userMessage, at: failedAt)
                result.refused.append(
                    FailedAddressEdit(
                        seq: edit.seq, action: edit.action, addressID: edit.addressID, contactID: edit.contactID,
                        message: error.userMessage, failedAt: failedAt))
                try? await restoreAddresses(of: edit.contactID)
            }
        }
        result.remaining = try cache.pendingAddressEdits().count
        return result
    }

    /// After a refusal: the contact's addresses as the server has them, plus any edits of theirs
    /// still queued.
    private func restoreAddresses(of contactID: Int) async throws {
        guard try !cache.contactsWithPendingEdits().contains(contactID) else { return }
        try cache.replaceAddresses(of: contactID, with: try await client.addresses(of: contactID))
    }

    /// The checks Monica makes, made before anything is stored, so an edit queued offline is one
    /// the server will accept.
    nonisolated static func checked(_ address: PostalAddress, contactID: Int) throws -> MonicaAddressInput {
        guard !address.isEmpty else {
            throw MonicaClientError.invalid(
                "The address is empty: give at least a label, street, city, region, postal code, country or coordinates."
            )
        }
        var address = address
        let texts: [(String, String?)] = [
            ("label", address.label), ("street", address.street), ("city", address.city), ("region", address.province),
            ("postal code", address.postalCode),
        ]
        for (name, text) in texts where PostalAddress.isTooLong(text) {
            throw MonicaClientError.invalid(
                "The \(name) may not be longer than \(PostalAddress.maximumFieldLength) characters.")
        }
        if let country = address.countryCode?.trimmingCharacters(in: .whitespaces), !country.isEmpty {
            guard let code = ISOCountries.code(country) else {
                throw MonicaClientError.invalid(
                    "\(country) is not a country code. Use an ISO 3166 code such as FR or US.")
            }
            address.countryCode = code
        } else {
            address.countryCode = nil
        }
        if let latitude = address.latitude, !(-90...90).contains(latitude) {
            throw MonicaClientError.invalid("The latitude must be between -90 and 90.")
        }
        if let longitude = address.longitude, !(-180...180).contains(longitude) {
            throw MonicaClientError.invalid("The longitude must be between -180 and 180.")
        }
        return MonicaAddressInput(contactID: contactID, address)
    }
}
