import ActionFlowModel
import ActionFlowServer
import ActionFlowTransport
import Foundation
import Testing

@Suite("serve: the web action handler page")
struct ActionHandlerPageTests {
    /// The "open here" link the mailbox page shows for the newest email.
    static func openHereLink(_ fixture: ServeFixture) async throws -> String {
        let page = try await fixture.http("GET", "/mailbox")
        #expect(page.status == 200)
        let marker = "<a href=\""
        let start = try #require(page.body.range(of: marker + "/__/auth/action?"))
        let rest = page.body[page.body.index(start.lowerBound, offsetBy: marker.count)...]
        let end = try #require(rest.firstIndex(of: "\""))
        return String(rest[..<end]).replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test("reset in a browser: the form, a weak password refused, a new password saved, Continue to the continue URL")
    func resetPasswordForm() async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        _ = try await fixture.rest.sendOobCode(SendOobCodeRequest(requestType: .passwordReset, email: "alice@example.com", continueUrl: "https://www.example.com/checkout?cartId=1234"), locale: nil)
        let link = try await Self.openHereLink(fixture)

        let form = try await fixture.http("GET", link)
        #expect(form.status == 200)
        #expect(form.headers["referrer-policy"] == "no-referrer")
        #expect(form.headers["cache-control"] == "no-store")
        #expect(form.body.contains("<form method=\"post\">"))
        #expect(form.body.contains("alice@example.com"))

        let code = try #require(URLComponents(string: "http://x" + link)?.queryItems?.first { $0.name == "oobCode" }?.value)
        let fields = "mode=resetPassword&oobCode=\(code)&continueUrl=https%3A%2F%2Fwww.example.com%2Fcheckout%3FcartId%3D1234"
        let weak = try await fixture.http("POST", "/__/auth/action", body: fields + "&newPassword=123", headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(weak.status == 400)
        #expect(weak.body.contains("at least 6 characters"))

        let saved = try await fixture.http("POST", "/__/auth/action", body: fields + "&newPassword=brand+new+pass", headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(saved.status == 200)
        #expect(saved.body.contains("Password changed"))
        #expect(saved.body.contains("href=\"https://www.example.com/checkout?cartId=1234\">Continue</a>"))
        let signedIn = try await fixture.rest.signInWithPassword(SignInWithPasswordRequest(email: "alice@example.com", password: "brand new pass"))
        #expect(signedIn.email == "alice@example.com")

        let reused = try await fixture.http("GET", link)
        #expect(reused.status == 400)
        #expect(reused.body.contains("already been used"))
    }

    @Test("verify in a browser: opening the link verifies the email")
    func verifyEmail() async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        let token = try #require(try await fixture.rest.signInWithPassword(SignInWithPasswordRequest(email: "bob@example.com", password: "bob-password-1")).idToken)
        _ = try await fixture.rest.sendOobCode(SendOobCodeRequest(requestType: .verifyEmail, idToken: token, continueUrl: "https://www.example.com/newsletter"), locale: nil)
        let page = try await fixture.http("GET", try await Self.openHereLink(fixture))
        #expect(page.status == 200)
        #expect(page.body.contains("Your email has been verified"))
        #expect(try await fixture.rest.lookup(LookupRequest(idToken: token)).users?.first?.emailVerified == true)
    }

    @Test("a sign-in link in a browser is not signed in there: 303 to the continue URL with the link's parameters, the code left for the web app")
    func emailLinkSignInForwards() async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        _ = try await fixture.rest.sendOobCode(SendOobCodeRequest(requestType: .emailSignIn, email: "dave@example.com", continueUrl: "https://www.example.com/finish?cart=7", canHandleCodeInApp: true), locale: nil)
        let link = try await Self.openHereLink(fixture)
        let linkItems = try #require(URLComponents(string: "http://x" + link)?.queryItems)
        let code = try #require(linkItems.first { $0.name == "oobCode" }?.value)

        // A browser that does not follow the redirect, to see where it goes.
        let forward = try await EmulatorSpec(fixture: fixture).request("GET", link)
        #expect(forward.status == 303)
        #expect(forward.headers["referrer-policy"] == "no-referrer", "the continue URL's page gets no Referer holding the code")
        let target = try #require(forward.headers["location"])
        let location = try #require(URLComponents(string: target))
        #expect(location.host == "www.example.com")
        #expect(location.path == "/finish")
        let expected = [URLQueryItem(name: "cart", value: "7")] + linkItems.filter { $0.name != "continueUrl" }
        #expect(location.queryItems == expected, "the continue URL's own parameters, then the link's, in order, without continueUrl")
        #expect(expected.contains { $0.name == "mode" && $0.value == "signIn" } && expected.contains { $0.name == "apiKey" } && expected.contains { $0.name == "lang" })

        // The web app at the continue URL finishes the sign-in with the code: still unused.
        let forwardedCode = try #require(location.queryItems?.first { $0.name == "oobCode" }?.value)
        #expect(forwardedCode == code)
        do throws(AuthFailure) {
            _ = try await fixture.rest.signInWithEmailLink(SignInWithEmailLinkRequest(email: "bob@example.com", oobCode: forwardedCode))
            Issue.record("an address the link was not sent to must be refused")
        } catch {
            #expect(error.serverCode == .invalidEmail)
        }
        let signedIn = try await fixture.rest.signInWithEmailLink(SignInWithEmailLinkRequest(email: "dave@example.com", oobCode: forwardedCode))
        #expect(signedIn.email == "dave@example.com")
    }

    @Test("a sign-in link without a continue URL, or with one that is not a web address, is not sent on: the page says why")
    func emailLinkSignInWithoutContinueURL() async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        let page = try await fixture.http("GET", "/__/auth/action?mode=signIn&oobCode=abc&apiKey=k&lang=en")
        #expect(page.status == 400)
        #expect(page.body.contains("no page to finish signing in on"))
        let script = try await fixture.http("GET", "/__/auth/action?mode=signIn&oobCode=abc&apiKey=k&continueUrl=javascript%3Aalert(1)")
        #expect(script.status == 400, "no redirect to a page that is not a web address")
        #expect(!script.body.contains("href=\"javascript"))
        #expect(script.body.contains("not a web address"))
    }

    @Test("hostile link parameters are escaped, and a non-web continue URL gets no Continue button")
    func escaping() async throws {
        let fixture = try await ServeFixture.start()
        defer { Task { await fixture.stop() } }
        let token = try #require(try await fixture.rest.signInWithPassword(SignInWithPasswordRequest(email: "bob@example.com", password: "bob-password-1")).idToken)
        _ = try await fixture.rest.sendOobCode(SendOobCodeRequest(requestType: .verifyEmail, idToken: token), locale: nil)
        let code = try #require(try await fixture.rest.mailbox().last?.oobCode)
        let hostile = "https://www.example.com/\"><script>alert(1)</script>"
        let encoded = try #require(hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let page = try await fixture.http("GET", "/__/auth/action?mode=verifyEmail&oobCode=\(code)&continueUrl=\(encoded)")
        #expect(!page.body.contains("<script>"))
        #expect(page.body.contains("&quot;&gt;&lt;script&gt;"))

        let badMode = try await fixture.http("GET", "/__/auth/action?mode=%3Cb%3E&oobCode=x")
        #expect(badMode.status == 400)
        #expect(badMode.body.contains("&lt;b&gt;"))

        _ = try await fixture.rest.sendOobCode(SendOobCodeRequest(requestType: .verifyEmail, idToken: token), locale: nil)
        let second = try #require(try await fixture.rest.mailbox().last?.oobCode)
        let script = try await fixture.http("GET", "/__/auth/action?mode=verifyEmail&oobCode=\(second)&continueUrl=javascript%3Aalert(1)")
        #expect(!script.body.contains("href=\"javascript"))
        #expect(script.body.contains("not a web address"))
    }
}
