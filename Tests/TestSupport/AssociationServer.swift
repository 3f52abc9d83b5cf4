import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTLS
import NIOCore
import NIOSSL

/// An HTTPS server on loopback that serves association files per host, under a test CA made
/// with `openssl`: `host.example.test` answers as `files[host]` says. The CA's certificate is
/// `caFile`, for `--cacert`; the server's covers `*.example.test` only.
public final class AssociationServer: Sendable {
    /// One host's answer to a path.
    public struct Answer: Sendable {
        public var status: Int
        public var contentType: String?
        public var headers: [(String, String)]
        public var body: Data

        public init(status: Int = 200, contentType: String? = "application/json", headers: [(String, String)] = [], body: Data) {
            self.status = status
            self.contentType = contentType
            self.headers = headers
            self.body = body
        }

        public static func json(_ text: String, contentType: String? = "application/json") -> Answer {
            Answer(contentType: contentType, body: Data(text.utf8))
        }
    }

    public let port: Int
    public let folder: URL
    public var caFile: String { folder.appendingPathComponent("ca.pem").path }
    private let running: Task<Void, any Error>

    /// `answers[host][path]`; a path a host does not list answers 404.
    public static func start(_ answers: [String: [String: Answer]]) async throws -> AssociationServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("association-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try makeCertificates(in: folder)
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(folder.appendingPathComponent("server.pem").path).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: folder.appendingPathComponent("server.key").path, format: .pem)))
        tls.minimumTLSVersion = .tlsv12
        let (task, port) = try await LoopbackApplication.start(server: try .tls(.http1(), tlsConfiguration: tls)) { request in
            let host = (request.head.authority ?? "").split(separator: ":").first.map(String.init) ?? ""
            guard let answer = answers[host]?[request.uri.path] else {
                return Response(status: .notFound, body: ResponseBody(byteBuffer: ByteBuffer(string: "not found")))
            }
            var headers = HTTPFields()
            if let type = answer.contentType { headers[.contentType] = type }
            for (name, value) in answer.headers { if let field = HTTPField.Name(name) { headers[field] = value } }
            return Response(status: .init(code: answer.status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
        }
        return AssociationServer(port: port, folder: folder, running: task)
    }

    private init(port: Int, folder: URL, running: Task<Void, any Error>) {
        self.port = port
        self.folder = folder
        self.running = running
    }

    public func stop() async {
        running.cancel()
        _ = try? await running.value
        try? FileManager.default.removeItem(at: folder)
    }

    /// A CA, and a server certificate it signed for `*.example.test`.
    private static func makeCertificates(in folder: URL) throws {
        func openssl(_ arguments: [String]) throws {
            let child = try SpawnedChild.start("/usr/bin/openssl", arguments, errors: .intoOutput)
            let (status, output, _) = child.finishBlocking()
            guard status == 0 else { throw CertificateError(message: "openssl \(arguments.first ?? ""): \(String(decoding: output, as: UTF8.self))") }
        }
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", "/CN=actionflow test CA",
                     "-keyout", path("ca.key"), "-out", path("ca.pem")])
        try Data("subjectAltName=DNS:*.example.test\nbasicConstraints=CA:FALSE\n".utf8).write(to: URL(fileURLWithPath: path("server.ext")))
        try openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=*.example.test",
                     "-keyout", path("server.key"), "-out", path("server.csr")])
        try openssl(["x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"), "-CAcreateserial",
                     "-days", "2", "-extfile", path("server.ext"), "-out", path("server.pem")])
    }

    struct CertificateError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
