import Hummingbird
import KithCore
import NIOCore

/// JSON answers of `/api`, written from an ordered document so keys come in Monica's order.
enum MonicaResponse {
    static func make(_ body: JSONTree, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body.serialized())))
    }

    /// `{"data": …}`, how Monica wraps a single object.
    static func data(_ object: JSONTree, status: HTTPResponse.Status = .ok) -> Response {
        make(["data": object], status: status)
    }

    /// `{"deleted": true, "id": …}`; Monica answers the id as a number for some resources and as
    /// the path's text for others, and clients were written against that.
    static func deleted(_ id: JSONTree) -> Response { make(["deleted": true, "id": id]) }
}
