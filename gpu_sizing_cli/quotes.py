"""`gpu-sizing quote` and `quotes`: quote a ranked configuration, save its PDF and CSV, list quotes."""

from __future__ import annotations

import uuid
from pathlib import Path

import click
from gpu_sizing_client.api.quotes import create_quote, export_quote_csv, get_quote_pdf, list_quotes
from gpu_sizing_client.models import (
    ListQuotesOrigin,
    ListQuotesStatus,
    Quote,
    QuoteRequest,
    QuoteRequestSupport,
    QuoteRequestTerm,
)

from gpu_sizing_cli.api import CLIENT_SECRET, Api, secret
from gpu_sizing_cli.listing import choices, list_command
from gpu_sizing_cli.numbers import money
from gpu_sizing_cli.output import Column, stderr, write_json

QUOTE_FLAGS = {"sizing_id": "SIZING_ID", "rank": "--rank", "term": "--term",
               "currency": "--currency", "support": "--support", "valid_days": "--valid-days",
               "customer.name": "--customer-name", "customer.company": "--company",
               "customer.email": "--email", "customer.country": "--country",
               "customer.vat_id": "--vat-id", "customer": "--customer-name",
               "sizing_client_secret": "--client-secret",
               "headers.Client-Secret": "--client-secret"}


@click.command()
@click.argument("sizing_id", type=click.UUID)
@click.option("--rank", type=int, default=1, show_default=True,
              help="The ranked configuration to quote.")
@click.option("--customer-name", required=True, help="Who the quote is for.")
@click.option("--company")
@click.option("--email")
@click.option("--country", help="ISO 3166-1 alpha-2, e.g. DE: decides the tax line.")
@click.option("--vat-id", help="A business customer's VAT id, with its country's prefix "
              "(reverse charge inside the EU, none of the provider's VAT outside it).")
@click.option("--term", type=choices(QuoteRequestTerm), help="Default: the sizing's.")
@click.option("--currency", help="Default: the sizing's.")
@click.option("--support", type=choices(QuoteRequestSupport))
@click.option("--valid-days", type=int)
@CLIENT_SECRET
@click.option("--output-dir", "-o", type=click.Path(file_okay=False, path_type=Path), default=".",
              show_default=True, help="Where to save <number>.pdf and <number>.csv.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the quote's JSON document (the saved files' paths go to stderr).")
@click.pass_obj
def quote(api: Api, sizing_id, rank: int, customer_name: str, company, email, country, vat_id,
          term, currency, support, valid_days, client_secret: str | None, output_dir: Path,
          as_json: bool) -> None:
    """Quote a sizing's ranked configuration; save the quote's PDF and CSV and say where."""
    customer = {k: v for k, v in (("name", customer_name), ("company", company), ("email", email),
                                  ("country", country), ("vat_id", vat_id)) if v is not None}
    optional = {"term": term, "currency": currency, "support": support, "valid_days": valid_days}
    body = {"sizing_id": str(sizing_id), "rank": rank, "customer": customer,
            **{k: v for k, v in optional.items() if v is not None}}
    # One key for every retry: a retry after a dropped connection returns this same quote.
    response = api.call(create_quote, QUOTE_FLAGS, body=QuoteRequest.from_dict(body),
                        idempotency_key=str(uuid.uuid4()), **secret(client_secret))
    created: Quote = response.parsed
    output_dir.mkdir(parents=True, exist_ok=True)
    saved = []
    for operation, suffix in ((get_quote_pdf, "pdf"), (export_quote_csv, "csv")):
        path = output_dir / f"{created.number}.{suffix}"
        # The quote's own secret, from its creation: a publishable key reads it with nothing else.
        path.write_bytes(api.call(operation, quote_id=uuid.UUID(created.id),
                                  **secret(created.client_secret or None)).content)
        saved.append(path.resolve())
    if as_json:
        write_json(response.content)
    t = created.totals
    stderr.print(f"quote {created.number} ({created.status}, valid until {created.valid_until}): "
                 f"{configuration(created)}, {created.term} term")
    stderr.print(f"  {money(t.term_net, created.currency)} net + {t.tax_label} "
                 f"{money(t.tax, created.currency)} = {money(t.grand_total, created.currency)}")
    for path in saved:
        # Paths on stdout for a script to take, unless stdout carries the JSON document.
        click.echo(str(path), err=as_json)


def configuration(q: Quote) -> str:
    c = q.configuration
    # One node's GPUs talk inside the server: no fabric is used or billed.
    joined = "one node, no fabric" if c.nodes == 1 else f"on {c.fabric.id}"
    return f"{c.nodes} x {c.server.id} {joined}"


LIST_COLUMNS = [
    Column("number", lambda q: q.number, "number", lambda q: q.number),
    Column("issued", lambda q: q.issued_on, "issued_on", lambda q: q.issued_on),
    Column("status", lambda q: str(q.status), "status", lambda q: str(q.status)),
    Column("customer", lambda q: q.customer.name, "customer", lambda q: q.customer.name),
    Column("configuration", configuration, "configuration", configuration),
    Column("term", lambda q: q.term, "term", lambda q: q.term),
    Column("total", lambda q: money(q.totals.grand_total, q.currency), "grand_total",
           lambda q: q.totals.grand_total, right=True),
    Column("", None, "currency", lambda q: q.currency),
    Column("", None, "id", lambda q: q.id),
]


list_all = list_command("quotes", list_quotes, ListQuotesStatus, ListQuotesOrigin,
                        LIST_COLUMNS, "The account's quotes")


COMMANDS = (quote, list_all)
