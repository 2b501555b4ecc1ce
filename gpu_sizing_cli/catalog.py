"""`gpu-sizing catalog servers|fabrics|gpus|regions|presets`: the provider's offer, as tables."""

from __future__ import annotations

import click
from gpu_sizing_client.api.catalog import list_fabrics, list_gpus, list_regions, list_servers
from gpu_sizing_client.api.estimates import list_presets

from gpu_sizing_cli.api import Api
from gpu_sizing_cli.numbers import figure, scientific
from gpu_sizing_cli.output import Column, formats, stdout, table, write_csv, write_json


def plain(name: str, header: str | None = None, shown=str, right: bool = False) -> Column:
    """A column of one field, shown through `shown`, raw in the CSV."""
    return Column(header or name.replace("_", " "), lambda row: shown(getattr(row, name)), name,
                  lambda row: getattr(row, name), right=right)


def nics(server) -> str:
    return ", ".join(f"{n.count} x {figure(n.rate_gbps)} Gb/s {n.model}" for n in server.nics)


def stock(region) -> str:
    return ", ".join(f"{s.server} {s.available_nodes}+{s.arriving_nodes}"
                     for s in (region.stock or []))


VIEWS = {
    "servers": (list_servers, [
        plain("id"), plain("name"), plain("gpu"), plain("gpus_per_node", "GPUs", right=True),
        Column("NICs", nics, "nics", nics), plain("pcie_gen", "PCIe", right=True)]),
    "fabrics": (list_fabrics, [
        plain("id"), plain("name"), plain("kind"),
        plain("line_rate_gbps", "Gb/s per port", figure, right=True),
        plain("rdma", "RDMA", lambda v: "yes" if v else "no"),
        plain("lossless", shown=lambda v: "yes" if v else "no"),
        plain("latency_us", "latency us", figure, right=True)]),
    "gpus": (list_gpus, [
        plain("id"), plain("name"), plain("bf16_tflops", "BF16 TFLOPS", figure, right=True),
        plain("memory_gb", "memory GB", figure, right=True),
        plain("memory_bandwidth_gbs", "memory GB/s", figure, right=True),
        plain("intra_link", "link"),
        plain("intra_bandwidth_gbs", "link GB/s", figure, right=True)]),
    "regions": (list_regions, [
        plain("id"), plain("name"), plain("country"),
        Column("stock (nodes now+arriving)", stock, "stock", stock)]),
    "presets": (list_presets, [
        plain("id"), plain("name"), plain("kind"),
        plain("params", shown=scientific, right=True),
        plain("dataset", shown=lambda v: v or "-")]),
}


@click.command()
@click.argument("kind", type=click.Choice(sorted(VIEWS)))
@formats
@click.pass_obj
def catalog(api: Api, output: str, kind: str) -> None:
    """Print the catalog's servers, fabrics, GPUs or regions, or the model presets."""
    operation, columns = VIEWS[kind]
    response = api.call(operation)
    if output == "json":
        write_json(response.content)
    elif output == "csv":
        write_csv(columns, response.parsed)
    else:
        stdout.print(table(f"Catalog: {kind}", columns, response.parsed))
