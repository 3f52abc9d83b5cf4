"""Drives `actionflow serve` (production behaviour) with headless Chromium through Selenium, as
a user and a web app would: the hosted pages from a reset link (a weak, then a good password,
then Continue), a verification link, a used link, and `fetch` from a second loopback origin as
the JS SDK calls the REST API (CORS).

Usage: python browser_interop.py PORT CHROMIUM CHROMEDRIVER
Prints one JSON object of what the browser saw.
"""
import json
import sys
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def call(origin, operation, body):
    request = urllib.request.Request(
        f"{origin}/identitytoolkit.googleapis.com/v1/accounts:{operation}?key=fake-api-key",
        data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def newest_link(driver, origin):
    driver.get(f"{origin}/mailbox")
    return driver.find_element(By.LINK_TEXT, "open here").get_attribute("href")


def gone(element):
    """Selenium's staleness_of, also counting chromedriver's "does not belong to the document",
    which it raises instead of a stale reference when the check races the navigation."""
    def check(_driver):
        try:
            element.is_enabled()
            return False
        except StaleElementReferenceException:
            return True
        except WebDriverException as error:
            if "does not belong to the document" in str(error):
                return True
            raise
    return check


def submit_password(driver, password, navigates=True):
    """Submits the reset form and returns the text of the page it leads to. The old page's body
    is waited out first: read during the navigation, it would be the old text or go stale."""
    field = driver.find_element(By.NAME, "newPassword")
    field.clear()
    field.send_keys(password)
    old_body = driver.find_element(By.TAG_NAME, "body")
    driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    if navigates:
        WebDriverWait(driver, 10).until(gone(old_body))
    return driver.find_element(By.TAG_NAME, "body").text


def main() -> None:
    port, chromium, chromedriver = sys.argv[1:4]
    origin = f"http://127.0.0.1:{port}"
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
        options.add_argument(argument)
    options.binary_location = chromium
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    driver.set_page_load_timeout(30)
    report = {}
    try:
        call(origin, "sendOobCode", {"requestType": "PASSWORD_RESET", "email": "alice@example.com",
                                     "continueUrl": "https://www.example.com/checkout?cartId=1234"})
        reset_link = newest_link(driver, origin)
        driver.get(reset_link)
        report["resetForm"] = driver.find_element(By.TAG_NAME, "h1").text
        # The form's own check stops a short password in the browser...
        submit_password(driver, "12345", navigates=False)
        field = driver.find_element(By.NAME, "newPassword")
        report["weakBlocked"] = driver.execute_script("return arguments[0].validity.tooShort", field)
        # ...and without it, serve refuses it and asks again.
        driver.execute_script("arguments[0].removeAttribute('minlength')", field)
        report["weak"] = submit_password(driver, "12345")
        report["saved"] = submit_password(driver, "brand-new-pass")
        report["continueHref"] = driver.find_element(By.LINK_TEXT, "Continue").get_attribute("href")
        driver.get(reset_link)
        report["used"] = driver.find_element(By.TAG_NAME, "body").text

        bob = call(origin, "signInWithPassword", {"email": "bob@example.com", "password": "bob-password-1", "returnSecureToken": True})
        call(origin, "sendOobCode", {"requestType": "VERIFY_EMAIL", "idToken": bob["idToken"]})
        driver.get(newest_link(driver, origin))
        report["verified"] = driver.find_element(By.TAG_NAME, "h1").text

        # A page on another origin (localhost, not 127.0.0.1) calls the API as the JS SDK does:
        # JSON and X-Client-Version make the browser send a preflight first.
        driver.get(f"http://localhost:{port}/")
        report["fetch"] = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            fetch(arguments[0], {
                method: 'POST',
                headers: {'Content-Type': 'application/json', 'X-Client-Version': 'Chrome/JsCore/10.14.0/FirebaseCore-web'},
                body: JSON.stringify({email: 'alice@example.com', password: 'brand-new-pass', returnSecureToken: true}),
            }).then(r => r.json().then(j => done({status: r.status, email: j.email || null})))
              .catch(e => done({error: String(e)}));
        """, f"{origin}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key")
    finally:
        driver.quit()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
