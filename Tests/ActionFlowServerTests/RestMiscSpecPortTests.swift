import Foundation
import Testing

/// firebase-tools `src/emulator/auth/rest.spec.ts` ("REST API mapping", "authentication") and
/// `misc.spec.ts` ("token refresh", "emulator utility APIs") against `serve --as emulator`.
@Suite("Auth Emulator spec port: REST API mapping and authentication (rest.spec.ts)")
struct RestSpecPortTests {
    static let v1 = EmulatorSpec.v1

    @Test("should respond to status checks")
    func statusCheck() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.request("GET", "/")
        #expect(res.status == 200)
        #expect(res["authEmulator"] is [String: Any])
    }

    @Test("should allow cross-origin requests")
    func crossOrigin() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.request("OPTIONS", "/", headers: [
            "Origin": "example.com",
            "Access-Control-Request-Headers": "Authorization,X-Client-Version,X-Whatever-Header",
            "Access-Control-Request-Private-Network": "true",
        ])
        #expect(res.status == 204)
        // Some clients won't accept '*' as a wildcard, so Origin and the requested headers are reflected.
        #expect(res.headers["access-control-allow-origin"] == "example.com")
        #expect(Set((res.headers["access-control-allow-headers"] ?? "").split(separator: ",").map(String.init)) == ["Authorization", "X-Client-Version", "X-Whatever-Header"])
        #expect(res.headers["access-control-allow-private-network"] == "true")
    }

    @Test("should handle integer values for enums")
    func integerEnums() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        // Proto integer value for "EMAIL_SIGNIN". Android client SDK sends this.
        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "bob@example.com", "requestType": 6, "returnOobLink": true], owner: true)
        #expect(res.status == 200, "\(res)")
        #expect(res.string("oobLink")?.contains("mode=signIn") == true)
        // A number that is not a whole index finds no value (allowedValues[6.5] is undefined).
        for number in [6.5, 1e300] {
            let refused = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "bob@example.com", "requestType": number, "returnOobLink": true], owner: true)
            #expect(refused.status == 400, "\(number): \(refused)")
        }
    }

    @Test("an enum's integer value written as text is looked up too, as server.ts:625 does (allowedValues[value])")
    func integerEnumsAsText() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "bob@example.com", "requestType": "6", "returnOobLink": true], owner: true)
        #expect(res.status == 200, "\(res)")
        #expect(res.string("oobLink")?.contains("mode=signIn") == true)
        // Only the integer's own digits: not a padded one, nor one past the last value.
        for text in ["06", "9"] {
            let refused = try await api.post("\(Self.v1)/accounts:sendOobCode", ["email": "bob@example.com", "requestType": text, "returnOobLink": true], owner: true)
            #expect(refused.status == 400, "\(text): \(refused)")
        }
    }

    @Test("should handle integer values for enums (legacy API path)")
    func integerEnumsLegacy() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.post("/www.googleapis.com/identitytoolkit/v3/relyingparty/getOobConfirmationCode", ["email": "bob@example.com", "requestType": 6, "returnOobLink": true], owner: true)
        #expect(res.status == 200, "\(res)")
        #expect(res.string("oobLink")?.contains("mode=signIn") == true)
    }

    @Test("should convert numbers to strings for type:string fields")
    func numbersToStrings() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        // validSince should be an int64-formatted string, but the Node.js Admin SDK sends a number.
        let res = try await api.post("\(Self.v1)/accounts:update", ["localId": "nosuch", "validSince": 1611780718], owner: true)
        #expect(res.status == 400)
        // It should pass JSON schema validation and get into handler logic.
        #expect(res.errorMessage == "USER_NOT_FOUND")
    }

    @Test("should throw 403 if API key is not provided")
    func missingKey() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.post("\(Self.v1)/accounts:signUp", ["returnSecureToken": true], key: false)
        #expect(res.status == 403)
        #expect(res.error?["status"] as? String == "PERMISSION_DENIED")
    }

    @Test("should accept API key as a query parameter")
    func keyInQuery() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.post("\(Self.v1)/accounts:signUp", [:])
        #expect(res.status == 200, "\(res)")
        #expect(res.error == nil)
    }

    @Test("should accept API key in HTTP Header x-goog-api-key")
    func keyInHeader() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.post("\(Self.v1)/accounts:signUp", [:], key: false, headers: ["x-goog-api-key": "fake-api-key"])
        #expect(res.status == 200, "\(res)")
        #expect(res.error == nil)
    }

    @Test("should ignore non-Bearer Authorization headers")
    func nonBearer() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.post("\(Self.v1)/accounts:signUp", ["returnSecureToken": true], key: false, headers: ["Authorization": "Basic YWxhZGRpbjpvcGVuc2VzYW1l"])
        #expect(res.status == 403)
        #expect(res.error?["status"] as? String == "PERMISSION_DENIED")
    }

    @Test("should treat Bearer owner as authenticated to project")
    func bearerOwner() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        // This field requires OAuth 2 and should work correctly.
        let res = try await api.post("\(Self.v1)/accounts:signUp", ["targetProjectId": "example2"], owner: true)
        #expect(res.status == 200, "\(res)")
        #expect(res.error == nil)
    }

    @Test("should ignore casing of Bearer / owner in Authorization header")
    func bearerCasing() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.post("\(Self.v1)/accounts:signUp", ["targetProjectId": "example2"], key: false, headers: ["Authorization": "bEArEr OWNER"])
        #expect(res.status == 200, "\(res)")
        #expect(res.error == nil)
    }

    @Test("should treat production service account as authenticated to project")
    func serviceAccount() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        // Not an actual token; the emulator only checks the format.
        let res = try await api.post("\(Self.v1)/accounts:signUp", ["targetProjectId": "example2"], key: false, headers: ["Authorization": "Bearer ya" + "29.AHES0ZZZZZ0fff" + "ff0XXXX0mmmm0wwwww0-LL_l-0bb0b0bbbbbb"])
        #expect(res.status == 200, "\(res)")
        #expect(res.error == nil)
    }

    @Test("should deny requests with targetProjectId but without OAuth 2")
    func targetProjectWithoutOAuth() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.post("\(Self.v1)/accounts:signUp", ["targetProjectId": "example2"])
        #expect(res.status == 400)
        #expect(res.errorMessage == "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
    }

    @Test("should deny requests where tenant IDs do not match in the request body and path")
    func tenantMismatchBodyPath() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.post("\(Self.v1)/projects/project-id/tenants/tenant-id/accounts:delete", ["localId": "local-id", "tenantId": "mismatching-tenant-id"], owner: true)
        #expect(res.status == 400)
        #expect(res.errorMessage == "TENANT_ID_MISMATCH")
    }

    @Test("should deny requests where tenant IDs do not match in the ID token and path")
    func tenantMismatchTokenPath() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let tenant = try await api.registerTenant(api.projectId, ["disableAuth": false, "allowPasswordSignup": true])
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret", tenantId: tenant["tenantId"] as? String)
        let res = try await api.post("\(Self.v1)/projects/\(api.projectId)/tenants/not-matching-tenant-id/accounts:lookup", ["idToken": user.idToken], owner: true)
        #expect(res.status == 400)
        #expect(res.errorMessage == "TENANT_ID_MISMATCH")
    }

    @Test("should deny requests where tenant IDs do not match in the ID token and request body")
    func tenantMismatchTokenBody() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let tenant = try await api.registerTenant(api.projectId, ["disableAuth": false, "allowPasswordSignup": true])
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret", tenantId: tenant["tenantId"] as? String)
        let res = try await api.post("\(Self.v1)/projects/\(api.projectId)/accounts:lookup", ["idToken": user.idToken, "tenantId": "not-matching-tenant-id"], owner: true)
        #expect(res.status == 400)
        #expect(res.errorMessage == "TENANT_ID_MISMATCH")
    }
}

@Suite("Auth Emulator spec port: token refresh and emulator utility APIs (misc.spec.ts)")
struct MiscSpecPortTests {
    static let token = "/securetoken.googleapis.com/v1/token"

    static func refresh(_ api: EmulatorSpec, _ form: [String: String]) async throws -> EmulatorSpec.Answer {
        try await api.request("POST", token, query: ["key": "fake-api-key"], form: form)
    }

    @Test("should exchange refresh token for new tokens")
    func exchange() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerAnonUser()
        // snake_case parameters also work, per OAuth 2.0 spec.
        let res = try await Self.refresh(api, ["refresh_token": user.refreshToken, "grantType": "refresh_token"])
        #expect(res.status == 200, "\(res)")
        #expect(res.string("id_token") != nil)
        #expect(res.string("access_token") == res.string("id_token"))
        #expect(res.string("refresh_token") != nil)
        #expect(res.string("expires_in")?.allSatisfy(\.isNumber) == true)
        #expect(res.string("project_id") == "12345")
        #expect(res.string("token_type") == "Bearer")
        #expect(res.string("user_id") == user.localId)
    }

    @Test("should exchange refresh tokens for new tokens in a tenant project")
    func exchangeTenant() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let tenant = try await api.registerTenant(api.projectId, ["disableAuth": false, "allowPasswordSignup": true])
        let tenantId = try #require(tenant["tenantId"] as? String)
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret", tenantId: tenantId)
        let res = try await Self.refresh(api, ["refresh_token": user.refreshToken, "grantType": "refresh_token"])
        #expect(res.status == 200, "\(res)")
        #expect(res.string("access_token") == res.string("id_token"))
        #expect(res.string("project_id") == "12345")
        #expect(res.string("user_id") == user.localId)
        let record = try #require(Data(base64Encoded: res.string("refresh_token") ?? "").flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] })
        #expect(record["tenantId"] as? String == tenantId)
    }

    @Test("should populate auth_time to match lastLoginAt (in seconds since epoch)")
    func authTime() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        // The spec ticks a fake clock 2 s before refreshing; on the wall clock we wait 1.1 s.
        try await Task.sleep(for: .milliseconds(1100))
        let res = try await Self.refresh(api, ["refresh_token": user.refreshToken, "grantType": "refresh_token"])
        let idToken = try #require(res.string("id_token"))
        let info = try await api.getAccountInfoByIdToken(idToken)
        let lastLoginAt = try #require(info["lastLoginAt"] as? String)
        let lastLoginAtSeconds = (Int(lastLoginAt) ?? 0) / 1000
        let decoded = try #require(EmulatorSpec.decodeJWT(idToken), "JWT returned by emulator is invalid")
        #expect(decoded.header["alg"] as? String == "none")
        // This should match login time, not token refresh time.
        #expect((decoded.payload["auth_time"] as? Int) == lastLoginAtSeconds)
        #expect((decoded.payload["iat"] as? Int ?? 0) > lastLoginAtSeconds)
    }

    @Test("should error if grant type is missing")
    func missingGrantType() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerAnonUser()
        let res = try await Self.refresh(api, ["refresh_token": user.refreshToken])
        #expect(res.status == 400)
        #expect(res.errorMessage?.contains("MISSING_GRANT_TYPE") == true)
    }

    @Test("should error if grant type is not refresh_token")
    func wrongGrantType() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerAnonUser()
        let res = try await Self.refresh(api, ["refresh_token": user.refreshToken, "grantType": "other_grant_type"])
        #expect(res.status == 400)
        #expect(res.errorMessage?.contains("INVALID_GRANT_TYPE") == true)
    }

    @Test("should error if refresh token is missing")
    func missingRefreshToken() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await Self.refresh(api, ["grantType": "refresh_token"])
        #expect(res.status == 400)
        #expect(res.errorMessage?.contains("MISSING_REFRESH_TOKEN") == true)
    }

    @Test("should error on malformed refresh tokens")
    func malformed() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await Self.refresh(api, ["refresh_token": "malformedToken", "grantType": "refresh_token"])
        #expect(res.status == 400)
        #expect(res.errorMessage?.contains("INVALID_REFRESH_TOKEN") == true)
    }

    @Test("should error if user is disabled")
    func disabled() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerAnonUser()
        try await api.updateAccountByLocalId(user.localId, ["disableUser": true])
        let res = try await Self.refresh(api, ["refreshToken": user.refreshToken, "grantType": "refresh_token"])
        #expect(res.status == 400)
        #expect(res.errorMessage == "USER_DISABLED")
    }

    static func encodeRecord(_ record: [String: Any]) throws -> String {
        try JSONSerialization.data(withJSONObject: record).base64EncodedString()
    }

    @Test("should error when refresh tokens are from a different project")
    func otherProject() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let token = try Self.encodeRecord(["_AuthEmulatorRefreshToken": "DO NOT MODIFY", "localId": "localId", "provider": "provider", "extraClaims": [String: Any](), "projectId": "notMatchingProjectId"])
        let res = try await Self.refresh(api, ["refresh_token": token, "grantType": "refresh_token"])
        #expect(res.status == 400)
        #expect(res.errorMessage == "INVALID_REFRESH_TOKEN")
    }

    @Test("should error on refresh tokens without required fields")
    func withoutRequiredFields() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let token = try Self.encodeRecord(["localId": "localId", "provider": "provider", "extraClaims": [String: Any](), "projectId": "notMatchingProjectId"])
        let res = try await Self.refresh(api, ["refresh_token": token, "grantType": "refresh_token"])
        #expect(res.status == 400)
        #expect(res.errorMessage == "INVALID_REFRESH_TOKEN")
    }

    @Test("should error if the refresh token is for a user that does not exist")
    func deletedUser() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.registerAnonUser()
        _ = try await api.deleteAccount(["idToken": user.idToken])
        let res = try await Self.refresh(api, ["refresh_token": user.refreshToken, "grantType": "refresh_token"])
        #expect(res.status == 400)
        #expect(res.errorMessage?.contains("INVALID_REFRESH_TOKEN") == true)
    }

    // emulator utility APIs

    @Test("should drop all accounts on DELETE /emulator/v1/projects/{PROJECT_ID}/accounts")
    func dropAccounts() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user1 = try await api.registerUser(email: "alice@example.com", password: "notasecret")
        let user2 = try await api.registerUser(email: "bob@example.com", password: "notasecret2")
        let res = try await api.request("DELETE", "/emulator/v1/projects/\(api.projectId)/accounts")
        #expect(res.status == 200)
        try await api.expectUserNotExistsForIdToken(user1.idToken)
        try await api.expectUserNotExistsForIdToken(user2.idToken)
    }

    @Test("should drop all accounts on DELETE /emulator/v1/projects/{PROJECT_ID}/tenants/{TENANT_ID}/accounts")
    func dropTenantAccounts() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let tenant = try await api.registerTenant(api.projectId, ["disableAuth": false, "allowPasswordSignup": true])
        let tenantId = try #require(tenant["tenantId"] as? String)
        let user1 = try await api.registerUser(email: "alice@example.com", password: "notasecret", tenantId: tenantId)
        let user2 = try await api.registerUser(email: "bob@example.com", password: "notasecret2", tenantId: tenantId)
        let res = try await api.request("DELETE", "/emulator/v1/projects/\(api.projectId)/tenants/\(tenantId)/accounts")
        #expect(res.status == 200)
        try await api.expectUserNotExistsForIdToken(user1.idToken, tenantId: tenantId)
        try await api.expectUserNotExistsForIdToken(user2.idToken, tenantId: tenantId)
    }

    static func config(_ res: EmulatorSpec.Answer) -> (duplicates: Bool?, privacy: Bool?) {
        ((res["signIn"] as? [String: Any])?["allowDuplicateEmails"] as? Bool,
         (res["emailPrivacyConfig"] as? [String: Any])?["enableImprovedEmailPrivacy"] as? Bool)
    }

    @Test("should return config on GET /emulator/v1/projects/{PROJECT_ID}/config")
    func getConfig() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.request("GET", "/emulator/v1/projects/\(api.projectId)/config")
        #expect(res.status == 200)
        #expect(Self.config(res).duplicates == false)
        #expect(Self.config(res).privacy == false)
    }

    @Test("should not throw an exception on project ID mismatch if singleProjectMode is NO_WARNING")
    func otherProjectConfig() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let res = try await api.request("GET", "/emulator/v1/projects/someproject/config")
        #expect(res.status == 200)
    }

    static func patch(_ api: EmulatorSpec, _ body: [String: Any]) async throws -> EmulatorSpec.Answer {
        let res = try await api.request("PATCH", "/emulator/v1/projects/\(api.projectId)/config", json: body)
        #expect(res.status == 200, "\(res)")
        return res
    }

    @Test("should only update allowDuplicateEmails on PATCH /emulator/v1/projects/{PROJECT_ID}/config")
    func patchDuplicates() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        for value in [true, false] {
            let res = try await Self.patch(api, ["signIn": ["allowDuplicateEmails": value]])
            #expect(Self.config(res).duplicates == value)
            #expect(Self.config(res).privacy == false)
        }
    }

    @Test("should only update enableImprovedEmailPrivacy on PATCH /emulator/v1/projects/{PROJECT_ID}/config")
    func patchPrivacy() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        for value in [true, false] {
            let res = try await Self.patch(api, ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": value]])
            #expect(Self.config(res).duplicates == false)
            #expect(Self.config(res).privacy == value)
        }
    }

    @Test("should update both allowDuplicateEmails and enableImprovedEmailPrivacy on PATCH /emulator/v1/projects/{PROJECT_ID}/config")
    func patchBoth() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        for value in [true, false] {
            let res = try await Self.patch(api, ["signIn": ["allowDuplicateEmails": value], "emailPrivacyConfig": ["enableImprovedEmailPrivacy": value]])
            #expect(Self.config(res).duplicates == value)
            #expect(Self.config(res).privacy == value)
        }
    }
}
