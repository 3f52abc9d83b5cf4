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
