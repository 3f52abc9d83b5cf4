#!/bin/sh
# Records serve-emulator.har: real traffic between real clients (the REST transport of
# `actionflow run`, curl) and `actionflow-serve serve --as emulator`, through mitmproxy's mitmdump
# in reverse-proxy mode writing HAR (`--set hardump=FILE`), keeping the Host header so that the
# emulator's links point through the proxy. Run from the package root after
# `swift build`, with mitmdump on PATH (or MITMDUMP=/path/to/mitmdump).
set -eu
out=${1:-Tests/ActionFlowCommandTests/Fixtures/Captures/serve-emulator.har}
mitmdump=${MITMDUMP:-mitmdump}
bin=$(swift build --show-bin-path)
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
serve_port=$(free_port)
proxy_port=$(free_port)
"$bin/actionflow-serve" serve --as emulator --host 127.0.0.1 --port "$serve_port" --quiet &
serve_pid=$!
"$mitmdump" -q --mode "reverse:http://127.0.0.1:$serve_port" --listen-host 127.0.0.1 --listen-port "$proxy_port" --set keep_host_header=true --set hardump="$out" &
proxy_pid=$!
trap 'kill $proxy_pid $serve_pid 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$proxy_port/" && break; sleep 0.2; done

base="http://127.0.0.1:$proxy_port"
v1="$base/identitytoolkit.googleapis.com/v1"
v3="$base/www.googleapis.com/identitytoolkit/v3/relyingparty"
key="key=fake-api-key"
json() { curl -s -o /dev/null -H 'Content-Type: application/json' --data "$2" "$1"; }

# Unrelated traffic and a CORS preflight, kept out of the flow.
curl -s -o /dev/null "$base/"
curl -s -o /dev/null -X OPTIONS -H 'Origin: http://localhost:5173' -H 'Access-Control-Request-Method: POST' \
    -H 'Access-Control-Request-Headers: content-type' "$v1/accounts:sendOobCode?$key"
# iOS SDK shape: the v3 names.
json "$v3/signupNewUser?$key" '{"email":"ios@example.com","password":"secret-123","returnSecureToken":true}'
json "$v3/verifyPassword?$key" '{"email":"ios@example.com","password":"wrong-password","returnSecureToken":true}'
# An address with no account: the emulator says so (EMAIL_NOT_FOUND), which enumerates accounts.
json "$v3/verifyPassword?$key" '{"email":"nobody@example.com","password":"any-password","returnSecureToken":true}'
json "$v3/getOobConfirmationCode?$key" '{"requestType":"PASSWORD_RESET","email":"ios@example.com","continueUrl":"https://evil.example/after-reset","iOSBundleId":"com.example.ios","canHandleCodeInApp":true}'
# Android SDK shape: snake_case keys and the integer request type (6 = EMAIL_SIGNIN).
json "$v1/accounts:sendOobCode?$key" '{"request_type":6,"email":"android@example.com","continue_url":"https://www.example.com/finish","android_package_name":"com.example.android","android_install_app":true,"android_minimum_version":"12","can_handle_code_in_app":true}'
# A form body.
curl -s -o /dev/null --data-urlencode requestType=PASSWORD_RESET --data-urlencode email=ios@example.com \
    --data-urlencode continueUrl=https://www.example.com/reset "$v1/accounts:sendOobCode?$key"
# The emulator's listing of the codes sent, then one link opened.
listing=$(curl -s "$base/emulator/v1/projects/demo-actionflow/oobCodes")
link=$(printf '%s' "$listing" | python3 -c 'import json, sys; print(json.load(sys.stdin)["oobCodes"][0]["oobLink"])')
curl -s -o /dev/null "$link"
# Story 1 from the REST transport, up to where it stops: the emulator's link opens the web
# widget, not the app.
"$bin/actionflow" run password-reset-in-app --transport rest --emulator "127.0.0.1:$proxy_port" --quiet >/dev/null 2>&1 || true

kill $proxy_pid
wait $proxy_pid 2>/dev/null || true
echo "wrote $out"
