import NIOCore

/// First in a connection's pipeline: tells the connection's clock when bytes arrive. It never looks
/// inside them, so it stays correct after an upgrade to a WebSocket changes what flows.
final class ConnectionActivityHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let clock: ConnectionClock

    init(clock: ConnectionClock) { self.clock = clock }

    func handlerAdded(context: ChannelHandlerContext) {
        clock.start(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        clock.stop()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        clock.bytesArrived()
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        clock.stop()
        context.fireChannelInactive()
    }
}
