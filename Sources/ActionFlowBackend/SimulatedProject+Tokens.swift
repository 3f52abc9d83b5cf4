import ActionFlowModel
import Foundation

// ID and refresh tokens as the Auth Emulator makes them: unsigned JWTs (`alg: none`) with the
// emulator's claims, and refresh tokens that are base64 JSON records. Any well-formed unsigned
// token of an existing user is accepted, as the emulator accepts it.
extension SimulatedProject {
    /// `iat` and `exp` of a new ID token: `iat` is the earlier and `exp` an hour after the later
    /// of the simulated clock and the host's wall clock (the latest request's), so a token is
    /// valid against both. In `emulator` behaviour, and on the embedded transport (which never
    /// sees the wall clock), the two are the same instant.
    func tokenTimes() -> (issuedAt: Int, expiresAt: Int) {
        let simulated = clock.now
        let wall = wallClock ?? simulated
        let issuedAt = min(simulated, wall).wholeSecondsSince1970
        let expiresAt = max(simulated, wall).wholeSecondsSince1970 + Self.idTokenLifetime
        return (issuedAt, expiresAt)
    }

    /// New ID and refresh tokens for `account` (already stored), signed in with `provider`, and
    /// with the second factor of that id when there was one.
    mutating func issueTokens(_ account: Account, provider: String, secondFactor: String? = nil) -> (idToken: String, refreshToken: String, expiresIn: String) {
        var account = account
        account.lastRefreshAt = clock.now
        if accounts[account.localId] != nil { accounts[account.localId] = account }
        let idToken = issueIDToken(account, provider: provider, secondFactor: secondFactor)
        // Drawn in both behaviours, so that ids and codes follow the same sequence as before.
        let random = generator.urlSafeString(count: 64)
        let refreshToken: String
        // Production behaviour keeps its random tokens (looked up here); the emulator's, and a
        // tenant's (whose refresh must find its tenant), are records naming project and tenant.
        if isEmulator || tenant != nil {
            refreshToken = Self.encodeRefreshToken(localId: account.localId, provider: provider, projectId: configuration.projectId, tenantId: tenant?.tenantId)
        } else {
            refreshToken = random
            var known = refreshTokens ?? [:]
            known[random] = RefreshRecord(localId: account.localId, provider: provider)
            refreshTokens = known
        }
        return (idToken, refreshToken, String(Self.idTokenLifetime))
    }

    /// An unsigned JWT with the emulator's claims, remembered as a session (so revocation works
    /// within one clock second).
    private mutating func issueIDToken(_ account: Account, provider: String, secondFactor: String?) -> String {
        // Beyond the emulator's claims, a session id: two sign-ins in one second get different
        // tokens, so revoking one session never revives or kills another.
        let sessionId = generator.alphanumericString(count: 10)
        let (issuedAt, expiresAt) = tokenTimes()
        let authTime = min((account.lastLoginAt ?? account.lastRefreshAt ?? clock.now).wholeSecondsSince1970, issuedAt)
        var identities: [String: Any] = [:]
        if let email = account.email { identities["email"] = [email] }
        var firebase: [String: Any] = ["identities": identities, "sign_in_provider": provider]
        if let tenant { firebase["tenant"] = tenant.tenantId }
        if let secondFactor {
            // operations.ts:2606-2607: SMS is the only second factor.
            firebase["sign_in_second_factor"] = "phone"
            firebase["second_factor_identifier"] = secondFactor
        }
        var claims: [String: Any] = [
            "iss": "https://securetoken.google.com/\(configuration.projectId)",
            "aud": configuration.projectId,
            "auth_time": authTime,
            "user_id": account.localId,
            "sub": account.localId,
            "iat": issuedAt,
            "exp": expiresAt,
            "email_verified": account.emailVerified,
            "firebase": firebase,
            "sid": sessionId,
        ]
        if let email = account.email { claims["email"] = email }
        if let name = account.displayName { claims["name"] = name }
        if let picture = account.photoUrl { claims["picture"] = picture }
        if provider == "anonymous" { claims["provider_id"] = "anonymous" }
        let payload = Data((JSONOutput.string(plain: claims, format: .wire) ?? "{}").utf8)
        let token = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0." + Self.base64URL(payload) + "."
        sessions[token] = Session(localId: account.localId, generation: account.sessionGeneration, provider: provider, issuedAt: issuedAt)
        return token
    }

    /// The account an ID token names, and how it signed in. Tokens this project issued are
    /// checked against their session (revoked by a password change even within the second);
    /// any other well-formed JWT is read as the emulator reads it: `user_id` must exist, `iat`
    /// not before `validSince`, the tenant must match.
    func tokenAccount(_ idToken: String) throws(AuthFailure) -> (account: Account, provider: String) {
        let expired = AuthFailure.server(.tokenExpired, detail: isEmulator ? nil : "The user's credential is no longer valid. The user must sign in again.")
        let disabled = isEmulator ? AuthFailure.server(.userDisabled, detail: nil) : Self.userDisabled
        if let session = sessions[idToken] {
            guard let account = accounts[session.localId] else { throw AuthFailure.server(.userNotFound, detail: nil) }
            guard session.generation == account.sessionGeneration,
                  (session.issuedAt ?? .max) >= (account.tokenValidSince ?? .min)
            else { throw expired }
            guard !account.disabled else { throw disabled }
            return (account, session.provider ?? "password")
        }
        guard let claims = Self.decodeJWTPayload(idToken) else { throw AuthFailure.server(.invalidIDToken, detail: nil) }
        let firebase = claims["firebase"] as? [String: Any]
        if let tenantClaim = firebase?["tenant"] as? String, tenantClaim != tenant?.tenantId {
            throw AuthFailure.server(.tenantIdMismatch, detail: nil)
        }
        guard let uid = (claims["user_id"] as? String) ?? (claims["sub"] as? String), let account = accounts[uid] else {
            throw AuthFailure.server(.userNotFound, detail: nil)
        }
        let issuedAt = (claims["iat"] as? NSNumber)?.doubleValue ?? 0
        guard issuedAt >= Double(Self.wireValidSince(account)) else { throw expired }
        guard !account.disabled else { throw disabled }
        return (account, (firebase?["sign_in_provider"] as? String) ?? "password")
    }

    /// `POST /securetoken.googleapis.com/v1/token`: new tokens whose claims reflect the user now
    /// (so after a verification, the refreshed token says `email_verified: true`).
    public mutating func grantToken(_ request: GrantTokenRequest) throws(AuthFailure) -> GrantTokenResponse {
        guard let grantType = Self.nonEmpty(request.grantType) else { throw AuthFailure.server(.missingGrantType, detail: nil) }
        guard grantType == "refresh_token" else { throw AuthFailure.server(.invalidGrantType, detail: nil) }
        guard let token = Self.nonEmpty(request.refreshToken) else { throw AuthFailure.server(.missingRefreshToken, detail: nil) }
        let invalid = AuthFailure.server(.invalidRefreshToken, detail: nil)
        let record: RefreshRecord
        if let known = refreshTokens?[token] {
            record = known
        } else {
            guard let decoded = Self.decodeRefreshToken(token) else { throw invalid }
            guard decoded["projectId"] as? String == configuration.projectId else { throw invalid }
            let tokenTenant = decoded["tenantId"] as? String
            if let tokenTenant, tokenTenant != tenant?.tenantId { throw AuthFailure.server(.tenantIdMismatch, detail: nil) }
            guard let localId = decoded["localId"] as? String else { throw invalid }
            record = RefreshRecord(localId: localId, provider: decoded["provider"] as? String ?? "password")
        }
        guard let account = accounts[record.localId] else { throw invalid }
        guard !account.disabled else { throw AuthFailure.server(.userDisabled, detail: nil) }
        let tokens = issueTokens(account, provider: record.provider)
        return GrantTokenResponse(idToken: tokens.idToken, expiresIn: tokens.expiresIn, refreshToken: tokens.refreshToken, userId: account.localId, projectNumber: Self.projectNumber)
    }

    // MARK: Encodings

    /// The emulator's refresh token: base64 of a JSON record.
    static func encodeRefreshToken(localId: String, provider: String, projectId: String, tenantId: String?) -> String {
        var record: [String: Any] = [
            "_AuthEmulatorRefreshToken": "DO NOT MODIFY", "localId": localId, "provider": provider,
            "extraClaims": [String: Any](), "projectId": projectId,
        ]
        if let tenantId { record["tenantId"] = tenantId }
        return Data((JSONOutput.string(plain: record, format: .wire) ?? "").utf8).base64EncodedString()
    }

    /// A refresh token's record, or nil when it is not one (Node's base64 reading is lenient:
    /// URL-safe letters and missing padding pass).
    public static func decodeRefreshToken(_ token: String) -> [String: Any]? {
        guard let data = lenientBase64(token),
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return nil }
        guard let marker = object["_AuthEmulatorRefreshToken"], !(marker is NSNull), (marker as? String)?.isEmpty != true else { return nil }
        return object
    }

    /// The payload of `header.payload.signature`, when header and payload are base64url JSON.
    public static func decodeJWTPayload(_ token: String) -> [String: Any]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let headerData = lenientBase64(String(parts[0])),
              (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any] != nil,
              let payloadData = lenientBase64(String(parts[1])),
              let payload = (try? JSONSerialization.jsonObject(with: payloadData)) as? [String: Any]
        else { return nil }
        return payload
    }

    /// The `firebase.tenant` claim of a token read as `decodeJWTPayload` reads it. A payload
    /// with neither `tenant` nor a `\u` escape (which could spell it) cannot hold one, and is
    /// not parsed (most tokens). `serve` asks this of every request with an ID token.
    public static func tenantClaim(ofJWT token: String) -> String? {
        var token = token
        let plain = token.withUTF8 { bytes -> Bool? in
            // In ASCII a byte is a character, so the parts split on bytes as `decodeJWTPayload` splits them.
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            let dots = bytes.indices.filter { bytes[$0] == UInt8(ascii: ".") }
            guard dots.count == 2 else { return true }
            return !mayNameTenant(decodeBase64Leniently(UnsafeBufferPointer(rebasing: bytes[(dots[0] + 1)..<dots[1]])))
        }
        if plain == true { return nil }
        return (decodeJWTPayload(token)?["firebase"] as? [String: Any])?["tenant"] as? String
    }

    /// Whether JSON text holds `tenant` or a `\u` escape. (`Data.firstRange(of:)` costs a
    /// lookup a fifth of its time.)
    private static func mayNameTenant(_ json: [UInt8]) -> Bool {
        let tenant = Array("tenant".utf8)
        for index in json.indices {
            if json[index] == UInt8(ascii: "\\"), index + 1 < json.count, json[index + 1] == UInt8(ascii: "u") { return true }
            if json[index] == tenant[0], json[index...].starts(with: tenant) { return true }
        }
        return false
    }

    private static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Base64 or base64url letters to their values; 0xFF for the bytes `lenientBase64` skips.
    private static let base64Values: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for alphabet in [base64Alphabet, base64URLAlphabet] {
            for (value, letter) in alphabet.enumerated() { values[Int(letter)] = UInt8(value) }
        }
        return values
    }()

    /// The bytes `lenientBase64` gives whenever it gives any, decoded in one pass; for text it
    /// refuses, whatever the letters spell (so only a check that then asks `lenientBase64` may use it).
    static func decodeBase64Leniently(_ ascii: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(ascii.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in ascii {
            let value = base64Values[Int(byte)]
            guard value != 0xFF else { continue }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                decoded.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return decoded
    }

    static func lenientBase64(_ text: String) -> Data? {
        // Tokens are ASCII: one pass over the bytes, as the Character path below would go.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            var text = text
            return text.withUTF8 { lenientBase64($0) }
        }
        var standard = text.replacingEvery("-", with: "+").replacingEvery("_", with: "/")
        standard = standard.filter { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "/" }
        guard !standard.isEmpty else { return nil }
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard)
    }

    /// `lenientBase64` of ASCII bytes.
    static func lenientBase64(_ ascii: UnsafeBufferPointer<UInt8>) -> Data? {
        var standard: [UInt8] = []
        standard.reserveCapacity(ascii.count + 3)
        for byte in ascii {
            let value = base64Values[Int(byte)]
            if value != 0xFF { standard.append(base64Alphabet[Int(value)]) }
        }
        guard !standard.isEmpty else { return nil }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(standard))
    }

    private static let base64URLAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Unpadded base64url, as JWTs use.
    static func base64URL(_ text: String) -> String {
        base64URL(Data(text.utf8))
    }

    static func base64URL(_ data: Data) -> String {
        let bytes = Array(data)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = min(3, bytes.count - index)
            var value = UInt32(bytes[index]) << 16
            if chunk > 1 { value |= UInt32(bytes[index + 1]) << 8 }
            if chunk > 2 { value |= UInt32(bytes[index + 2]) }
            for position in 0...chunk {
                out.append(base64URLAlphabet[Int((value >> UInt32(18 - 6 * position)) & 63)])
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
