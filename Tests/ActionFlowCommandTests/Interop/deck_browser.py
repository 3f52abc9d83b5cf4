"""Opens a deck written by `actionflow export --format html` in headless Chromium (Debian's
`chromium` and `chromium-driver`, through Selenium) straight from the file system, as a
reviewer would: reads the step list, pages through every step with the → key and back once
with ←, and prints the deck to PDF; every request the page made is recorded from Chromium's
own network log.

Usage: python deck_browser.py DECK.html CHROMIUM CHROMEDRIVER
Prints one JSON object of what the browser saw.
"""
import base64
import json
import pathlib
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def shown_step(driver):
    """The steps on screen: the title of each visible step section."""
    return [section.find_element(By.TAG_NAME, "h2").text
            for section in driver.find_elements(By.CSS_SELECTOR, "section.step") if section.is_displayed()]


def main() -> None:
    deck, chromium, chromedriver = sys.argv[1:4]
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
        options.add_argument(argument)
    options.binary_location = chromium
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    driver.set_page_load_timeout(30)
    report = {}
    try:
        url = pathlib.Path(deck).resolve().as_uri()
        driver.get(url)
        report["listed"] = [link.text for link in driver.find_elements(By.CSS_SELECTOR, "#step-list a")]
        body = driver.find_element(By.TAG_NAME, "body")
        pages = [shown_step(driver)]
        for _ in range(len(report["listed"])):
            body.send_keys(Keys.ARROW_RIGHT)
            pages.append(shown_step(driver))
        body.send_keys(Keys.ARROW_LEFT)
        pages.append(shown_step(driver))
        report["pages"] = pages
        # A step from the list.
        driver.find_element(By.CSS_SELECTOR, "#step-list a[href='#step-2']").click()
        report["fromList"] = shown_step(driver)
        report["screenText"] = driver.find_element(By.CSS_SELECTOR, "section.step.current svg").text
        pdf = base64.b64decode(driver.execute_cdp_cmd("Page.printToPDF", {})["data"])
        report["printedPages"] = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
        requests = []
        for entry in driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] == "Network.requestWillBeSent":
                requests.append(message["params"]["request"]["url"])
        report["requests"] = requests
        report["deckURL"] = url
    finally:
        driver.quit()
    json.dump(report, sys.stdout, ensure_ascii=False)


main()
