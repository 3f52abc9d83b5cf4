import ActionFlowModel
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Sits between the HTTP parser and request handling on every connection. A request the parser
/// refuses is answered in the emulator's error shape (431 for a head over the limit, 400 for
/// anything malformed) instead of an empty 400. After a refused body (413) the rest of it is
/// read and dropped here, cheaply, so that a client still sending reads the refusal; a body that
/// never ends is cut off after `lingerBytes` or `lingerTime`.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limits: ServerLimits
    /// Requests whose head has arrived and whose answer has not ended.
    private var answersPending = 0
    /// Between a request's head and its end.
    private var readingBody = false
    /// A 413 is being written for the request still arriving: drop the rest of its body.
    private var refusingBody = false
    private var droppedBytes = 0
    private var lingerTimeout: Scheduled<Void>?

    init(limits: ServerLimits) {
        self.limits = limits
    }

    /// Nearest the socket, after NIO's encoder: where a 204's encoded head gets its length back.
    private let preflightLength = PreflightContentLength()

    func handlerAdded(context: ChannelHandlerContext) {
        try? context.pipeline.syncOperations.addHandler(preflightLength, position: .first)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            answersPending += 1
            readingBody = true
        case .body(let buffer):
            if refusingBody {
                droppedBytes += buffer.readableBytes
                if droppedBytes > limits.lingerBytes { context.close(promise: nil) }
                return
            }
        case .end:
            readingBody = false
            if refusingBody {
                // The refused body is all in; the answer carried `Connection: close`.
                if answersPending == 0 { context.close(promise: nil) }
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            if head.status.code == 413 && readingBody { refusingBody = true }
            if head.status.code == 204 { preflightLength.noContentHeadsComing += 1 }
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            answersPending -= 1
            guard refusingBody, answersPending == 0 else {
                context.write(data, promise: promise)
                return
            }
            if readingBody {
                context.write(data, promise: promise)
                let channel = context.channel
                lingerTimeout = context.eventLoop.scheduleTask(in: TimeAmount(limits.lingerTime)) {
                    channel.close(promise: nil)
                }
            } else {
                context.writeAndFlush(data, promise: promise)
                context.close(promise: nil)
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        lingerTimeout?.cancel()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Mid-answer, the request handling sees the error and ends the exchange itself.
        guard let parserError = error as? HTTPParserError, answersPending == 0 else {
            context.fireErrorCaught(error)
            return
        }
        let refusal = Self.refusal(for: parserError, limits: limits)
        var fields = HTTPFields()
        fields[.contentType] = refusal.contentType
        fields[.contentLength] = String(refusal.body.count)
        for (name, value) in refusal.headers {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .init(code: refusal.status), headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: refusal.body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.close(promise: nil)
    }

    /// What a request the parser refuses gets; the connection then closes, since the parser
    /// cannot find where the next request would start.
    static func refusal(for error: HTTPParserError, limits: ServerLimits) -> APIResponse {
        var refusal: APIResponse = switch error {
        case .headerOverflow:
            .failure(status: 431, code: AuthErrorCode("REQUEST_HEADER_FIELDS_TOO_LARGE"), detail: "the request line and headers exceed \(limits.enforcedHeaderBytes) bytes")
        default:
            .failure(status: 400, code: AuthErrorCode("MALFORMED_HTTP_REQUEST"), detail: "the request is not valid HTTP/1.1 (\(error))")
        }
        refusal.headers["Connection"] = "close"
        return refusal
    }
}

/// Gives every 204 (this server's CORS preflight answers) `Content-Length: 0`, as the emulator's
/// `cors` middleware sends it because Safari otherwise waits for a body (expressjs/cors
/// `lib/index.js:176-179`). NIO's encoder drops the header from a 204, as RFC 9110 asks, so it
/// is put back into the encoded head, which NIO writes as one buffer.
final class PreflightContentLength: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// 204 heads written above and not yet seen here encoded (a 204 has no body, so its head is
    /// the next buffer). Touched on the channel's event loop only.
    var noContentHeadsComing = 0

    private static let noContent = Array("HTTP/1.1 204 ".utf8)
    private static let field = Array("Content-Length: 0\r\n".utf8)

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard noContentHeadsComing > 0, case .byteBuffer(let head) = unwrapOutboundIn(data),
              head.readableBytesView.starts(with: Self.noContent),
              let lineEnd = head.readableBytesView.firstRange(of: [13, 10]) else {
            context.write(data, promise: promise)
            return
        }
        noContentHeadsComing -= 1
        let bytes = head.readableBytesView
        var framed = context.channel.allocator.buffer(capacity: head.readableBytes + Self.field.count)
        framed.writeBytes(bytes[..<lineEnd.upperBound])
        framed.writeBytes(Self.field)
        framed.writeBytes(bytes[lineEnd.upperBound...])
        context.write(wrapOutboundOut(.byteBuffer(framed)), promise: promise)
    }
}
