import BridgeCore
import Logging
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// Who is on the other end of a Unix socket connection (`SO_PEERCRED`, taken at `connect`).
struct PeerCredentials: Sendable, CustomStringConvertible {
    var pid: Int32
    var uid: UInt32
    var gid: UInt32

    var description: String { "pid \(pid), uid \(uid), gid \(gid)" }

    /// Reads the credentials of `channel`'s peer; on the channel's event loop this completes at once.
    static func of(_ channel: Channel) -> EventLoopFuture<PeerCredentials> {
        guard let provider = channel as? SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
        }
        // `struct ucred` (pid_t pid; uid_t uid; gid_t gid), which Glibc does not export to Swift; a tuple keeps
        // its C layout.
        let credentials: EventLoopFuture<(Int32, UInt32, UInt32)> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET),
            name: SocketOptionName(SO_PEERCRED)
        )
        return credentials.map { PeerCredentials(pid: $0.0, uid: $0.1, gid: $0.2) }
    }

    /// Whether this peer may use a daemon running as `daemonUID`: the same user, or root.
    func isAllowed(daemonUID: uid_t) -> Bool {
        uid == daemonUID || uid == 0
    }
}

/// Answers a refused peer with one `permission_denied` frame, then closes the connection.
///
/// The frame is followed by end of stream (the write side is shut down); what the peer sends is read and
/// dropped until it closes too, or for 2 seconds at most, so that it reads the frame and a clean end rather
/// than a reset.
final class RefusingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let message: String

    init(peer: PeerCredentials, daemonUID: uid_t) {
        message = "uid \(peer.uid) may not use this daemon: only uid \(daemonUID) (its owner) and root may connect"
    }

    func channelActive(context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: 160)
        buffer.writeBytes(RequestLine.errorFrame(.permissionDenied, message))
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
        }
        let timeout = context.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
        channel.closeFuture.whenComplete { _ in timeout.cancel() }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .some(.inputClosed) = event as? ChannelEvent {
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
