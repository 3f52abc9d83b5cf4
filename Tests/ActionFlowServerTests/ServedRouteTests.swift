import ActionFlowBackend
import Foundation
import Testing

/// The routes around the email flows: the legacy v3 names the emulator maps
/// (`registerLegacyRoutes`, firebase-tools `server.ts:407-473`), the v2 routes it stubs, its
/// verification codes, what serve does not simulate, and `/emulator/openapi.json`, which is
/// written from the router's own table.
@Suite("serve: legacy, v2 and the emulator's own routes, and the OpenAPI document of them all")
struct ServedRouteTests {
    static let v1 = EmulatorSpec.v1
    static let relyingParty = "/www.googleapis.com/identitytoolkit/v3/relyingparty"

    @Test("getProjectConfig (GET /v1/projects): the emulator's placeholder in emulator behaviour, the project's authorized domains in production")
    func projectConfig() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        for path in ["\(Self.relyingParty)/getProjectConfig", "\(Self.v1)/projects"] {
            let res = try await api.request("GET", path, query: ["key": "fake-api-key"])
            #expect(res.status == 200, "\(path): \(res)")
            #expect(res.string("projectId") == "12345")
            #expect(res["authorizedDomains"] as? [String] == ["localhost"])
        }
        let keyless = try await api.request("GET", "\(Self.relyingParty)/getProjectConfig")
        #expect(keyless.status == 403)

        let production = try await ServeFixture.start(as: .production)
        defer { Task { await production.stop() } }
        let res = try await production.http("GET", "\(Self.relyingParty)/getProjectConfig?key=k")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(res.body.utf8)) as? [String: Any])
        #expect(json["authorizedDomains"] as? [String] == production.configuration.authorizedDomains)
    }

    @Test("should return fake recaptcha params (phone.spec.ts), at the v1 path and the legacy getRecaptchaParam")
    func recaptchaParams() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        for path in ["\(Self.v1)/recaptchaParams", "\(Self.relyingParty)/getRecaptchaParam"] {
            let res = try await api.request("GET", path, query: ["key": "fake-api-key"])
            #expect(res.status == 200, "\(path): \(res)")
            #expect(res.string("recaptchaStoken")?.isEmpty == false)
            #expect(res.string("recaptchaSiteKey")?.isEmpty == false)
        }
    }

    @Test("signOutUser is the emulator's 501; downloadAccount and uploadAccount want targetProjectId (400 INSUFFICIENT_PERMISSION, as production)")
    func legacyRefusals() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let signOut = try await api.post("\(Self.relyingParty)/signOutUser", [:])
        #expect(signOut.status == 501)
        #expect(signOut.errorMessage == "signOutUser is not implemented in the Auth Emulator.")
        #expect(signOut.error?["status"] as? String == "NOT_IMPLEMENTED")
        for name in ["downloadAccount", "uploadAccount"] {
            let res = try await api.post("\(Self.relyingParty)/\(name)", [:], owner: true)
            #expect(res.status == 400, "\(name): \(res)")
            #expect(res.errorMessage == "INSUFFICIENT_PERMISSION")
            #expect(res.error?["status"] == nil)
        }
        // With it, uploadAccount names the import serve does not simulate (downloadAccount: BatchGetSpecPortTests).
        let upload = try await api.post("\(Self.relyingParty)/uploadAccount", ["targetProjectId": api.projectId], owner: true)
        #expect(upload.status == 501, "\(upload)")
        #expect(upload.errorMessage?.contains("Auth Emulator") == true)
        // Names the emulator does not map stay 404.
        #expect(try await api.post("\(Self.relyingParty)/publicKeys", [:]).status == 404)
    }

    @Test("phone sign-in, custom tokens and IdP credentials, at v1 and legacy names: 501 in the emulator's shape, naming the operation and the real emulator", arguments: [
        ("\(EmulatorSpec.v1)/accounts:sendVerificationCode", "identitytoolkit.accounts.sendVerificationCode"),
        ("\(EmulatorSpec.v1)/accounts:signInWithPhoneNumber", "identitytoolkit.accounts.signInWithPhoneNumber"),
        ("\(EmulatorSpec.v1)/accounts:signInWithCustomToken", "identitytoolkit.accounts.signInWithCustomToken"),
        ("\(EmulatorSpec.v1)/accounts:signInWithIdp", "identitytoolkit.accounts.signInWithIdp"),
        ("\(ServedRouteTests.relyingParty)/sendVerificationCode", "identitytoolkit.accounts.sendVerificationCode"),
        ("\(ServedRouteTests.relyingParty)/verifyPhoneNumber", "identitytoolkit.accounts.signInWithPhoneNumber"),
        ("\(ServedRouteTests.relyingParty)/verifyCustomToken", "identitytoolkit.accounts.signInWithCustomToken"),
        ("\(ServedRouteTests.relyingParty)/verifyAssertion", "identitytoolkit.accounts.signInWithIdp"),
    ])
    func notSimulated(path: String, operationId: String) async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.post(path, ["phoneNumber": "+15555550100"])
        #expect(res.status == 501, "\(res)")
        #expect(res.error?["status"] as? String == "NOT_IMPLEMENTED")
        #expect(res.errorMessage?.hasPrefix("\(operationId) (") == true, "\(res)")
        #expect(res.errorMessage?.contains("firebase-tools' Auth Emulator") == true)
        // Credentials first, as for every client route.
        #expect(try await api.post(path, [:], key: false).status == 403)
    }

    @Test("v2 recaptchaConfig, passwordPolicy and accounts:revokeToken: the emulator's 501 naming the method", arguments: [
        ("GET", "/identitytoolkit.googleapis.com/v2/recaptchaConfig", "identitytoolkit.getRecaptchaConfig"),
        ("GET", "/identitytoolkit.googleapis.com/v2/passwordPolicy", "identitytoolkit.getPasswordPolicy"),
        ("POST", "/identitytoolkit.googleapis.com/v2/accounts:revokeToken", "identitytoolkit.accounts.revokeToken"),
    ])
    func v2Stubs(method: String, path: String, operationId: String) async throws {
        for behaviour in ServeBehaviour.allCases {
            let serve = try await ServeFixture.start(as: behaviour)
            let res = try await serve.http(method, path + "?key=fake-api-key", body: method == "POST" ? "{}" : nil)
            await serve.stop()
            #expect(res.status == 501, "\(behaviour): \(res.body)")
            #expect(ServeFixture.errorMessage(res.body) == "\(operationId) is not implemented in the Auth Emulator.")
        }
    }

    @Test("GET .../verificationCodes lists none, for the project and a tenant, as the emulator's empty list")
    func verificationCodes() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        for path in ["/emulator/v1/projects/\(api.projectId)/verificationCodes", "/emulator/v1/projects/\(api.projectId)/tenants/t-1/verificationCodes"] {
            let res = try await api.request("GET", path)
            #expect(res.status == 200, "\(path): \(res)")
            #expect(res.body == #"{"verificationCodes":[]}"#)
        }
    }

    @Test("v2 tenant management wants an admin: 401 without a bearer token, as the emulator (server.ts:322-334)")
    func v2WantsAnAdmin() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let path = "/identitytoolkit.googleapis.com/v2/projects/\(api.projectId)/tenants"
        for query in [[:], ["key": "fake-api-key"]] {
            let res = try await api.request("GET", path, query: query)
            #expect(res.status == 401, "\(res)")
            #expect(res.error?["status"] as? String == "UNAUTHENTICATED")
        }
        #expect(try await api.request("GET", path, headers: ["Authorization": "Bearer owner"]).status == 200)
    }

    @Test("/emulator/openapi.json is an OpenAPI 3 document of exactly what answers: every operation it lists is served, with its path parameters declared", arguments: ServeBehaviour.allCases)
    func openAPIDocument(behaviour: ServeBehaviour) async throws {
        let serve = try await ServeFixture.start(as: behaviour)
        defer { Task { await serve.stop() } }
        let status = try await serve.http("GET", "/")
        #expect(status.body.contains(#""apiSpec":"/emulator/openapi.json""#))
        let res = try await serve.http("GET", "/emulator/openapi.json")
        #expect(res.status == 200)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(res.body.utf8)) as? [String: Any])
        #expect((document["openapi"] as? String)?.hasPrefix("3.") == true)
        #expect((document["servers"] as? [[String: Any]])?.first?["url"] as? String == serve.origin)
        let schemes = try #require((document["components"] as? [String: Any])?["securitySchemes"] as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
        #expect(paths.count > 60)

        var operationIds: [String] = []
        for (path, operations) in paths.sorted(by: { $0.key < $1.key }) {
            let templated = path.split(separator: "/").flatMap { $0.split(separator: "{", omittingEmptySubsequences: false).dropFirst().map { String($0.prefix { $0 != "}" }) } }
            for (method, operation) in operations {
                operationIds.append(operation["operationId"] as? String ?? "")
                let declared = ((operation["parameters"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
                #expect(Set(declared) == Set(templated), "\(method) \(path)")
                for requirement in (operation["security"] as? [[String: Any]]) ?? [] {
                    #expect(requirement.keys.allSatisfy { schemes[$0] != nil }, "\(method) \(path)")
                }
                // Served: anything but the emulator's 404 for an unknown route.
                let concrete = path.replacingOccurrences(of: "{targetProjectId}", with: serve.configuration.projectId).replacingOccurrences(of: "{tenantId}", with: "tenant-1")
                let answer = try await serve.http(method.uppercased(), concrete + "?key=fake-api-key", body: ["post", "patch", "put"].contains(method) ? "{}" : nil, headers: ["Authorization": "Bearer owner"])
                #expect(!(answer.status == 404 && answer.body.contains(#""reason":"notFound""#)), "\(method) \(path) is listed but not served")
            }
        }
        #expect(Set(operationIds).count == operationIds.count, "operationIds are unique")
        #expect(paths["/identitytoolkit.googleapis.com/v1/accounts:sendOobCode"]?["post"] != nil)
        #expect(paths["/__/auth/action"]?["get"] != nil || behaviour == .emulator, "the web action handler, where the project has one")
        #expect(paths["/www.googleapis.com/identitytoolkit/v3/relyingparty/publicKeys"] == nil, "a route not served is not listed")
    }
}
