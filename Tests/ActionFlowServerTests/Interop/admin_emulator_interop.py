"""Drives `actionflow serve --as emulator` with the official firebase-admin SDK and plain HTTP,
as a backend and an app would against the Auth Emulator.

Usage: FIREBASE_AUTH_EMULATOR_HOST=HOST:PORT python admin_emulator_interop.py PROJECT_ID EMAIL PASSWORD
Prints one JSON object: what the SDK read back and the links it generated.
"""
import json
import os
import sys
import time
import urllib.request

import firebase_admin
from firebase_admin import auth


def client_call(operation, body):
    host = os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
    request = urllib.request.Request(
        f"http://{host}/identitytoolkit.googleapis.com/v1/accounts:{operation}?key=fake-api-key",
        data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def main() -> None:
    project_id, email, password = sys.argv[1:4]
    firebase_admin.initialize_app(options={"projectId": project_id})

    created = auth.create_user(email=email, password=password, display_name="Interop User")
    reset_link = auth.generate_password_reset_link(email, auth.ActionCodeSettings(url="https://app.test/after-reset"))
    verify_link = auth.generate_email_verification_link(email)

    # An app signs in; the backend verifies its ID token against the emulator, revocation included.
    signed_in = client_call("signInWithPassword", {"email": email, "password": password, "returnSecureToken": True})
    claims = auth.verify_id_token(signed_in["idToken"], check_revoked=True)

    time.sleep(1.1)
    auth.revoke_refresh_tokens(created.uid)
    try:
        auth.verify_id_token(signed_in["idToken"], check_revoked=True)
        revoked = "accepted"
    except auth.RevokedIdTokenError as error:
        revoked = type(error).__name__

    refusals = {}
    try:
        auth.generate_email_verification_link("nobody@example.com")
        refusals["unknownUser"] = "accepted"
    except firebase_admin.exceptions.FirebaseError as error:
        refusals["unknownUser"] = type(error).__name__

    by_email = auth.get_user_by_email(email.upper())
    # list_users pages through accounts:batchGet, two at a time here.
    listed = [user.uid for user in auth.list_users(max_results=2).iterate_all()]
    auth.delete_user(created.uid)
    try:
        auth.get_user(created.uid)
        deleted = "still there"
    except auth.UserNotFoundError as error:
        deleted = type(error).__name__

    print(json.dumps({
        "uid": created.uid,
        "resetLink": reset_link,
        "verifyLink": verify_link,
        "claims": {"uid": claims["uid"], "email": claims.get("email"), "provider": claims["firebase"]["sign_in_provider"]},
        "revoked": revoked,
        "refusals": refusals,
        "lookupByEmailUid": by_email.uid,
        "listed": listed,
        "deleted": deleted,
    }))


if __name__ == "__main__":
    main()
