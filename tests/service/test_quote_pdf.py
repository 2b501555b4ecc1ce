"""The quote as a PDF: a real document, rendered to an image and read back as text."""

from __future__ import annotations

from decimal import Decimal

import pytest

from service.config import REPO_ROOT

pdfium = pytest.importorskip("pypdfium2", reason="the dev extra installs pypdfium2")

SIZING = {"workload": {"preset": "llama-3-8b"}, "tokens": 5e10, "nodes": {"min": 2, "max": 4},
          "gpu_models": ["h100-sxm"], "term": "1y", "currency": "EUR", "region": "eu-central",
          "fabrics_include": ["roce-200-lossless", "ib-ndr-400"]}


def test_the_pdf_renders_and_says_what_the_quote_says(client):
    sizing = client.post("/v1/sizings", json=SIZING, headers={"Prefer": "wait=30"}).get_json()
    roce = next(c for c in sizing["result"]["configurations"] if c["fabric"]["kind"] == "roce")
    quote = client.post("/v1/quotes", json={
        "sizing_id": sizing["id"], "rank": roce["rank"],
        "customer": {"name": "Łukasz Żółć", "company": "Analytical Engines GmbH",
                     "email": "lz@example.com", "country": "DE"}}).get_json()
    response = client.get(f"/v1/quotes/{quote['id']}/document.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.headers["Content-Disposition"].endswith(f'{quote["number"]}.pdf"')

    document = pdfium.PdfDocument(response.data)
    text = "\n".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    for expected in (quote["number"], quote["seller"]["name"], quote["seller"]["vat_id"],
                     quote["valid_until"], quote["issued_on"], "Łukasz", "Analytical Engines GmbH",
                     "Llama 3 8B", "50,000,000,000 tokens", "VAT 19% (DE)",
                     f"{Decimal(quote['totals']['grand_total']):,} EUR",
                     "RoCEv2 lossless-Ethernet checklist", "Terms and conditions"):
        assert expected in text, expected
    page = document[0].render(scale=1.5).to_pil()
    artifacts = REPO_ROOT / "test-artifacts" / "quotes"
    artifacts.mkdir(parents=True, exist_ok=True)
    page.save(artifacts / "quote-page-1.png")
    assert page.width > 800 and page.getextrema() != ((255, 255),) * 3  # not a blank page
