/// The scenarios the project promises to ship (docs/file-formats.md, "Shipped scenarios").
public let requiredScenarioNames = [
    "password-reset-in-app", "password-reset-web-widget",
    "verify-email-in-app", "verify-email-web-widget",
    "email-link-sign-in", "android-app-missing-install", "android-app-too-old",
    "ios-webmail-in-app-browser", "mail-scanner-consumes-code", "expired-link",
    "unauthorized-continue-domain", "legacy-dynamic-links",
    "cross-device-email-link-sign-in-on-laptop", "revert-second-factor",
]
