import Foundation
import HTTPTypes
import Hummingbird

/// One DAV request on its target, once the account is known.
struct DAVMethodHandler {
    let user: AuthenticatedUser
    let target: DAVTarget
    let store: DAVItemStore
    let request: Request

    private var properties: DAVProperties { DAVProperties(user: user) }

    // MARK: PROPFIND, PROPPATCH

    func propfind(body: DAVXMLElement?) async throws -> Response {
        if let body, body.name != DAVName.propfind { throw DAVError.badXML("a PROPFIND body is a <propfind>.") }
        let asked = PropertyRequest(in: body)
        let depth = Depth(header: request.headers[.depth], default: .one)
        var answer = Multistatus()
        let path = DAVServer.root + "/"
        switch target {
        case .root:
            let own = properties.root()
            answer.add(href: path, asked: asked, properties: own.properties, listed: own.listed)
        case .principal:
            let own = properties.principal()
            answer.add(
                href: DAVTarget.principalPath(user), asked: asked, properties: own.properties, listed: own.listed)
        case .addressBookHome(let collections):
            try await home(
                DAVTarget.addressBookHomePath(user), "Address books", collections, asked, depth, into: &answer)
        case .calendarHome(let collections):
            try await home(DAVTarget.calendarHomePath(user), "Calendars", collections, asked, depth, into: &answer)
        case .collection(let collection):
            let state = try await store.current(collection)
            let own = properties.collection(collection, state)
            answer.add(href: collection.path, asked: asked, properties: own.properties, listed: own.listed)
            if depth == .one {
                let members = try await state.members()
                let bodies = try await bodiesIfAsked(collection, members, asked, format: .standard)
                for item in members {
                    let member = properties.member(collection, item, body: bodies[item.name])
                    answer.add(
                        href: DAVTarget.memberPath(collection, item.name), asked: asked, properties: member.properties,
                        listed: member.listed)
                }
            }
        case .member(let collection, let name):
            let state = try await store.current(collection)
            guard let item = try await state.member(named: name) else { throw DAVError.notFound }
            let bodies = try await bodiesIfAsked(collection, [item], asked, format: .standard)
            let member = properties.member(collection, item, body: bodies[item.name])
            answer.add(
                href: DAVTarget.memberPath(collection, name), asked: asked, properties: member.properties,
                listed: member.listed)
        }
        return answer.response
    }

    private func home(
        _ path: String, _ name: String, _ collections: [any DAVCollection], _ asked: PropertyRequest, _ depth: Depth,
        into answer: inout Multistatus
    ) async throws {
        let own = properties.home(displayName: name)
        answer.add(href: path, asked: asked, properties: own.properties, listed: own.listed)
        guard depth == .one else { return }
        for collection in collections {
            let state = try await store.current(collection)
            let child = properties.collection(collection, state)
            answer.add(href: collection.path, asked: asked, properties: child.properties, listed: child.listed)
        }
    }

    /// Properties are set by the apps' own pages, not by DAV clients: every one is refused (403),
    /// which clients take as "this server keeps its own names and colours".
    func proppatch(body: DAVXMLElement?) async throws -> Response {
        let names =
            body?.children.flatMap { $0.children(DAVName.prop) }.flatMap(\.children).map(\.name) ?? []
        var answer = Multistatus()
        answer.add(href: request.uri.path, properties: names, status: "403 Forbidden")
        return answer.response
    }

    // MARK: REPORT

    func report(_ body: DAVXMLElement) async throws -> Response {
        guard case .collection(let collection) = target else {
            throw DAVError.forbidden(
                "Reports are made on an address book or a calendar.", precondition: DAVName.supportedReport)
        }
        guard body.name == DAVName.syncCollection || collection.reports.contains(body.name) else {
            throw DAVError.forbidden(
                "The report \(body.name.local) is not supported by this collection.",
                precondition: DAVName.supportedReport)
        }
        let report = try ReportRequest(body)
        let format = DAVDataFormat(
            dataElement: report.properties.dataElement(in: body, collection), accept: nil)
        let state = try await store.current(collection)
        var answer = Multistatus()
        switch report {
        case .multiget(let asked, let hrefs):
            let named = hrefs.map { href in (href, DAVTarget.memberName(href: href, in: collection)) }
            let byName = Dictionary(
                try await state.members(named: named.compactMap(\.1)).map { ($0.name, $0) }
            ) { first, _ in first }
            var found: [DAVItem] = []
            var missing: [String] = []
            for (href, name) in named {
                if let name, let item = byName[name] { found.append(item) } else { missing.append(href) }
            }
            try await addMembers(found, collection, asked, format, into: &answer)
            for href in missing { answer.add(href: href, status: "404 Not Found") }
        case .query(let asked, let filter, let limit):
            var members = try await state.members()
            if let filter {
                let bodies = try await served(collection, members, format: .standard)
                members = try members.filter { item throws(DAVError) in
                    try collection.matches(filter, body: bodies[item.name] ?? "")
                }
            }
            if let limit, limit >= 0, members.count > limit {
                members = Array(members.prefix(limit))
                answer.add(href: collection.path, status: "507 Insufficient Storage")
            }
            try await addMembers(members, collection, asked, format, into: &answer)
        case .syncCollection(let asked, let token, let limit):
            let since = try SyncToken.changeNumber(token, of: state)
            var changed = try await state.changes(since: since)
            var reached = state.lastSeq
            if let limit, limit >= 0, changed.count > limit {
                // RFC 6578 §3.6: a truncated answer says so, and its token resumes after the last one given.
                changed = Array(changed.prefix(limit))
                reached = changed.last?.seq ?? since
                answer.add(href: collection.path, status: "507 Insufficient Storage")
            }
            try await addMembers(changed.filter { !$0.isDeleted }, collection, asked, format, into: &answer)
            for item in changed where item.isDeleted {
                answer.add(href: DAVTarget.memberPath(collection, item.name), status: "404 Not Found")
            }
            answer.syncToken = SyncToken.make(
                DAVCollectionState(key: state.key, sourceVersion: state.sourceVersion, lastSeq: reached, store: store))
        }
        return answer.response
    }

    private func addMembers(
        _ items: [DAVItem], _ collection: any DAVCollection, _ asked: PropertyRequest, _ format: DAVDataFormat,
        into answer: inout Multistatus
    ) async throws {
        let bodies = try await bodiesIfAsked(collection, items, asked, format: format)
        for item in items {
            let member = properties.member(collection, item, body: bodies[item.name])
            answer.add(
                href: DAVTarget.memberPath(collection, item.name), asked: asked, properties: member.properties,
                listed: member.listed)
        }
    }

    private func bodiesIfAsked(
        _ collection: any DAVCollection, _ items: [DAVItem], _ asked: PropertyRequest, format: DAVDataFormat
    ) async throws -> [String: String] {
        guard case .named(let names) = asked,
            names.contains(collection.dataProperty) || names.contains(DAVName.getcontentlength)
        else { return [:] }
        return try await served(collection, items, format: format)
    }

    /// The members' bodies as served: as their client wrote them while that still stands (and is
    /// in the form asked for), else as the collection writes them.
    private func served(_ collection: any DAVCollection, _ items: [DAVItem], format: DAVDataFormat) async throws
        -> [String: String]
    {
        var bodies: [String: String] = [:]
        var rendered: [DAVItem] = []
        for item in items {
            let isVCard4 = item.body.contains("VERSION:4.0")
            if item.servesClientBody
                && (collection.resourceType != DAVName.card("addressbook") || isVCard4 == (format == .vCard4))
            {
                bodies[item.name] = item.body
            } else {
                rendered.append(item)
            }
        }
        if !rendered.isEmpty {
            bodies.merge(try await collection.bodies(of: rendered, format: format)) { own, _ in own }
        }
        return bodies
    }

    // MARK: GET, PUT, DELETE

    func get(withBody: Bool) async throws -> Response {
        guard case .member(let collection, let name) = target else {
            if case .collection = target {
                throw DAVError(
                    .forbidden, "A collection is read with PROPFIND or REPORT, one member at a time with GET.")
            }
            throw DAVError(.forbidden, "This address is read with PROPFIND.")
        }
        let state = try await store.current(collection)
        guard let item = try await state.member(named: name) else { throw DAVError.notFound }
        let format = DAVDataFormat(dataElement: nil, accept: request.headers[.accept])
        let body = try await served(collection, [item], format: format)[item.name] ?? ""
        let headers: HTTPFields = [
            .contentType: collection.memberContentType, .eTag: "\"\(item.etag)\"",
            .contentLength: String(body.utf8.count),
        ]
        return Response(
            status: .ok, headers: headers, body: withBody ? .init(byteBuffer: ByteBuffer(string: body)) : .init())
    }

    func put(_ request: Request) async throws -> Response {
        guard case .member(let collection, let name) = target else {
            throw DAVError(.methodNotAllowed, "Only a member of an address book or a calendar can be written.")
        }
        let conditions = try WriteConditions(request)
        let body = try await DAVBody.read(request, limit: collection.maximumMemberSize)
        let state = try await store.current(collection)
        let existing = try await state.member(named: name)
        try conditions.check(existing)
        let written = try await collection.write(body, name: name, existing: existing, state: state)
        let placed = try await store.place(
            collection, name: name, objectID: written.objectID, uid: written.uid, extras: written.extras,
            body: collection.servesClientBodies ? String(decoding: body, as: UTF8.self) : "", written: written.text)
        var headers: HTTPFields = [:]
        if existing == nil { headers[.location] = DAVTarget.memberPath(collection, name) }
        // RFC 4791 §5.3.4 / RFC 6352 §6.3.2.3: a tag only when the member is now exactly the bytes
        // sent, so the client knows what it holds.
        if placed.servesClientBody { headers[.eTag] = "\"\(placed.etag)\"" }
        return Response(status: existing == nil ? .created : .noContent, headers: headers)
    }

    func delete(_ request: Request) async throws -> Response {
        guard case .member(let collection, let name) = target else {
            throw DAVError.forbidden(
                "Address books and calendars cannot be deleted here; delete their members one by one.")
        }
        let conditions = try WriteConditions(request)
        let state = try await store.current(collection)
        guard let item = try await state.member(named: name) else { throw DAVError.notFound }
        try conditions.check(item)
        try await collection.delete(item)
        return Response(status: .noContent)
    }
}

extension PropertyRequest {
    /// The `address-data` / `calendar-data` element the request names, with its attributes.
    func dataElement(in body: DAVXMLElement, _ collection: any DAVCollection) -> DAVXMLElement? {
        body.child(DAVName.prop)?.child(collection.dataProperty)
    }
}
