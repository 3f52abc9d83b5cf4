"""Drives `actionflow serve` with the official firebase-admin SDK, as a real backend would.

Usage: FIREBASE_AUTH_EMULATOR_HOST=HOST:PORT python admin_interop.py PROJECT_ID EMAIL PASSWORD
Prints one JSON object: the user as looked up, and the links the SDK generated.
"""
import json
import sys

import firebase_admin
from firebase_admin import auth


def main() -> None:
    project_id, email, password = sys.argv[1:4]
    firebase_admin.initialize_app(options={"projectId": project_id})

    created = auth.create_user(email=email, password=password, display_name="Interop User")

    # Reset handled in the app: a mobile link around the action URL.
    reset_settings = auth.ActionCodeSettings(
        url="https://www.example.com/checkout?cartId=1234",
        handle_code_in_app=True,
        ios_bundle_id="com.example.ios",
        android_package_name="com.example.android",
        android_install_app=True,
        android_minimum_version="12",
        link_domain="links.example.com",
    )
    reset_link = auth.generate_password_reset_link(email, reset_settings)

    # Verification handled by the web widget first, whose Continue goes back to the app.
    verify_settings = auth.ActionCodeSettings(
        url="https://www.example.com/newsletter",
        handle_code_in_app=False,
        ios_bundle_id="com.example.ios",
        android_package_name="com.example.android",
        android_install_app=False,
        android_minimum_version="11",
    )
    verify_link = auth.generate_email_verification_link(email, verify_settings)

    by_uid = auth.get_user(created.uid)
    by_email = auth.get_user_by_email(email)
    # list_users pages through accounts:batchGet, two at a time here.
    listed = [user.uid for user in auth.list_users(max_results=2).iterate_all()]

    # Refusals, as the SDK classifies serve's error envelopes.
    refusals = {}
    for name, settings in {
        "unauthorizedContinueUrl": auth.ActionCodeSettings(url="https://evil.example.net/"),
        "invalidLinkDomain": auth.ActionCodeSettings(url="https://www.example.com/", link_domain="links.evil.example.net"),
    }.items():
        try:
            auth.generate_password_reset_link(email, settings)
            refusals[name] = "accepted"
        except firebase_admin.exceptions.FirebaseError as error:
            refusals[name] = f"{type(error).__name__}: {error}"
    # Production answers USER_NOT_FOUND for a verification link to an unknown address (PR #550).
    try:
        auth.generate_email_verification_link("nobody@example.com")
        refusals["unknownUser"] = "accepted"
    except firebase_admin.exceptions.FirebaseError as error:
        refusals["unknownUser"] = type(error).__name__

    print(json.dumps({
        "uid": created.uid,
        "lookupByUid": {"email": by_uid.email, "displayName": by_uid.display_name, "emailVerified": by_uid.email_verified},
        "lookupByEmailUid": by_email.uid,
        "listed": listed,
        "resetLink": reset_link,
        "verifyLink": verify_link,
        "refusals": refusals,
    }))


if __name__ == "__main__":
    main()
