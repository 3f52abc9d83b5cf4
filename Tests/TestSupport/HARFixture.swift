import Foundation

/// HAR 1.2 captures made in tests: one Identity Toolkit v1 POST per call.
public enum HARFixture {
    /// A capture of these calls: (method, request body, status, response body), a second apart.
    public static func calls(_ calls: [(String, String, Int, String)]) -> Data {
        let entries = calls.enumerated().map { index, call in
            [
                "startedDateTime": "2026-11-27T10:00:0\(index).000Z",
                "request": ["method": "POST", "url": "https://identitytoolkit.googleapis.com/v1/accounts:" + call.0 + "?key=AIzaTest",
                            "headers": [["name": "Content-Type", "value": "application/json"]], "postData": ["mimeType": "application/json", "text": call.1]],
                "response": ["status": call.2, "headers": [], "content": ["mimeType": "application/json", "text": call.3]],
            ] as [String: Any]
        }
        return try! JSONSerialization.data(withJSONObject: ["log": ["version": "1.2", "entries": entries]])
    }
}
