import Foundation

/// The properties of each kind of resource, and which of them `allprop` lists.
struct DAVProperties {
    let user: AuthenticatedUser

    private var principalHref: XMLNode { .href(DAVTarget.principalPath(user)) }

    /// What every resource answers: who is asking (RFC 5397), and a display name.
    private func common(displayName: String?) -> [XMLName: XMLNode] {
        var properties: [XMLName: XMLNode] = [
            DAVName.dav("current-user-principal"): .dav("current-user-principal", [principalHref]),
            DAVName.dav("owner"): .dav("owner", [principalHref]),
        ]
        if let displayName { properties[DAVName.displayname] = .dav("displayname", text: displayName) }
        return properties
    }

    private func collectionType(_ extra: [XMLName] = []) -> XMLNode {
        .dav("resourcetype", [.dav("collection")] + extra.map { XMLNode($0) })
    }

    private static let readOnly: XMLNode = .dav(
        "current-user-privilege-set",
        [.dav("privilege", [.dav("read")]), .dav("privilege", [.dav("read-current-user-privilege-set")])])
    private static let readWrite: XMLNode = .dav(
        "current-user-privilege-set",
        ["read", "read-current-user-privilege-set", "write", "write-content", "write-properties", "bind", "unbind"].map
        {
            .dav("privilege", [.dav($0)])
        })

    func root() -> (properties: [XMLName: XMLNode], listed: [XMLName]) {
        var properties = common(displayName: "Kith")
        properties[DAVName.resourcetype] = collectionType()
        properties[DAVName.dav("current-user-privilege-set")] = Self.readOnly
        return (properties, [DAVName.resourcetype, DAVName.displayname, DAVName.dav("current-user-principal")])
    }

    func principal() -> (properties: [XMLName: XMLNode], listed: [XMLName]) {
        var properties = common(displayName: user.email)
        properties[DAVName.resourcetype] = collectionType([DAVName.dav("principal")])
        properties[DAVName.dav("principal-URL")] = .dav("principal-URL", [principalHref])
        properties[DAVName.card("addressbook-home-set")] = XMLNode(
            DAVName.card("addressbook-home-set"), children: [.href(DAVTarget.addressBookHomePath(user))])
        properties[DAVName.cal("calendar-home-set")] = XMLNode(
            DAVName.cal("calendar-home-set"), children: [.href(DAVTarget.calendarHomePath(user))])
        properties[DAVName.cal("calendar-user-address-set")] = XMLNode(
            DAVName.cal("calendar-user-address-set"), children: [.href("mailto:" + user.email)])
        properties[DAVName.dav("current-user-privilege-set")] = Self.readOnly
        return (
            properties,
            [
                DAVName.resourcetype, DAVName.displayname, DAVName.dav("current-user-principal"),
                DAVName.dav("principal-URL"), DAVName.card("addressbook-home-set"), DAVName.cal("calendar-home-set"),
            ]
        )
    }

    func home(displayName: String) -> (properties: [XMLName: XMLNode], listed: [XMLName]) {
        var properties = common(displayName: displayName)
        properties[DAVName.resourcetype] = collectionType()
        properties[DAVName.dav("current-user-privilege-set")] = Self.readOnly
        return (properties, [DAVName.resourcetype, DAVName.displayname])
    }

    func collection(_ collection: any DAVCollection, _ state: DAVCollectionState) -> (
        properties: [XMLName: XMLNode], listed: [XMLName]
    ) {
        var properties = common(displayName: collection.displayName)
        properties[DAVName.resourcetype] = collectionType([collection.resourceType])
        properties[DAVName.syncToken] = .dav("sync-token", text: SyncToken.make(state))
        properties[XMLName(DAVNamespace.calendarServer, "getctag")] = XMLNode(
            XMLName(DAVNamespace.calendarServer, "getctag"), text: SyncToken.ctag(state))
        properties[DAVName.dav("current-user-privilege-set")] = Self.readWrite
        let reports = [DAVName.syncCollection] + collection.reports
        properties[DAVName.dav("supported-report-set")] = .dav(
            "supported-report-set", reports.map { .dav("supported-report", [.dav("report", [XMLNode($0)])]) })
        properties.merge(collection.collectionProperties()) { _, own in own }
        return (
            properties,
            [
                DAVName.resourcetype, DAVName.displayname, DAVName.syncToken,
                XMLName(DAVNamespace.calendarServer, "getctag"),
            ]
        )
    }

    func member(_ collection: any DAVCollection, _ item: DAVItem, body: String?) -> (
        properties: [XMLName: XMLNode], listed: [XMLName]
    ) {
        var properties: [XMLName: XMLNode] = [
            DAVName.resourcetype: .dav("resourcetype"),
            DAVName.getetag: .dav("getetag", text: "\"\(item.etag)\""),
            DAVName.getcontenttype: .dav("getcontenttype", text: collection.memberContentType),
        ]
        if let body {
            properties[collection.dataProperty] = XMLNode(collection.dataProperty, text: body)
            properties[DAVName.getcontentlength] = .dav("getcontentlength", text: String(body.utf8.count))
        }
        return (properties, [DAVName.resourcetype, DAVName.getetag, DAVName.getcontenttype])
    }
}

extension DAVCollection {
    /// The reports besides sync-collection: the collection's multiget and query.
    var reports: [XMLName] {
        resourceType == DAVName.card("addressbook")
            ? [DAVName.addressbookMultiget, DAVName.addressbookQuery]
            : [DAVName.calendarMultiget, DAVName.calendarQuery]
    }
}
