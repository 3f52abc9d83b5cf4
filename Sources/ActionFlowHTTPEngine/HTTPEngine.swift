import CHTTPEngine
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// URLSession behind the C interface of actionflow_http_engine.h. This module is built only as
// libActionFlowHTTPEngine.so, which the REST transport loads when it first needs it.

@_cdecl("actionflow_http_session_create")
public func actionflowHTTPSessionCreate(_ backstopSeconds: Double) -> UnsafeMutableRawPointer {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = backstopSeconds
    configuration.timeoutIntervalForResource = backstopSeconds
    configuration.httpCookieAcceptPolicy = .never
    configuration.urlCache = nil
    return Unmanaged.passRetained(URLSession(configuration: configuration)).toOpaque()
}

@_cdecl("actionflow_http_session_release")
public func actionflowHTTPSessionRelease(_ session: UnsafeMutableRawPointer) {
    Unmanaged<URLSession>.fromOpaque(session).takeRetainedValue().finishTasksAndInvalidate()
}

@_cdecl("actionflow_http_exchange")
public func actionflowHTTPExchange(
    _ session: UnsafeMutableRawPointer, _ method: UnsafePointer<CChar>, _ url: UnsafePointer<CChar>, _ headers: UnsafePointer<CChar>,
    _ body: UnsafePointer<UInt8>?, _ bodyCount: Int, _ context: UnsafeMutableRawPointer?, _ completion: actionflow_http_completion
) -> UnsafeMutableRawPointer? {
    let reply = Reply(context: context, completion: completion)
    let urlSession = Unmanaged<URLSession>.fromOpaque(session).takeUnretainedValue()
    guard let requestURL = URL(string: String(cString: url)) else {
        reply.fail(.other_failure, "cannot build a URL from the configured host")
        return nil
    }
    var request = URLRequest(url: requestURL, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: urlSession.configuration.timeoutIntervalForRequest)
    request.httpMethod = String(cString: method)
    if bodyCount >= 0 { request.httpBody = body.map { Data(bytes: $0, count: bodyCount) } ?? Data() }
    for line in String(cString: headers).split(separator: "\n") {
        guard let colon = line.firstIndex(of: ":") else { continue }
        request.setValue(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces), forHTTPHeaderField: String(line[..<colon]))
    }
    let task = urlSession.dataTask(with: request) { data, response, error in
        if let error {
            let (outcome, message) = classify(error)
            reply.fail(outcome, message)
        } else if let http = response as? HTTPURLResponse {
            reply.answer(status: http.statusCode, body: data ?? Data())
        } else {
            reply.fail(.not_http, "the reply is not HTTP")
        }
    }
    task.resume()
    return Unmanaged.passRetained(task).toOpaque()
}

@_cdecl("actionflow_http_exchange_cancel")
public func actionflowHTTPExchangeCancel(_ exchange: UnsafeMutableRawPointer) {
    Unmanaged<URLSessionDataTask>.fromOpaque(exchange).takeUnretainedValue().cancel()
}

@_cdecl("actionflow_http_exchange_release")
public func actionflowHTTPExchangeRelease(_ exchange: UnsafeMutableRawPointer) {
    Unmanaged<URLSessionDataTask>.fromOpaque(exchange).release()
}

/// The caller's completion and context, handed to URLSession's thread.
private struct Reply: @unchecked Sendable {
    let context: UnsafeMutableRawPointer?
    let completion: actionflow_http_completion

    func answer(status: Int, body: Data) {
        body.withUnsafeBytes { bytes in
            completion(context, .answered, Int32(clamping: status), bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, nil)
        }
    }

    func fail(_ outcome: actionflow_http_outcome, _ message: String) {
        message.withCString { completion(context, outcome, 0, nil, 0, $0) }
    }
}

/// URLSession's error as the transport distinguishes it.
private func classify(_ error: any Error) -> (actionflow_http_outcome, String) {
    guard let urlError = error as? URLError else { return (.other_failure, String(describing: error)) }
    let description = urlError.localizedDescription
    switch urlError.code {
    case .timedOut:
        return (.timed_out, description)
    case .cannotConnectToHost:
        return (.connection_refused, description)
    case .cannotFindHost, .dnsLookupFailed:
        return (.dns_failure, description)
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
         .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
         .clientCertificateRequired:
        return (.tls_failure, description)
    case .networkConnectionLost:
        return (.connection_lost, description)
    case .badServerResponse:
        return (.not_http, description)
    default:
        // FoundationNetworking reports handshake errors as unknown (-1) with OpenSSL's text.
        if ["ssl", "tls", "certificate"].contains(where: description.lowercased().contains) {
            return (.tls_failure, description)
        }
        return (.other_failure, "\(description) (URLError \(urlError.code.rawValue))")
    }
}
