import Foundation

/// `GET /emulator/openapi.json`: an OpenAPI 3 document of the routes this server answers,
/// written from `ServedRoute.all` (the router's own table), with the emulator's security schemes
/// (`apiSpec.ts` `components.securitySchemes`) and this server as the server, as the emulator
/// points its own document at itself (`server.ts:66-106`).
enum OpenAPIDocument {
    /// `origin`: this server as the client reached it; `actionHandlerPath`: the web pages' path.
    static func make(origin: String?, actionHandlerPath: String?) -> [String: Any] {
        var routes = ServedRoute.all
        if let actionHandlerPath {
            routes.append(ServedRoute("GET", actionHandlerPath, "actionflow.actionHandlerPage", "The web email action handler: reset form, verification, sign-in, Continue.", .open, .actionHandlerPage, isExtension: true))
        }
        var paths: [String: [String: Any]] = [:]
        for route in routes {
            paths[route.path, default: [:]][route.method.lowercased()] = operation(route)
        }
        return [
            "openapi": "3.0.3",
            "info": [
                "title": "actionflow serve",
                "version": "1",
                "description": "The Firebase Auth Emulator's surface over simulated projects. Operations tagged actionflow are this server's own.",
            ],
            "servers": [["url": origin ?? "/"]],
            "tags": [["name": "emulator", "description": "As firebase-tools' Auth Emulator answers."], ["name": "actionflow", "description": "This server's own."]],
            "paths": paths,
            "components": [
                "securitySchemes": [
                    "apiKeyQuery": ["type": "apiKey", "in": "query", "name": "key"],
                    "apiKeyHeader": ["type": "apiKey", "in": "header", "name": "x-goog-api-key"],
                    "Oauth2": ["type": "http", "scheme": "bearer", "description": "`Bearer owner`, or a Google service-account token (`ya29.`…): an admin."],
                ],
                "schemas": [
                    "Error": [
                        "type": "object",
                        "properties": ["error": ["type": "object", "properties": [
                            "code": ["type": "integer"], "message": ["type": "string"], "status": ["type": "string"],
                            "errors": ["type": "array", "items": ["type": "object"]],
                        ]]],
                    ],
                ],
            ],
        ]
    }

    private static func operation(_ route: ServedRoute) -> [String: Any] {
        var operation: [String: Any] = [
            "operationId": route.operationId,
            "summary": route.summary,
            "tags": [route.isExtension ? "actionflow" : "emulator"],
            "security": security(route.security),
            "responses": [
                "200": ["description": "Success."],
                "default": ["description": "An error in the emulator's shape.", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Error"]]]],
            ],
        ]
        let parameters = route.segments.compactMap { segment -> [String: Any]? in
            guard case .parameter(let name, _) = segment else { return nil }
            return ["name": name, "in": "path", "required": true, "schema": ["type": "string"]]
        }
        if !parameters.isEmpty { operation["parameters"] = parameters }
        if ["POST", "PATCH", "PUT"].contains(route.method) {
            operation["requestBody"] = ["required": false, "content": ["application/json": ["schema": ["type": "object"]]]]
        }
        return operation
    }

    private static func security(_ security: RouteSecurity) -> [[String: [String]]] {
        switch security {
        case .apiKeyOrAdmin: [["Oauth2": []], ["apiKeyQuery": []], ["apiKeyHeader": []]]
        case .admin: [["Oauth2": []]]
        case .open: []
        }
    }
}
