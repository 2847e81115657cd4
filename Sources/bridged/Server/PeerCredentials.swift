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
final class RefusingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let message: String

    init(peer: PeerCredentials, daemonUID: uid_t) {
        message = "uid \(peer.uid) may not use this daemon: only uid \(daemonUID) (its owner) and root may connect"
    }

    func channelActive(context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: 160)
        buffer.writeBytes(Session.errorFrame(.permissionDenied, message))
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
