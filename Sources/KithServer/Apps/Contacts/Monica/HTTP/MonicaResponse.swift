import Hummingbird
import KithCore
import NIOCore

/// JSON answers of `/api`, written from an ordered document so keys come in Monica's order.
enum MonicaResponse {
    static func make(_ body: JSONTree, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        written(body, status: status, headers: headers)
    }

    /// An answer that writes itself (a page of full contacts), without a tree first.
    static func written(_ body: some JSONWritable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:])
        -> Response
    {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body.jsonBytes)))
    }

    /// `{"data": …}`, how Monica wraps a single object; with its version as `ETag` when it has one.
    static func data(_ object: JSONTree, status: HTTPResponse.Status = .ok, tag: EntityTag? = nil) -> Response {
        written(DataWrapper(object: object), status: status, headers: tagged(tag))
    }

    static func data<Object: JSONWritable>(_ object: Object, status: HTTPResponse.Status = .ok, tag: EntityTag? = nil)
        -> Response
    {
        written(DataWrapper(object: object), status: status, headers: tagged(tag))
    }

    private static func tagged(_ tag: EntityTag?) -> HTTPFields {
        var headers: HTTPFields = [:]
        if let tag { headers[.eTag] = tag.header }
        return headers
    }

    private struct DataWrapper<Object: JSONWritable>: JSONWritable {
        let object: Object

        func writeJSON(to output: inout [UInt8]) {
            var writer = JSONObjectWriter(&output)
            writer.value("data", object, &output)
            writer.end(&output)
        }
    }

    /// `{"deleted": true, "id": …}`; Monica answers the id as a number for some resources and as
    /// the path's text for others, and clients were written against that.
    static func deleted(_ id: JSONTree) -> Response { make(["deleted": true, "id": id]) }
}
