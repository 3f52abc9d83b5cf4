#!/bin/sh
# Records serve-production-browser.har: headless Chromium, driven by Selenium, making the calls a
# web app's Firebase JS SDK makes against `actionflow-serve serve --as production` as its Auth
# Emulator, through mitmproxy's mitmdump in reverse-proxy mode writing HAR
# (`--set hardump=FILE`). The page is served from another origin, so the browser sends CORS
# preflights as it does for a real web app. Run from the package root after `swift build`, with
# mitmdump on PATH (or MITMDUMP=...) and Selenium in PYTHON (.ci/run makes .build/browser-venv).
#
# The request shapes are the JS SDK's (firebase-js-sdk, packages/auth/src):
# - api/index.ts:40-47 and _performApiRequest (:120-156): POST with a JSON body, the API key as
#   ?key=, Content-Type application/json, X-Firebase-Locale when the app sets a language,
#   X-Client-Version, and the fetch made with referrerPolicy 'no-referrer';
# - core/credentials/email.ts (_getIdTokenResponse): signInWithPassword sends
#   returnSecureToken and clientType CLIENT_TYPE_WEB;
# - api/authentication/token.ts: the token refresh is a form body to securetoken's /v1/token.
set -eu
out=${1:-Tests/ActionFlowCommandTests/Fixtures/Captures/serve-production-browser.har}
mitmdump=${MITMDUMP:-mitmdump}
python=${PYTHON:-.build/browser-venv/bin/python}
bin=$(swift build --show-bin-path)
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
serve_port=$(free_port)
proxy_port=$(free_port)
page_port=$(free_port)
page_dir=$(mktemp -d)
"$bin/actionflow-serve" serve --as production --host 127.0.0.1 --port "$serve_port" --quiet &
serve_pid=$!
"$mitmdump" -q --mode "reverse:http://127.0.0.1:$serve_port" --listen-host 127.0.0.1 --listen-port "$proxy_port" --set hardump="$out" &
proxy_pid=$!
python3 -m http.server "$page_port" --bind 127.0.0.1 --directory "$page_dir" >/dev/null 2>&1 &
page_pid=$!
trap 'kill $proxy_pid $serve_pid $page_pid 2>/dev/null || true; rm -rf "$page_dir"' EXIT
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$proxy_port/" && curl -s -o /dev/null "http://127.0.0.1:$page_port/" && break; sleep 0.2; done

cat > "$page_dir/index.html" <<HTML
<!doctype html>
<title>web app</title>
<script>
const emulator = "http://127.0.0.1:$proxy_port";
const key = "fake-api-key-demo-actionflow";
const headers = {"Content-Type": "application/json", "X-Client-Version": "Chrome/JsCore/11.0.2/FirebaseCore-web", "X-Firebase-Locale": "fr"};
async function call(path, body, extra) {
  const response = await fetch(emulator + "/identitytoolkit.googleapis.com" + path + "?key=" + key,
    {method: "POST", headers: Object.assign({}, headers, extra || {}), body: JSON.stringify(body), referrerPolicy: "no-referrer"});
  return [response.status, await response.json()];
}
async function flow() {
  const log = [];
  const email = "web@example.com";
  const [, signUp] = await call("/v1/accounts:signUp", {returnSecureToken: true, email, password: "first-secret-1", clientType: "CLIENT_TYPE_WEB"});
  log.push(await call("/v1/accounts:signInWithPassword", {returnSecureToken: true, email, password: "wrong-password", clientType: "CLIENT_TYPE_WEB"}));
  log.push(await call("/v1/accounts:sendOobCode", {requestType: "VERIFY_EMAIL", idToken: signUp.idToken, continueUrl: "https://www.example.com/welcome?from=web"}));
  log.push(await call("/v1/accounts:sendOobCode", {requestType: "PASSWORD_RESET", email, continueUrl: "https://app.example.net/after-reset", clientType: "CLIENT_TYPE_WEB"}));
  log.push(await call("/v1/accounts:sendOobCode", {requestType: "PASSWORD_RESET", email, continueUrl: "https://www.example.com/account?tab=security", canHandleCodeInApp: false, clientType: "CLIENT_TYPE_WEB"}));
  log.push(await call("/v1/accounts:sendOobCode", {requestType: "EMAIL_SIGNIN", email: "link@example.com", continueUrl: "https://www.example.com/finish", canHandleCodeInApp: true, clientType: "CLIENT_TYPE_WEB"}));
  const listing = await (await fetch(emulator + "/emulator/v1/projects/demo-actionflow/oobCodes")).json();
  const reset = listing.oobCodes.filter(code => code.requestType === "PASSWORD_RESET").pop();
  log.push(await call("/v1/accounts:resetPassword", {oobCode: reset.oobCode}));
  log.push(await call("/v1/accounts:resetPassword", {oobCode: reset.oobCode, newPassword: "second-secret-2"}));
  log.push(await call("/v1/accounts:resetPassword", {oobCode: reset.oobCode, newPassword: "third-secret-3"}));
  const [, signIn] = await call("/v1/accounts:signInWithPassword", {returnSecureToken: true, email, password: "second-secret-2", clientType: "CLIENT_TYPE_WEB"});
  const token = await fetch(emulator + "/securetoken.googleapis.com/v1/token?key=" + key,
    {method: "POST", headers: {"Content-Type": "application/x-www-form-urlencoded", "X-Client-Version": headers["X-Client-Version"]},
     body: "grant_type=refresh_token&refresh_token=" + encodeURIComponent(signIn.refreshToken), referrerPolicy: "no-referrer"});
  log.push([token.status]);
  document.title = "done " + JSON.stringify(log.map(entry => entry[0]));
}
flow().catch(error => { document.title = "failed " + error; });
</script>
HTML

"$python" - "$page_port" <<'PY'
import sys, time
from selenium import webdriver
options = webdriver.ChromeOptions()
for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
    options.add_argument(argument)
driver = webdriver.Chrome(options=options)
try:
    driver.get(f"http://127.0.0.1:{sys.argv[1]}/index.html")
    deadline = time.time() + 30
    while time.time() < deadline and not driver.title.startswith(("done", "failed")):
        time.sleep(0.2)
    print(driver.title)
    if not driver.title.startswith("done"):
        sys.exit(1)
finally:
    driver.quit()
PY

kill $proxy_pid
wait $proxy_pid 2>/dev/null || true
echo "wrote $out"
