// The C interface between the REST transport and its HTTP engine, a library of its own
// (libActionFlowHTTPEngine.so) that the transport loads with dlopen on its first call, so that
// FoundationNetworking and libcurl are not loaded by every start of the program.
#ifndef ACTIONFLOW_HTTP_ENGINE_H
#define ACTIONFLOW_HTTP_ENGINE_H

#include <stdint.h>

/// Why an exchange got no HTTP reply.
typedef enum __attribute__((enum_extensibility(closed))) : int32_t {
    actionflow_http_answered = 0,
    actionflow_http_timed_out = 1,
    actionflow_http_connection_refused = 2,
    actionflow_http_dns_failure = 3,
    actionflow_http_tls_failure = 4,
    actionflow_http_connection_lost = 5,
    actionflow_http_not_http = 6,
    actionflow_http_other_failure = 7,
} actionflow_http_outcome;

/// Called once per exchange, on one of the engine's threads. `body` and `message` are valid
/// during the call only; `message` describes a failure (untrusted text: it may quote the URL).
typedef void (*actionflow_http_completion)(void *context, actionflow_http_outcome outcome, int32_t status,
                                           const uint8_t *body, intptr_t body_count, const char *message);

/// An ephemeral session (no cookies, no cache) whose own timeouts only backstop the caller's.
typedef void *(*actionflow_http_session_create_function)(double backstop_seconds);
typedef void (*actionflow_http_session_release_function)(void *session);

/// Starts one exchange. `headers`: "Name: value" lines separated by "\n". `body_count` < 0: no
/// body. Returns the running exchange (NULL when `completion` was already called), which the
/// caller may cancel and must release once `completion` has been called.
typedef void *(*actionflow_http_exchange_function)(void *session, const char *method, const char *url, const char *headers,
                                                   const uint8_t *body, intptr_t body_count, void *context,
                                                   actionflow_http_completion completion);
typedef void (*actionflow_http_exchange_cancel_function)(void *exchange);
typedef void (*actionflow_http_exchange_release_function)(void *exchange);

#endif
