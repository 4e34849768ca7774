import Hummingbird
import KithCore

/// How a contact-owned record is presented, given the short forms of the contacts it names.
typealias OwnedPresenter<Record: NamesContacts> =
    @Sendable (Record, _ contact: (Int64?) -> JSONTree?, MonicaPresentation) -> JSONTree

extension MonicaRoutes {
    /// The six routes of a resource that hangs off a contact (`notes`, `tasks`…): the index, a
    /// contact's list, one, create, update (PUT and PATCH; not for a resource that is not
    /// `updatable`, as documents and photos) and delete. Reads and the deletion are
    /// `ContactOwnedRepository`'s unless `delete` says what else a deletion does; `save` writes
    /// (nil id: create) and answers. `contactListMeta` adds to a contact's list's `meta`.
    func contactOwned<Record: NamesContacts>(
        _ path: String, _ repository: ContactOwnedRepository<Record>,
        sortable: Set<String> = ["created_at", "updated_at"],
        deleteAttribute: String? = nil, answerTextOnDelete: Bool = false, updatable: Bool = true,
        present: @escaping OwnedPresenter<Record>,
        contactListMeta: (@Sendable (MonicaRequest) async throws -> [(String, JSONTree)])? = nil,
        delete: (@Sendable (MonicaRequest, Int64) async throws -> Void)? = nil,
        presenting: (@Sendable (MonicaStorage, [Record]) async throws -> OwnedPresenter<Record>)? = nil,
        save: @escaping @Sendable (MonicaRequest, Int64?) async throws -> Response
    ) {
        /// The presenter of these records: `present`, or one `presenting` made for them (with
        /// what else they show, read for them in the records' own read).
        @Sendable func presenter(_ storage: MonicaStorage, _ records: [Record]) async throws -> OwnedPresenter<Record> {
            try await presenting?(storage, records) ?? present
        }
        get(path) { call in
            let page = try call.page(sortable: sortable)
            let read = try await repository.page(account: call.accountID, ofContact: nil, page, also: presenter)
            return ownedPage(read.found, page, call, read.extra)
        }
        get("contacts/{id}/\(path)") { call in
            let page = try call.page(sortable: sortable)
            let read = try await repository.page(
                account: call.accountID, ofContact: try call.id(), page, also: presenter)
            return ownedPage(read.found, page, call, read.extra, extraMeta: try await contactListMeta?(call) ?? [])
        }
        get("\(path)/{id}") { call in
            let read = try await repository.find(account: call.accountID, id: try call.id(), also: presenter)
            return owned(read.found, call, read.extra)
        }
        post(path) { call in try await save(call, nil) }
        if updatable { put("\(path)/{id}") { call in try await save(call, try call.id()) } }
        destroy(path, attribute: deleteAttribute, answerText: answerTextOnDelete) { call, id in
            if let delete { return try await delete(call, id) }
            try await repository.delete(
                account: call.accountID, id: id, ifMatch: try call.ifMatch(), attribute: deleteAttribute)
        }
    }
}

/// One contact-owned record as `{"data": …}`, with its version as `ETag`.
func owned<Record: NamesContacts>(
    _ found: WithContacts<Record>, _ call: MonicaRequest, _ present: OwnedPresenter<Record>,
    status: HTTPResponse.Status = .ok
) -> Response {
    MonicaResponse.data(
        present(found.value, { found.short($0, call.presentation) }, call.presentation), status: status,
        tag: EntityTag(found.value))
}

/// A page of contact-owned records in Laravel's paginator envelope.
func ownedPage<Record: NamesContacts>(
    _ found: WithContacts<RecordPage<Record>>, _ page: PageRequest, _ call: MonicaRequest,
    _ present: OwnedPresenter<Record>, extraMeta: [(String, JSONTree)] = []
) -> Response {
    let items = found.value.records.map { present($0, { found.short($0, call.presentation) }, call.presentation) }
    var envelope = PageEnvelope(items: items, total: found.value.total, request: page, path: call.indexURL)
    envelope.extraMeta = extraMeta
    return envelope.response
}
