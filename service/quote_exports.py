"""A quote as a sales engineer sends it: one-table CSV, printable HTML and PDF, from one view."""

from __future__ import annotations

import csv
import io
import unicodedata
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from flask import render_template

# ------------------------------------------------------------------------------ formatting


def money(amount: str | Decimal | None, currency: str | None = None) -> str:
    """A decimal string with thousands separators (and the currency), never through a float."""
    if amount is None or amount == "":
        return "–"
    text = f"{Decimal(amount):,}"
    return f"{text} {currency}" if currency else text


def quantity(value: str | Decimal) -> str:
    return f"{Decimal(value).normalize():,f}"


def percent(fraction: float | str | None, digits: int = 0) -> str:
    if fraction is None:
        return "–"
    return f"{float(fraction) * 100:.{digits}f}%"


def figure(value: float | None, unit: str = "") -> str:
    """A model figure with thousands separators and at most three significant decimals."""
    if value is None:
        return "–"
    text = f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.3g}"
    return f"{text} {unit}".strip()


def days(hours: float | None) -> str:
    if hours is None:
        return "–"
    return f"{hours:,.0f} hours" if hours < 48 else f"{hours / 24:,.1f} days"


def spread(interval: dict[str, float] | None, format_=figure) -> str:
    """The model's p10-p90 of a figure, as a quote writes it: a range, never 16 digits."""
    if not interval:
        return ""
    return f" (p10-p90 {format_(interval['p10'])} to {format_(interval['p90'])})"


def workload_words(workload: dict[str, Any] | None) -> str | None:
    if not workload:
        return None
    if workload.get("tokens") is not None:
        work = f"{workload['tokens']:,.0f} tokens"
    elif workload.get("samples_per_epoch") is not None:
        work = (f"{workload['epochs']:g} epochs of {workload['samples_per_epoch']:,.0f} samples")
    else:
        work = f"as much as fits in {workload['duration_days']:g} days"
    return (f"{workload['name']} ({workload['params'] / 1e9:,.1f} B parameters), {work}, "
            f"{workload['precision']}")


def billed_words(totals: dict[str, Any], term: str) -> str:
    if totals["hours_billed"]:
        return f"{totals['hours_billed']:,} hours on demand"
    months = totals["months_billed"]
    return f"{months} month{'s' if months != 1 else ''} ({term} term)"


HELPERS = {"money": money, "quantity": quantity, "percent": percent, "figure": figure,
           "spread": spread,
           "days": days, "workload_words": workload_words, "billed_words": billed_words}


# ------------------------------------------------------------------------------ CSV

CSV_COLUMNS = ("quote_number", "revision", "issued_on", "valid_until", "currency", "term",
               "customer", "configuration", "row_type", "code", "description", "quantity", "unit",
               "unit_price", "list_amount", "discount_rate", "discount", "net", "billing")
# A cell a spreadsheet would run as a formula (OWASP: CSV injection).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(text: str) -> str:
    """Text as a spreadsheet must show it: a leading formula character is escaped."""
    return "'" + text if text.startswith(FORMULA_START) else text


def configuration_words(view: dict[str, Any]) -> str:
    c = view["configuration"]
    return (f"{c['nodes']} x {c['server']['name']} ({c['gpus']} GPUs) on {c['fabric']['name']}, "
            f"{c['region']}")


def as_csv(view: dict[str, Any]) -> str:
    """One table: every row has the same columns, lines first, then totals and tax as rows."""
    customer = view["customer"]
    who = ", ".join(p for p in (customer.get("name"), customer.get("company")) if p)
    fixed = [view["number"], view["revision"], view["issued_on"], view["valid_until"],
             view["currency"], view["term"], cell(who), cell(configuration_words(view))]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for line in view["lines"]:
        writer.writerow(fixed + ["line", line["code"], cell(line["description"]),
                                 line["quantity"], line["unit"], line["unit_price"],
                                 line["list_amount"], line["discount_rate"], line["discount"],
                                 line["net"], line["billing"]])
    totals = view["totals"]
    rows = [("monthly_net", "Net per month at the term's rate", totals["monthly_net"]),
            ("recurring", f"Billed: {billed_words(totals, view['term'])}", totals["recurring"]),
            ("one_time", "One-time fees", totals["one_time"]),
            ("term_net", "Net before tax", totals["term_net"])]
    for code, words, amount in rows:
        writer.writerow(fixed + ["total", code, words, "", "", "", "", "", "", amount, ""])
    writer.writerow(fixed + ["tax", "tax", totals["tax_label"], "", "", "", totals["term_net"],
                             totals["tax_rate"] or "", "", totals["tax"], ""])
    writer.writerow(fixed + ["total", "grand_total", "Total", "", "", "", "", "", "",
                             totals["grand_total"], ""])
    return out.getvalue()


# ------------------------------------------------------------------------------ HTML

def as_html(view: dict[str, Any]) -> str:
    return render_template("quote.html", quote=view, **HELPERS)


# ------------------------------------------------------------------------------ PDF

FONT_DIR = Path(__import__("reportlab").__file__).parent / "fonts"


@cache
def _fonts() -> frozenset[int]:
    """Register Bitstream Vera (shipped with reportlab); return the characters it covers."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    regular = TTFont("Vera", str(FONT_DIR / "Vera.ttf"))
    pdfmetrics.registerFont(regular)
    pdfmetrics.registerFont(TTFont("Vera-Bold", str(FONT_DIR / "VeraBd.ttf")))
    return frozenset(regular.face.charToGlyph)


def printable(text: Any) -> str:
    """Text the font can draw, escaped for reportlab's markup: other letters lose their accents
    (or become '?') rather than print as empty boxes."""
    covered = _fonts()
    out = []
    for ch in str(text):
        if ord(ch) in covered or ch in "\n":
            out.append(ch)
            continue
        base = unicodedata.normalize("NFKD", ch)
        out.append("".join(c for c in base if ord(c) in covered and not unicodedata.combining(c))
                   or "?")
    return "".join(out).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def as_pdf(view: dict[str, Any]) -> bytes:
    """The same content as the HTML, laid out for A4."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    _fonts()
    body = ParagraphStyle("body", fontName="Vera", fontSize=8.5, leading=11)
    small = ParagraphStyle("small", parent=body, fontSize=7.5, leading=9.5)
    h1 = ParagraphStyle("h1", parent=body, fontName="Vera-Bold", fontSize=15, leading=19)
    h2 = ParagraphStyle("h2", parent=body, fontName="Vera-Bold", fontSize=10.5, leading=14,
                        spaceBefore=7, spaceAfter=2)
    right = ParagraphStyle("right", parent=body, alignment=2)

    def p(text: Any, style=body) -> Paragraph:
        return Paragraph(printable(text), style)

    seller, customer, totals = view["seller"], view["customer"], view["totals"]
    cur = view["currency"]
    story: list = []
    head = Table([[
        [p(seller["name"], h2)] + [p(line) for line in seller["address"]]
        + [p(f"VAT id {seller['vat_id']}"), p(f"{seller['email']} · {seller['phone']}"),
           p(seller["website"])],
        [p(f"Quote {view['number']}", h1), p(f"Revision {view['revision']} · {view['status']}"),
         p(f"Issued {view['issued_on']}"), p(f"Valid until {view['valid_until']}"),
         p(f"Prices of catalog version {view['catalog_version']}, in {cur}")],
    ]], colWidths=[95 * mm, 85 * mm])
    head.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP")]))
    story += [head, Spacer(1, 4 * mm)]
    who = [customer.get("name"), customer.get("company"), customer.get("email"),
           customer.get("country") and f"Country {customer['country']}",
           customer.get("vat_id") and f"VAT id {customer['vat_id']}"]
    story += [p("For", h2), p(" · ".join(w for w in who if w))]
    workload = workload_words(view.get("workload"))
    story.append(p("Configuration", h2))
    if workload:
        story.append(p(f"Workload: {workload}."))
    c = view["configuration"]
    story.append(p(f"{configuration_words(view)}; {c['nics_per_node']} host ports per node, "
                   f"oversubscription {c['oversubscription']:g}:1. Term {view['term']}, billed "
                   f"{billed_words(totals, view['term'])}; support {view['support']}."))
    if view["stock"]["warning"]:
        story.append(p(f"Stock: {view['stock']['warning']}."))

    story.append(p(f"Line items ({cur})", h2))
    rows = [[p(h) for h in ("Item", "Quantity", "Unit", "Unit price", "List", "Discount", "Net")]]
    for line in view["lines"]:
        rows.append([p(line["description"]), p(quantity(line["quantity"]), right),
                     p(line["unit"]), p(money(line["unit_price"]), right),
                     p(money(line["list_amount"]), right), p(money(line["discount"]), right),
                     p(money(line["net"]), right)])
    table = Table(rows, colWidths=[51 * mm, 18 * mm, 23 * mm, 21 * mm, 23 * mm, 20 * mm, 24 * mm],
                  repeatRows=1)
    table.setStyle(TableStyle([("LINEBELOW", (0, 0), (-1, -1), 0.3, colors.grey),
                               ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    story.append(table)

    total_rows = []
    if not totals["hours_billed"]:
        total_rows += [("Net per month", totals["monthly_net"]),
                       (f"Months billed × {totals['months_billed']}", totals["recurring"])]
    else:
        total_rows.append((f"On demand, {totals['hours_billed']:,} hours", totals["recurring"]))
    total_rows += [("One-time fees", totals["one_time"]), ("Net before tax", totals["term_net"]),
                   (totals["tax_label"], totals["tax"])]
    summary = [[p(label), p(money(amount, cur), right)] for label, amount in total_rows]
    summary.append([p("Total", h2), p(money(totals["grand_total"], cur), h2)])
    totals_table = Table(summary, colWidths=[60 * mm, 40 * mm], hAlign="RIGHT")
    totals_table.setStyle(TableStyle([("LINEABOVE", (0, -1), (-1, -1), 0.8, colors.black)]))
    story += [Spacer(1, 3 * mm), totals_table]

    perf = view.get("performance")
    if perf:
        unit = "tokens/s" if perf["tokens_per_s"] is not None else "samples/s"
        rate = perf["tokens_per_s"] if perf["tokens_per_s"] is not None else perf["samples_per_s"]
        ranges = perf.get("intervals") or {}
        rate_name = "tokens_per_s" if perf["tokens_per_s"] is not None else "samples_per_s"
        story += [p("Expected performance", h2), p(
            f"Throughput {figure(rate, unit)}{spread(ranges.get(rate_name))}; scaling efficiency "
            f"{percent(perf['scaling_efficiency'])}"
            + (f" ({percent(perf['efficiency_vs_one_node'])} of one node's throughput per GPU)"
               if perf.get("efficiency_vs_one_node") is not None else "")
            + f"; time to train {days(perf['time_to_train_hours'])}"
              f"{spread(ranges.get('time_to_train_hours'), days)} with "
              f"{percent(perf['goodput'], 1)} goodput ({figure(perf['expected_interruptions'])} "
              "interruptions expected); communication "
              f"{percent(perf['communication_share'])} of each step. {perf['bottleneck']}")]
    advice = view.get("network_advice")
    if advice:
        story += [p("Network advice", h2), p(advice["note"]), p(advice["reason"])]
        if advice["roce_checklist"]:
            story.append(p("RoCEv2 lossless-Ethernet checklist:"))
            story += [p(f"• {item['item']}: {item['why']}.", small)
                      for item in advice["roce_checklist"]]
    story.append(p("Terms and conditions", h2))
    story += [p(f"{i}. {term}", small) for i, term in enumerate(seller["terms"], 1)]
    story.append(p("Notes", h2))
    story += [p(note, small) for note in view["notes"]]

    def footer(canvas, document) -> None:
        canvas.setFont("Vera", 7.5)
        canvas.drawString(15 * mm, 8 * mm, printable(
            f"{seller['name']} · Quote {view['number']} revision {view['revision']} · valid "
            f"until {view['valid_until']} · page {document.page}"))

    buffer = io.BytesIO()
    SimpleDocTemplate(buffer, pagesize=A4, leftMargin=15 * mm, rightMargin=15 * mm,
                      topMargin=14 * mm, bottomMargin=16 * mm, title=f"Quote {view['number']}",
                      author=seller["name"]).build(story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()
