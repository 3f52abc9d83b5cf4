import Foundation
import Testing

/// firebase-tools `src/emulator/auth/batch.spec.ts`, its `accounts:batchGet` cases (what
/// firebase-admin's `list_users` and the legacy `downloadAccount` call), against
/// `serve --as emulator`. `batchCreate` is not simulated, so its cases are not ported.
@Suite("Auth Emulator spec port: accounts:batchGet (batch.spec.ts)")
struct BatchGetSpecPortTests {
    static func batchGet(_ api: EmulatorSpec, query: [String: String] = [:], tenantId: String? = nil) async throws -> EmulatorSpec.Answer {
        let scope = tenantId.map { "projects/\(api.projectId)/tenants/\($0)" } ?? "projects/\(api.projectId)"
        return try await api.request("GET", "\(EmulatorSpec.v1)/\(scope)/accounts:batchGet", query: query, headers: ["Authorization": "Bearer owner"])
    }

    static func localIds(_ res: EmulatorSpec.Answer) -> [String] {
        ((res["users"] as? [[String: Any]]) ?? []).compactMap { $0["localId"] as? String }
    }

    @Test("should allow listing all accounts")
    func listAll() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user1 = try await api.registerAnonUser()
        let user2 = try await api.registerUser(email: "foo@example.com", password: "foobar")
        let res = try await Self.batchGet(api)
        #expect(res.status == 200, "\(res)")
        #expect(Set(Self.localIds(res)) == [user1.localId, user2.localId])
        #expect(res["nextPageToken"] == nil, "no more accounts after this")
    }

    @Test("should return MFA info")
    func mfaInfo() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user = try await api.signInWithEmailLink(email: "test@example.com")
        _ = try await MfaSpecPortTests.enrollPhoneMfa(api, idToken: user.idToken, phoneNumber: MfaSpecPortTests.phoneNumber)
        let res = try await Self.batchGet(api)
        #expect(res.status == 200, "\(res)")
        let users = try #require(res["users"] as? [[String: Any]])
        #expect(users.count == 1)
        let factor = try #require((users.first?["mfaInfo"] as? [[String: Any]])?.first)
        // The spec's enrolledAt is its frozen clock's; here it is the enrollment's time.
        #expect(factor["enrolledAt"] is String)
        #expect(factor["phoneInfo"] as? String == MfaSpecPortTests.phoneNumber)
        #expect(factor["unobfuscatedPhoneInfo"] as? String == MfaSpecPortTests.phoneNumber)
    }

    @Test("should allow listing all accounts using legacy endpoint")
    func listAllLegacy() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user1 = try await api.registerAnonUser()
        let user2 = try await api.registerUser(email: "foo@example.com", password: "foobar")
        let res = try await api.post("/www.googleapis.com/identitytoolkit/v3/relyingparty/downloadAccount", ["targetProjectId": api.projectId], owner: true)
        #expect(res.status == 200, "\(res)")
        #expect(Set(Self.localIds(res)) == [user1.localId, user2.localId])
        #expect(res["nextPageToken"] == nil)
    }

    @Test("should allow specifying maxResults and pagination")
    func pagination() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user1 = try await api.registerAnonUser()
        let user2 = try await api.registerUser(email: "foo@example.com", password: "foobar")
        let localIds = [user1.localId, user2.localId].sorted()

        let first = try await Self.batchGet(api, query: ["maxResults": "1"])
        #expect(Self.localIds(first) == [localIds[0]])
        let nextPageToken = try #require(first.string("nextPageToken"))

        let second = try await Self.batchGet(api, query: ["nextPageToken": nextPageToken])
        #expect(Self.localIds(second) == [localIds[1]])
        #expect(second["nextPageToken"] == nil)

        // The legacy API too recognizes nextPageToken.
        let legacy = try await api.post("/www.googleapis.com/identitytoolkit/v3/relyingparty/downloadAccount", ["targetProjectId": api.projectId, "nextPageToken": nextPageToken], owner: true)
        #expect(legacy.status == 200, "\(legacy)")
        #expect(Self.localIds(legacy) == [localIds[1]])
        #expect(legacy["nextPageToken"] == nil)
    }

    @Test("should always return a page token if page is full")
    func fullPageToken() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let user1 = try await api.registerAnonUser()
        let user2 = try await api.registerUser(email: "foo@example.com", password: "foobar")
        let localIds = [user1.localId, user2.localId].sorted()

        let full = try await Self.batchGet(api, query: ["maxResults": "2"])
        #expect(Self.localIds(full) == localIds)
        let nextPageToken = try #require(full.string("nextPageToken"), "a full page has a token, as production (firebase-tools #3231)")

        let empty = try await Self.batchGet(api, query: ["nextPageToken": nextPageToken])
        #expect(empty.status == 200)
        #expect(Self.localIds(empty).isEmpty)
        #expect(empty["nextPageToken"] == nil)
    }

    @Test("should error if auth is disabled")
    func authDisabled() async throws {
        let api = try await EmulatorSpec.start()
        defer { Task { await api.stop() } }
        let tenant = try await api.registerTenant(api.projectId, ["disableAuth": true])
        let res = try await Self.batchGet(api, tenantId: tenant["tenantId"] as? String)
        #expect(res.status == 400)
        #expect(res.errorMessage?.contains("PROJECT_DISABLED") == true)
    }
}
