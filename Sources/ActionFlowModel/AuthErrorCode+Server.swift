// Further server codes the simulated project raises (Identity Toolkit / Auth Emulator names).
extension AuthErrorCode {
    public static let invalidRequestType = AuthErrorCode("INVALID_REQ_TYPE")
    public static let missingIDToken = AuthErrorCode("MISSING_ID_TOKEN")
    public static let missingNewEmail = AuthErrorCode("MISSING_NEW_EMAIL")
    public static let invalidNewEmail = AuthErrorCode("INVALID_NEW_EMAIL")
    public static let missingLocalID = AuthErrorCode("MISSING_LOCAL_ID")
}
