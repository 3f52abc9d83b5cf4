"""Records the flow captures (flow-*.har): one email action each, made by real clients against
`actionflow-serve serve` through mitmproxy's mitmdump in reverse-proxy mode writing HAR
(`--set hardump=FILE`), each on a fresh server, in both behaviours, with the mistakes apps make.

Clients: pyrebase4 (PyPI, routed to serve as Tests/ActionFlowServerTests/Interop does), plain
HTTP calls with `requests` shaped as the SDKs send them, and headless Chromium (Selenium, run by
BROWSER_PYTHON) opening the links the mail holds.

Run from the package root after `swift build`, with a Python that has pyrebase4 and requests
(.ci/run makes .build/rest-clients-venv), mitmdump on PATH or in MITMDUMP, and Selenium in
BROWSER_PYTHON (.build/browser-venv/bin/python):

    .build/rest-clients-venv/bin/python Tests/ActionFlowCommandTests/Fixtures/Captures/record-flow-captures.py [NAME...]
"""
import json
import os
import signal
import socket
import subprocess
import sys
import time

import requests

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "ActionFlowServerTests", "Interop"))
from rest_clients_interop import route_to  # noqa: E402

PROJECT = "demo-actionflow"
API_KEY = "fake-api-key-demo-actionflow"
MITMDUMP = os.environ.get("MITMDUMP", "mitmdump")
BROWSER_PYTHON = os.environ.get("BROWSER_PYTHON", os.path.join(ROOT, ".build", "browser-venv", "bin", "python"))
JS_HEADERS = {"X-Client-Version": "Chrome/JsCore/11.0.2/FirebaseCore-web"}
IOS_HEADERS = {"X-Client-Version": "iOS/FirebaseSDK/11.5.0/FirebaseCore-iOS", "X-Ios-Bundle-Identifier": "com.example.ios"}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Capture:
    """A fresh serve in one behaviour behind mitmdump writing HAR to `path`."""

    def __init__(self, behaviour, path):
        self.behaviour, self.path = behaviour, path

    def __enter__(self):
        binary = subprocess.check_output(["swift", "build", "--show-bin-path"], cwd=ROOT, text=True).strip()
        serve_port, proxy_port = free_port(), free_port()
        self.serve = subprocess.Popen([os.path.join(binary, "actionflow-serve"), "serve", "--as", self.behaviour,
                                       "--host", "127.0.0.1", "--port", str(serve_port), "--quiet"])
        self.proxy = subprocess.Popen([MITMDUMP, "-q", "--mode", f"reverse:http://127.0.0.1:{serve_port}",
                                       "--listen-host", "127.0.0.1", "--listen-port", str(proxy_port),
                                       "--set", "keep_host_header=true", "--set", f"hardump={self.path}"])
        self.base = f"http://127.0.0.1:{proxy_port}"
        for _ in range(100):
            try:
                requests.get(f"http://127.0.0.1:{serve_port}/emulator/v1/projects/{PROJECT}/config", timeout=1)
                requests.get(self.base + "/", timeout=1)
                break
            except requests.RequestException:
                time.sleep(0.2)
        route_to(self.base.removeprefix("http://"))
        return self

    def __exit__(self, *_):
        self.proxy.send_signal(signal.SIGTERM)
        self.proxy.wait(timeout=30)
        self.serve.send_signal(signal.SIGTERM)
        self.serve.wait(timeout=30)
        print(f"wrote {os.path.relpath(self.path, ROOT)}")

    def call(self, method, body, headers=None):
        """A v1 accounts call as the JS and iOS SDKs send it: JSON, the key in the query."""
        url = f"https://identitytoolkit.googleapis.com/v1/accounts:{method}?key={API_KEY}"
        return requests.post(url, json=body, headers=headers or JS_HEADERS).json()

    def code(self, kind, email):
        listed = requests.get(f"{self.base}/emulator/v1/projects/{PROJECT}/oobCodes").json()["oobCodes"]
        return next(entry for entry in reversed(listed) if entry["requestType"] == kind and entry["email"] == email)

    def pyrebase(self):
        import pyrebase
        return pyrebase.initialize_app({"apiKey": API_KEY, "authDomain": f"{PROJECT}.firebaseapp.com",
                                        "databaseURL": "", "storageBucket": ""}).auth()

    def browse(self, url, fill_password=None):
        """Headless Chromium opens `url`; with `fill_password`, fills the page's form and sends it."""
        script = """
import sys, time
from selenium import webdriver
from selenium.webdriver.common.by import By
options = webdriver.ChromeOptions()
for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
    options.add_argument(argument)
driver = webdriver.Chrome(options=options)
try:
    driver.set_page_load_timeout(15)
    try:
        driver.get(sys.argv[1])
    except Exception as error:
        print("page:", type(error).__name__)
    if len(sys.argv) > 2:
        field = driver.find_element(By.NAME, "newPassword")
        field.send_keys(sys.argv[2])
        field.submit()
        time.sleep(1)
    print(driver.title)
finally:
    driver.quit()
"""
        subprocess.run([BROWSER_PYTHON, "-c", script, url] + ([fill_password] if fill_password else []), check=True, timeout=120)


def ignore(action):
    """An app's call that fails as the flow intends: the capture keeps the answer."""
    try:
        action()
    except requests.HTTPError:
        pass


def pyrebase_emulator_password_reset(capture):
    auth = capture.pyrebase()
    email = "reset@example.com"
    auth.create_user_with_email_and_password(email, "first-secret-1")
    auth.send_password_reset_email(email)
    code = capture.code("PASSWORD_RESET", email)["oobCode"]
    auth.verify_password_reset_code(code, "second-secret-2")
    auth.sign_in_with_email_and_password(email, "second-secret-2")
    # The mistake: the app keeps the old password and tries it again.
    ignore(lambda: auth.sign_in_with_email_and_password(email, "first-secret-1"))


def pyrebase_production_verify_email(capture):
    auth = capture.pyrebase()
    email = "verify@example.com"
    user = auth.create_user_with_email_and_password(email, "verify-secret-1")
    auth.send_email_verification(user["idToken"])
    code = capture.code("VERIFY_EMAIL", email)["oobCode"]
    capture.call("update", {"oobCode": code})
    auth.get_account_info(user["idToken"])
    # The mistake: the app applies the code a second time when the link is opened again.
    capture.call("update", {"oobCode": code})


def requests_emulator_email_link_sign_in(capture):
    email = "link@example.com"
    capture.call("sendOobCode", {"requestType": "EMAIL_SIGNIN", "email": email, "continueUrl": "https://www.example.com/finish?cart=42",
                                 "canHandleCodeInApp": True, "iOSBundleId": "com.example.ios"}, IOS_HEADERS)
    code = capture.code("EMAIL_SIGNIN", email)["oobCode"]
    # The mistakes: the link opened on another device, where the app asks for the address and is
    # given the wrong one; then the right one; then the link opened again.
    capture.call("signInWithEmailLink", {"email": "someone-else@example.com", "oobCode": code}, IOS_HEADERS)
    capture.call("signInWithEmailLink", {"email": email, "oobCode": code}, IOS_HEADERS)
    capture.call("signInWithEmailLink", {"email": email, "oobCode": code}, IOS_HEADERS)


def requests_production_made_up_code(capture):
    email = "madeup@example.com"
    capture.call("signUp", {"email": email, "password": "madeup-secret-1", "returnSecureToken": True})
    capture.call("sendOobCode", {"requestType": "PASSWORD_RESET", "email": email, "continueUrl": "https://www.example.com/account"})
    # The mistake: a code the server never issued (a test value left in the app).
    capture.call("resetPassword", {"oobCode": "made-up-code-from-a-test", "newPassword": "madeup-secret-2"})
    code = capture.code("PASSWORD_RESET", email)["oobCode"]
    capture.call("resetPassword", {"oobCode": code})
    capture.call("resetPassword", {"oobCode": code, "newPassword": "madeup-secret-3"})
    capture.call("signInWithPassword", {"email": email, "password": "madeup-secret-3", "returnSecureToken": True})


def requests_emulator_change_email(capture):
    old, new = "old-address@example.com", "new-address@example.com"
    user = capture.call("signUp", {"email": old, "password": "change-secret-1", "returnSecureToken": True})
    capture.call("sendOobCode", {"requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user["idToken"], "newEmail": new,
                                 "continueUrl": "https://www.example.com/profile"})
    code = capture.code("VERIFY_AND_CHANGE_EMAIL", old)["oobCode"]
    capture.call("update", {"oobCode": code})
    capture.call("signInWithPassword", {"email": new, "password": "change-secret-1", "returnSecureToken": True})
    # The mistake: the app still signs in with the address it remembered.
    capture.call("signInWithPassword", {"email": old, "password": "change-secret-1", "returnSecureToken": True})


def requests_production_continue_urls(capture):
    email = "continue@example.com"
    user = capture.call("signUp", {"email": email, "password": "continue-secret-1", "returnSecureToken": True})
    # The mistakes: a continue URL on a domain nobody authorized, and one carrying the ID token.
    capture.call("sendOobCode", {"requestType": "PASSWORD_RESET", "email": email, "continueUrl": "https://evil.example/after-reset"})
    capture.call("sendOobCode", {"requestType": "VERIFY_EMAIL", "idToken": user["idToken"],
                                 "continueUrl": "https://www.example.com/welcome?token=" + user["idToken"]})
    capture.call("sendOobCode", {"requestType": "PASSWORD_RESET", "email": email, "continueUrl": "https://www.example.com/account?tab=security"})


def chromium_emulator_verify_link(capture):
    email = "browser-verify@example.com"
    user = capture.call("signUp", {"email": email, "password": "browser-secret-1", "returnSecureToken": True})
    capture.call("sendOobCode", {"requestType": "VERIFY_EMAIL", "idToken": user["idToken"], "continueUrl": "https://www.example.com/welcome"})
    capture.browse(capture.code("VERIFY_EMAIL", email)["oobLink"])
    capture.call("lookup", {"idToken": user["idToken"]})


def chromium_production_hosted_reset(capture):
    email = "hosted-reset@example.com"
    capture.call("signUp", {"email": email, "password": "hosted-secret-1", "returnSecureToken": True})
    capture.call("sendOobCode", {"requestType": "PASSWORD_RESET", "email": email, "continueUrl": "https://www.example.com/account"})
    link = capture.code("PASSWORD_RESET", email)["oobLink"]
    # The hosted page, reached through the proxy as the link's own host would serve it.
    path = link.split("://", 1)[1].split("/", 1)[1]
    capture.browse(f"{capture.base}/{path}", fill_password="hosted-secret-2")
    capture.call("signInWithPassword", {"email": email, "password": "hosted-secret-2", "returnSecureToken": True})


def requests_production_email_change_recovery(capture):
    old, new = "recover-old@example.com", "recover-new@example.com"
    user = capture.call("signUp", {"email": old, "password": "recover-secret-1", "returnSecureToken": True})
    changed = capture.call("update", {"idToken": user["idToken"], "email": new, "returnSecureToken": True})
    listed = requests.get(f"{capture.base}/emulator/v1/projects/{PROJECT}/oobCodes").json()["oobCodes"]
    recovery = [entry for entry in listed if entry["requestType"] == "RECOVER_EMAIL"]
    if recovery:
        capture.call("resetPassword", {"oobCode": recovery[-1]["oobCode"]})
        capture.call("update", {"oobCode": recovery[-1]["oobCode"]})
    capture.call("lookup", {"idToken": changed.get("idToken", user["idToken"])})
    capture.call("signInWithPassword", {"email": old, "password": "recover-secret-1", "returnSecureToken": True})


def requests_emulator_enumeration_and_check(capture):
    email = "check@example.com"
    capture.call("signUp", {"email": email, "password": "check-secret-1", "returnSecureToken": True})
    # The mistake: a reset for an address with no account, which the emulator reports.
    capture.call("sendOobCode", {"requestType": "PASSWORD_RESET", "email": "nobody@example.com"})
    capture.call("sendOobCode", {"requestType": "PASSWORD_RESET", "email": email, "continueUrl": "http://localhost:5173/reset"})
    code = capture.code("PASSWORD_RESET", email)["oobCode"]
    capture.call("resetPassword", {"oobCode": code})
    capture.call("resetPassword", {"oobCode": code, "newPassword": "short"})
    capture.call("resetPassword", {"oobCode": code, "newPassword": "check-secret-2"})


def requests_production_revert_second_factor(capture):
    # A preset account of the production behaviour; the app adds a phone second factor.
    email = "alice@example.com"
    token = capture.call("signInWithPassword", {"email": email, "password": "alice-password-1", "returnSecureToken": True})["idToken"]
    v2 = f"https://identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:%s?key={API_KEY}"
    started = requests.post(v2 % "start", json={"idToken": token, "phoneEnrollmentInfo": {"phoneNumber": "+15555550100"}}, headers=JS_HEADERS).json()
    session = started["phoneSessionInfo"]["sessionInfo"]
    texts = requests.get(f"{capture.base}/emulator/v1/projects/{PROJECT}/verificationCodes").json()["verificationCodes"]
    code = next(text["code"] for text in texts if text["sessionInfo"] == session)
    # The mistake: a code typed wrong first.
    requests.post(v2 % "finalize", json={"idToken": token, "phoneVerificationInfo": {"sessionInfo": session, "code": "000000" if code != "000000" else "111111"}}, headers=JS_HEADERS)
    requests.post(v2 % "finalize", json={"idToken": token, "phoneVerificationInfo": {"sessionInfo": session, "code": code}}, headers=JS_HEADERS)
    # The owner did not add it: the email's link takes it off, as the hosted page does.
    revert = capture.code("REVERT_SECOND_FACTOR_ADDITION", email)
    capture.call("update", {"oobCode": revert["oobCode"]})
    capture.call("signInWithPassword", {"email": email, "password": "alice-password-1", "returnSecureToken": True})


FLOWS = {
    "flow-pyrebase-emulator-password-reset": ("emulator", pyrebase_emulator_password_reset),
    "flow-pyrebase-production-verify-email": ("production", pyrebase_production_verify_email),
    "flow-emulator-email-link-sign-in": ("emulator", requests_emulator_email_link_sign_in),
    "flow-production-made-up-code": ("production", requests_production_made_up_code),
    "flow-emulator-change-email": ("emulator", requests_emulator_change_email),
    "flow-production-continue-urls": ("production", requests_production_continue_urls),
    "flow-chromium-emulator-verify-link": ("emulator", chromium_emulator_verify_link),
    "flow-chromium-production-hosted-reset": ("production", chromium_production_hosted_reset),
    "flow-production-email-change-recovery": ("production", requests_production_email_change_recovery),
    "flow-emulator-enumeration-and-check": ("emulator", requests_emulator_enumeration_and_check),
    "flow-production-revert-second-factor": ("production", requests_production_revert_second_factor),
}

if __name__ == "__main__":
    names = sys.argv[1:] or list(FLOWS)
    for name in names:
        behaviour, flow = FLOWS[name]
        with Capture(behaviour, os.path.join(HERE, name + ".har")) as capture:
            flow(capture)
