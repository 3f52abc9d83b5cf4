"""pyrebase4 and firebase-rest-api (both from PyPI) against `actionflow serve`.

Neither library knows the Auth Emulator: both call Google's hosts over HTTPS. A transport
adapter sends those calls to serve as the emulator takes them (http://HOST:PORT/<google host>/
<path>), unchanged otherwise, so the libraries' own requests (legacy v3 names, v1 accounts:update,
securetoken) reach it as they are. Each library runs the same email flows; the report says what
each step returned, for the test to compare with what the behaviour promises.

Usage: rest_clients_interop.py HOST:PORT PROJECT_ID API_KEY
"""
import json
import sys
import urllib.parse

import requests
import requests.adapters

GOOGLE_HOSTS = {"www.googleapis.com", "identitytoolkit.googleapis.com", "securetoken.googleapis.com"}


def route_to(emulator):
    original_send = requests.adapters.HTTPAdapter.send

    def send(self, request, **kwargs):
        parts = urllib.parse.urlsplit(request.url)
        if parts.hostname in GOOGLE_HOSTS:
            query = f"?{parts.query}" if parts.query else ""
            request.url = f"http://{emulator}/{parts.hostname}{parts.path}{query}"
        return original_send(self, request, **kwargs)

    requests.adapters.HTTPAdapter.send = send


def error_of(error):
    """The server's error message from a library's HTTPError (which carries the body)."""
    for argument in getattr(error, "args", ()):
        try:
            return json.loads(argument)["error"]["message"]
        except (TypeError, ValueError, KeyError):
            continue
    return f"{type(error).__name__}: {error}"


def run_flows(auth, emulator, project_id, api_key, email):
    report = {}

    def step(name, action):
        try:
            report[name] = {"ok": action()}
        except Exception as error:  # the library's own errors, as an app would meet them
            report[name] = {"error": error_of(error)}
        return report[name].get("ok")

    def pending_code(kind, address):
        listed = requests.get(f"http://{emulator}/emulator/v1/projects/{project_id}/oobCodes").json()["oobCodes"]
        return next(entry["oobCode"] for entry in reversed(listed) if entry["requestType"] == kind and entry["email"] == address)

    def apply_code(code):
        # What an app does with the code from the link: the library has no call for it.
        url = f"https://identitytoolkit.googleapis.com/v1/accounts:update?key={api_key}"
        answer = requests.post(url, json={"oobCode": code})
        answer.raise_for_status()
        return answer.json().get("email")

    created = step("createUser", lambda: auth.create_user_with_email_and_password(email, "first-password")["email"])
    if created is None:
        return report
    user = auth.sign_in_with_email_and_password(email, "first-password")
    step("signIn", lambda: user["email"])
    step("accountInfo", lambda: auth.get_account_info(user["idToken"])["users"][0]["email"])
    step("sendVerification", lambda: auth.send_email_verification(user["idToken"])["email"])
    step("applyVerification", lambda: apply_code(pending_code("VERIFY_EMAIL", email)))
    step("verified", lambda: auth.get_account_info(user["idToken"])["users"][0]["emailVerified"])
    step("sendReset", lambda: auth.send_password_reset_email(email)["email"])
    step("confirmReset", lambda: auth.verify_password_reset_code(pending_code("PASSWORD_RESET", email), "second-password")["email"])
    step("signInAfterReset", lambda: auth.sign_in_with_email_and_password(email, "second-password")["email"])
    user = auth.sign_in_with_email_and_password(email, "second-password")
    step("refresh", lambda: bool(auth.refresh(user["refreshToken"])["idToken"]))
    # Both libraries send displayName, photoURL and deleteAttribute, null when not given.
    step("updateProfile", lambda: auth.update_profile(user["idToken"], display_name="Py User")["displayName"])
    step("changePassword", lambda: bool(auth.change_password(user["idToken"], "third-password")["idToken"]))
    step("signInAfterChange", lambda: auth.sign_in_with_email_and_password(email, "third-password")["email"])
    step("anonymous", lambda: bool(auth.sign_in_anonymous()["idToken"]))
    step("customToken", lambda: auth.sign_in_with_custom_token("not-a-token"))
    user = auth.sign_in_with_email_and_password(email, "third-password")
    step("delete", lambda: auth.delete_user_account(user["idToken"]).get("kind"))
    step("signInAfterDelete", lambda: auth.sign_in_with_email_and_password(email, "third-password")["email"])
    return report


def main():
    emulator, project_id, api_key = sys.argv[1:4]
    route_to(emulator)
    config = {
        "apiKey": api_key,
        "authDomain": f"{project_id}.firebaseapp.com",
        "databaseURL": f"https://{project_id}.firebaseio.com",
        "projectId": project_id,
        "storageBucket": f"{project_id}.appspot.com",
    }
    import firebase
    import pyrebase

    reports = {
        "pyrebase4": run_flows(pyrebase.initialize_app(config).auth(), emulator, project_id, api_key, "pyrebase@example.com"),
        "firebase-rest-api": run_flows(firebase.initialize_app(config).auth(), emulator, project_id, api_key, "firebase-rest@example.com"),
    }
    print(json.dumps(reports))


if __name__ == "__main__":
    main()
