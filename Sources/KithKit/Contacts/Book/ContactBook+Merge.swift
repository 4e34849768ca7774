import Foundation

extension ContactBook {
    /// Merges contact `otherID` into contact `keptID` on the server (Kith's `/api` only: a real
    /// Monica answers `notFound`): the kept contact's blanks are filled from the other, everything
    /// on the other moves to it, and the other is deleted, all or nothing. Address edits queued
    /// on this device are sent first, so none is left naming a contact that is gone. Needs the
    /// server; the cache then forgets the other and holds the kept contact's page as it is now,
    /// which is returned and becomes `selectedContact`.
    public func merge(_ otherID: Int, into keptID: Int) async throws -> ContactDetails {
        _ = try await sendPendingAddressEdits()
        _ = try await client.mergeContacts(keeping: keptID, merging: otherID)
        try cache.removeContact(otherID)
        refresher.refresh()
        return try await details(of: keptID)
    }
}
