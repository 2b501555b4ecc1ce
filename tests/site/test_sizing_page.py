"""The sizing page at `/`, driven in headless Chromium against a live server, as a customer uses it."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from decimal import Decimal

import pytest

DESKTOP = 1280
PHONE = 375


# ------------------------------------------------------------------------------ helpers

def by_id(driver, element_id):
    from selenium.webdriver.common.by import By
    return driver.find_element(By.ID, element_id)


def css(driver, selector):
    from selenium.webdriver.common.by import By
    return driver.find_elements(By.CSS_SELECTOR, selector)


def wait(driver, condition, timeout=60, message=""):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(condition, message)


def set_width(driver, width: int, height: int = 900) -> None:
    """The page's viewport at exactly `width` CSS pixels (a phone is also a touch, mobile screen)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def screenshot(driver, path, width: int) -> None:
    """The whole page, not just the viewport."""
    height = driver.execute_script(
        "return Math.max(document.documentElement.scrollHeight, document.body.scrollHeight)")
    set_width(driver, width, min(int(height), 20000))
    driver.save_screenshot(str(path))
    set_width(driver, width)


def open_page(driver, server, width=DESKTOP):
    set_width(driver, width)
    driver.get(server["url"] + "/")
    wait(driver, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"),
         timeout=30, message="the form did not load its presets, GPUs and regions")


def fill(driver, element_id, value):
    field = by_id(driver, element_id)
    field.clear()
    field.send_keys(value)


def choose(driver, name, value):
    css(driver, f'input[name="{name}"][value="{value}"]')[0].click()


def select(driver, element_id, value):
    from selenium.webdriver.support.ui import Select
    Select(by_id(driver, element_id)).select_by_value(value)


def no_horizontal_scroll(driver) -> bool:
    return driver.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth")


def focused_id(driver) -> str:
    return driver.execute_script("return document.activeElement && document.activeElement.id")


def api_get(server, path, key=None):
    """A GET as the sales team makes it, with the secret key of the page's account."""
    request = urllib.request.Request(server["url"] + path,
                                     headers={"Authorization": f"Bearer {key or server['sales_key']}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def fill_small_sizing(driver):
    select(driver, "preset", "llama-3-8b")
    fill(driver, "tokens", "1e11")
    fill(driver, "nodes_min", "1")
    fill(driver, "nodes_max", "8")


def submit_and_wait_for_results(driver):
    by_id(driver, "submit").click()
    wait(driver, lambda d: by_id(d, "results").is_displayed() and focused_id(d) == "results-title",
         timeout=120, message="no results, or focus not moved to the results heading")


def rendered_problem(driver) -> str:
    """What the page shows when something went wrong, for a useful failure message."""
    return driver.execute_script(
        "return ['error-summary','run-error','load-error'].map(function(id){"
        "var n=document.getElementById(id); return n && !n.hidden ? n.innerText : ''}).join(' ')")


# ------------------------------------------------------------------------------ tests

def test_size_a_cluster_and_request_a_quote(live_server, browser, artifacts):
    driver = browser
    open_page(driver, live_server)
    assert driver.title == "Size a GPU cluster"
    presets = css(driver, "#preset option")
    assert len(presets) > 5 and "llama-3-8b" in [o.get_attribute("value") for o in presets]
    assert len(css(driver, 'input[name="gpu_models"]')) >= 5

    fill_small_sizing(driver)
    css(driver, 'input[name="gpu_models"][value="h100-sxm"]')[0].click()
    css(driver, 'input[name="gpu_models"][value="a100-80gb-sxm"]')[0].click()
    select(driver, "region", "eu-central")
    select(driver, "currency", "EUR")
    select(driver, "term", "1y")
    choose(driver, "objective", "fastest")
    screenshot(driver, artifacts / "01-form-desktop.png", DESKTOP)

    from selenium.common.exceptions import TimeoutException
    try:
        submit_and_wait_for_results(driver)
    except TimeoutException:
        pytest.fail(f"the sizing did not finish on the page: {rendered_problem(driver)}")
    screenshot(driver, artifacts / "02-results-desktop.png", DESKTOP)

    # The table: ranked rows with the questionnaire's currency and GPUs.
    rows = css(driver, "#config-rows tr.config-row")
    assert rows, "no configuration rows"
    assert [r.get_attribute("data-rank") for r in rows] == [str(i) for i in range(1, len(rows) + 1)]
    first = rows[0]
    assert "(EUR)" in by_id(driver, "config-table").find_element("css selector", "thead").text
    assert re.fullmatch(r"[\d,]+\.\d\d", first.find_element("css selector", ".price-monthly").text)
    assert re.fullmatch(r"\d+\.\d\d", first.find_element("css selector", ".price-gpu-hour").text)
    # The point, and under it the model's p10-p90 (an extrapolated configuration says so).
    rate, spread = first.find_element("css selector", ".throughput").text.splitlines()
    assert re.fullmatch(r"[\d,]+ tokens/s", rate)
    assert re.fullmatch(r"p10–p90 [\d,]+ – [\d,]+( \(extrapolated: .*\))?", spread)
    assert re.search(r"\d+ (in stock|now, \d+ by \d{4}-\d\d-\d\d)",
                     first.find_element("css selector", ".stock").text)
    assert "of one node, per GPU" in first.find_element("css selector", ".efficiency").text
    assert re.search(r"\d+(\.\d)?%", first.find_element("css selector", ".efficiency").text)
    assert any(gpu in first.text for gpu in ("h100-sxm", "a100-80gb-sxm"))
    assert "Ruled out:" in by_id(driver, "results-excluded").text
    assert css(driver, "#results-notes li"), "the result's notes are missing"

    # A row expands with a real button to its breakdown, bottleneck and network advice.
    toggle = first.find_element("css selector", "button.details-toggle")
    assert toggle.get_attribute("aria-expanded") == "false"
    details = by_id(driver, toggle.get_attribute("aria-controls"))
    assert not details.is_displayed()
    toggle.send_keys("\n")  # keyboard: Enter on the focused button
    assert toggle.get_attribute("aria-expanded") == "true"
    assert details.is_displayed()
    assert "Compute" in details.text and "Bottleneck" in details.text
    assert details.find_element("css selector", ".bottleneck").text.strip()
    assert "Network advice" in details.text
    screenshot(driver, artifacts / "03-details-desktop.png", DESKTOP)

    # The chart: one line per fabric, axis labels, legend, and the data as a hidden table.
    chart = by_id(driver, "chart")
    series = chart.find_elements("css selector", "g.series")
    assert len(series) >= 2
    svg_text = chart.text + driver.execute_script(
        "return document.querySelector('#chart svg').textContent")
    assert "Nodes (log-2 scale)" in svg_text and "Scaling efficiency (%)" in svg_text
    dashes = {s.find_element("css selector", "path").get_attribute("stroke-dasharray") for s in series}
    assert len(dashes) == len(series), "each fabric needs its own dash pattern"
    assert len(css(driver, "#chart-legend .legend li")) == len(series)
    assert len(css(driver, "#chart-data tbody tr")) >= len(series)
    assert len(css(driver, "#chart .end-labels text")) == len(series)
    assert by_id(driver, "advice-body").text.startswith("Recommended for")

    # A quote for rank 1: a double click still makes one quote (one Idempotency-Key per request).
    first.find_element("css selector", "button.quote-button").click()
    wait(driver, lambda d: focused_id(d) == "quote-title", message="focus not on the quote form")
    fill(driver, "customer_name", "Ada Lovelace")
    fill(driver, "customer_email", "ada@example.com")
    fill(driver, "customer_company", "Analytical Engines GmbH")
    fill(driver, "customer_country", "de")
    screenshot(driver, artifacts / "04-quote-form-desktop.png", DESKTOP)
    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(driver).double_click(by_id(driver, "quote-submit")).perform()
    wait(driver, lambda d: focused_id(d) == "quote-number", message="no quote shown")
    wait(driver, lambda d: css(d, "#quote-document"), message="no printable link")
    screenshot(driver, artifacts / "05-quote-desktop.png", DESKTOP)

    quotes = api_get(live_server, "/v1/quotes")["items"]
    assert len(quotes) == 1, "a double click made more than one quote"
    quote = quotes[0]
    assert quote["origin"] == "page"
    # The page's own key lists nothing; the secrets that read its objects stay in this tab.
    with pytest.raises(urllib.error.HTTPError) as refused:
        api_get(live_server, "/v1/quotes", key=live_server["key"])
    assert refused.value.code == 403
    kept = json.loads(driver.execute_script(
        "return sessionStorage.getItem('gpu-sizing.client-secrets')"))
    assert kept[f"quote:{quote['id']}"].startswith("cs_")
    assert kept[f"sizing:{quote['sizing_id']}"].startswith("cs_")
    assert re.fullmatch(r"Q-\d{4}-\d{6}", quote["number"])
    result_text = by_id(driver, "quote-result").text
    assert quote["number"] in by_id(driver, "quote-number").text
    assert quote["currency"] == "EUR" and quote["term"] == "1y"
    assert quote["customer"]["country"] == "DE"
    grand = by_id(driver, "quote-result").find_element("css selector", "td.grand-total").text
    assert grand == f"{Decimal(quote['totals']['grand_total']):,} EUR"
    assert quote["valid_until"] in result_text
    for line in quote["lines"]:
        assert line["description"] in result_text
    assert "VAT 19% (DE)" in result_text
    sizing = api_get(live_server, f"/v1/sizings/{quote['sizing_id']}")["result"]
    assert quote["totals"]["term_net"] == sizing["configurations"][0]["price"]["total"]

    # The printable version is fetched with the key and opened from a Blob URL.
    link = by_id(driver, "quote-document")
    assert link.get_attribute("href").startswith("blob:")
    link.click()
    wait(driver, lambda d: len(d.window_handles) == 2, message="the printable quote did not open")
    driver.switch_to.window(driver.window_handles[1])
    wait(driver, lambda d: quote["number"] in d.find_element("tag name", "body").text,
         message="the printable quote does not show its number")
    driver.save_screenshot(str(artifacts / "06-printable-quote.png"))


def test_an_eu_business_gives_its_vat_id_and_is_reverse_charged(live_server, browser):
    driver = browser
    open_page(driver, live_server)
    fill_small_sizing(driver)
    select(driver, "currency", "EUR")
    submit_and_wait_for_results(driver)
    css(driver, "#config-rows tr.config-row")[0].find_element(
        "css selector", "button.quote-button").click()
    wait(driver, lambda d: focused_id(d) == "quote-title", message="focus not on the quote form")
    fill(driver, "customer_name", "Ada Lovelace")
    fill(driver, "customer_email", "ada@example.com")
    fill(driver, "customer_country", "FR")
    error = by_id(driver, "customer_vat_id-error")
    earlier = {q["id"] for q in api_get(live_server, "/v1/quotes?limit=100")["items"]}

    def new_quotes():
        return [q for q in api_get(live_server, "/v1/quotes?limit=100")["items"]
                if q["id"] not in earlier]

    # Checked in the page, in the API's words: no VAT id has a space or starts in lower case.
    fill(driver, "customer_vat_id", "fr 403 032 650 45")
    by_id(driver, "quote-submit").click()
    wait(driver, lambda d: error.is_displayed(), message="no error next to the VAT id")
    assert "a VAT identification number, e.g. FR40303265045" in error.text
    assert not new_quotes(), "a refused VAT id made a quote"

    # Refused by the API, not the page: a German VAT id for a customer in France.
    fill(driver, "customer_vat_id", "DE811569869")
    by_id(driver, "quote-submit").click()
    wait(driver, lambda d: error.is_displayed() and "starts with FR" in error.text,
         message=f"the API's problem was not shown next to the VAT id: {error.text}")
    assert by_id(driver, "customer_vat_id").get_attribute("aria-invalid") == "true"

    fill(driver, "customer_vat_id", "FR40303265045")
    by_id(driver, "quote-submit").click()
    wait(driver, lambda d: focused_id(d) == "quote-number", message="no quote shown")
    (quote,) = new_quotes()
    assert quote["customer"]["vat_id"] == "FR40303265045"
    assert quote["totals"]["tax_label"] == "VAT reverse charge (FR)"
    shown = by_id(driver, "quote-result").text
    assert "VAT reverse charge (FR)" in shown and "VAT id FR40303265045" in shown


def test_bad_input_is_shown_next_to_its_field(live_server, browser, artifacts):
    driver = browser
    open_page(driver, live_server)

    # Checked in the page, as the API would: nodes min above max.
    fill(driver, "nodes_min", "8")
    fill(driver, "nodes_max", "2")
    by_id(driver, "submit").click()
    wait(driver, lambda d: focused_id(d) == "error-summary", message="the error summary has no focus")
    error = by_id(driver, "nodes_min-error")
    assert error.is_displayed() and "must not exceed max" in error.text
    assert by_id(driver, "nodes_min").get_attribute("aria-invalid") == "true"
    assert "nodes_min-error" in by_id(driver, "nodes_min").get_attribute("aria-describedby")
    assert not by_id(driver, "results").is_displayed()
    screenshot(driver, artifacts / "07-client-error-desktop.png", DESKTOP)

    # The summary links to the field.
    by_id(driver, "error-summary").find_element("css selector", "a").click()
    assert focused_id(driver) == "nodes_min"

    # Refused by the API, not the page: a region the catalog does not have (planted as an option
    # the form would never offer) comes back as a problem with pointer /region, shown there.
    fill(driver, "nodes_max", "16")
    choose(driver, "model_kind", "custom")
    for field, value in (("layers", "4"), ("hidden", "512"), ("heads", "8"), ("vocab", "32000"),
                         ("seq_len", "2048")):
        fill(driver, field, value)
    driver.execute_script(
        "var o=document.createElement('option');o.value='mars-north';o.textContent='Mars';"
        "var s=document.getElementById('region');s.appendChild(o);s.value='mars-north';")
    by_id(driver, "submit").click()
    wait(driver, lambda d: by_id(d, "region-error").is_displayed(),
         message=f"the API's problem was not shown next to the region: {rendered_problem(driver)}")
    assert "unknown region" in by_id(driver, "region-error").text
    assert focused_id(driver) == "error-summary"
    assert by_id(driver, "region").get_attribute("aria-invalid") == "true"
    assert not by_id(driver, "nodes_min-error").is_displayed()
    screenshot(driver, artifacts / "08-api-error-desktop.png", DESKTOP)


def test_a_cnn_is_sized_by_epochs_over_its_dataset(live_server, browser, artifacts):
    driver = browser
    open_page(driver, live_server)
    assert by_id(driver, "work-tokens").is_displayed() and not by_id(driver, "work-epochs").is_displayed()
    select(driver, "preset", "resnet-50")
    # A CNN trains on samples: tokens are no longer offered, epochs over ImageNet are.
    assert not by_id(driver, "work-tokens").is_displayed()
    assert by_id(driver, "work-epochs").is_displayed()
    assert by_id(driver, "epochs").is_displayed()
    assert "1,281,167" in by_id(driver, "samples-hint").text
    fill(driver, "epochs", "90")
    fill(driver, "nodes_min", "1")
    fill(driver, "nodes_max", "4")
    css(driver, 'input[name="gpu_models"][value="h100-sxm"]')[0].click()
    submit_and_wait_for_results(driver)
    assert css(driver, "#config-rows tr.config-row"), rendered_problem(driver)
    assert "samples/s" in by_id(driver, "config-rows").text
    # One node uses no fabric: its row says so instead of naming the one the API lists.
    one_node = css(driver, '#config-rows tr.config-row[data-nodes="1"]')
    assert one_node, "a one-node H100 row is expected for ResNet-50 at 1-4 nodes"
    for row in one_node:
        assert "one node, no fabric" in row.text and "GbE" not in row.text
    screenshot(driver, artifacts / "14-cnn-epochs-desktop.png", DESKTOP)

    # Back to a transformer: tokens again.
    select(driver, "preset", "llama-3-8b")
    assert by_id(driver, "work-tokens").is_displayed() and not by_id(driver, "work-epochs").is_displayed()
    assert by_id(driver, "tokens").is_displayed()


def test_phone_width(live_server, browser, artifacts):
    driver = browser
    open_page(driver, live_server, PHONE)
    assert driver.execute_script("return window.innerWidth") == PHONE
    assert no_horizontal_scroll(driver), "the form scrolls sideways at 375px"
    screenshot(driver, artifacts / "09-form-phone.png", PHONE)

    fill_small_sizing(driver)
    submit_and_wait_for_results(driver)
    first = css(driver, "#config-rows tr.config-row")[0]
    first.find_element("css selector", "button.details-toggle").click()
    assert no_horizontal_scroll(driver), "the results scroll sideways at 375px"
    # The table becomes one card per configuration: cells stack, each with its label.
    cells = first.find_elements("css selector", "td")
    assert cells[0].rect["y"] < cells[1].rect["y"] < cells[2].rect["y"]
    assert first.rect["width"] <= PHONE
    screenshot(driver, artifacts / "10-results-phone.png", PHONE)

    first.find_element("css selector", "button.quote-button").click()
    fill(driver, "customer_name", "Grace Hopper")
    fill(driver, "customer_email", "grace@example.com")
    fill(driver, "customer_country", "SG")
    by_id(driver, "quote-submit").click()
    wait(driver, lambda d: focused_id(d) == "quote-number", message="no quote shown")
    assert no_horizontal_scroll(driver), "the quote scrolls sideways at 375px"
    screenshot(driver, artifacts / "11-quote-phone.png", PHONE)


# Fails the first sizing POST as a dropped connection, answers the next with 429 + Retry-After,
# then shows a running record with progress before the real one comes back.
FLAKY_NETWORK = """
window.__calls = [];
window.__keys = [];
var realFetch = window.fetch.bind(window);
var posts = 0;
window.fetch = function (url, init) {
  var method = (init && init.method) || 'GET';
  window.__calls.push(method + ' ' + url);
  if (method === 'POST' && /\\/v1\\/sizings$/.test(url)) {
    window.__keys.push(init.headers['Idempotency-Key']);
    posts += 1;
    if (posts === 1) return Promise.reject(new TypeError('Failed to fetch'));
    if (posts === 2) return Promise.resolve(new Response(JSON.stringify({status: 429, code:
      'rate_limited', title: 'Too Many Requests', detail: 'slow down'}), {status: 429,
      headers: {'Content-Type': 'application/problem+json', 'Retry-After': '1'}}));
    return realFetch(url, init).then(function (r) { return r.json().then(function (body) {
      var running = Object.assign({}, body, {status: 'running', progress: 0.4, result: null});
      return new Response(JSON.stringify(running), {status: 202, headers: {'Content-Type':
        'application/json', 'Location': r.headers.get('Location')}});
    }); });
  }
  if (method === 'GET' && /\\/v1\\/sizings\\/[0-9a-f-]+$/.test(url)) {
    return new Promise(function (resolve) { setTimeout(resolve, 1500); })
      .then(function () { return realFetch(url, init); });
  }
  return realFetch(url, init);
};
"""


def test_network_errors_and_rate_limits_offer_a_retry(live_server, browser, artifacts):
    driver = browser
    open_page(driver, live_server)
    driver.execute_script(FLAKY_NETWORK)
    fill_small_sizing(driver)
    by_id(driver, "submit").click()

    wait(driver, lambda d: by_id(d, "run-error").is_displayed(), message="no error message")
    assert focused_id(driver) == "run-error"
    assert "could not be reached" in by_id(driver, "run-error-text").text
    retry = by_id(driver, "run-retry")
    assert retry.is_displayed()
    screenshot(driver, artifacts / "12-network-error-desktop.png", DESKTOP)

    retry.click()
    wait(driver, lambda d: "retrying in" in by_id(d, "progress-text").text,
         message="the 429 was not announced with its Retry-After")
    wait(driver, lambda d: "Running: 40%" in by_id(d, "progress-text").text,
         message="the running sizing's progress was not shown")
    assert by_id(driver, "progress-bar").get_attribute("value") == "0.4"
    assert by_id(driver, "progress-text").get_attribute("aria-live") == "polite"
    screenshot(driver, artifacts / "13-progress-desktop.png", DESKTOP)

    wait(driver, lambda d: by_id(d, "results").is_displayed(), timeout=60, message="no results")
    calls = driver.execute_script("return window.__calls")
    keys = driver.execute_script("return window.__keys")
    assert len(keys) == 3 and len(set(keys)) == 1, "each retry must resend the same Idempotency-Key"
    assert [c.split(" ")[0] for c in calls if "/v1/sizings" in c][:4] == ["POST", "POST", "POST", "GET"]
    assert not by_id(driver, "run-error").is_displayed()
