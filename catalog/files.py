"""Read the catalog data files, validate each file and its cross references, return plain dicts."""

from __future__ import annotations

import datetime as dt
import math
import re
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import yaml
from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from catalog.countries import ISO_3166_ALPHA2
from catalog.pricing import SUPPORT_TIERS, TERMS
from sizing.hardware import FABRIC_KINDS, INTRA_LINKS, TOPOLOGIES

__all__ = ["FILES", "REFERENCE_FILE", "CatalogFileError", "read_catalog",
           "read_reference_systems"]

# Every file the catalog is made of; all must be present for a catalog version to be complete.
FILES = (
    "gpus.yaml",
    "servers.yaml",
    "fabrics.yaml",
    "rdma.yaml",
    "prices.yaml",
    "regions.yaml",
    "currencies.yaml",
    "model.yaml",
    "policy.yaml",
    "reliability.yaml",
    "uncertainty.yaml",
    "taxes.yaml",
    "provider.yaml",
)

# Hardware of published measurements the provider does not sell. It is not part of a catalog
# version (nothing in it can be quoted); the accuracy harness (bench/accuracy) reads it.
REFERENCE_FILE = "reference_systems.yaml"


class CatalogFileError(ValueError):
    """A catalog file that cannot be accepted, with the file, entry and field that are wrong."""

    def __init__(self, file: str, entry: str | None, field: str | None, reason: str) -> None:
        self.file = file
        self.entry = entry
        self.field = field
        self.reason = reason
        super().__init__(": ".join(part for part in (file, entry, field, reason) if part))


# ---------------------------------------------------------------------------------------------
# Fields. The stock marshmallow fields coerce ("12" -> 12.0, 1 -> True); a data file that says
# "12" where a number belongs is a typo worth refusing, so these accept only the YAML type meant.


class Figure(fields.Field):
    """A number (int or float) as written; strings and booleans are refused."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValidationError(f"must be a number, got {value!r}")
        if not math.isfinite(value):
            raise ValidationError("must be a finite number")
        return value


class Count(fields.Field):
    """A whole number as written."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValidationError(f"must be a whole number, got {value!r}")
        return value


class Flag(fields.Field):
    """true or false, nothing else."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise ValidationError(f"must be true or false, got {value!r}")
        return value


class DecimalString(fields.Field):
    """Money or an exact fraction, written as a decimal string and loaded as `Decimal`.

    Floats are refused because 0.1 + 0.2 style drift must never reach an invoice; whole numbers
    are accepted only where `allow_int` is set. `places` caps the digits after the point.
    """

    def __init__(self, *, allow_int: bool = False, allow_float: bool = False,
                 places: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.allow_int = allow_int
        self.allow_float = allow_float
        self.places = places

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool):
            raise ValidationError(f"must be a decimal string like \"12.50\", got {value!r}")
        if isinstance(value, int) and self.allow_int:
            return Decimal(value)
        if isinstance(value, float) and self.allow_float:
            # repr() gives back the digits written in the file, not the binary approximation.
            value = repr(value)
        if not isinstance(value, str):
            raise ValidationError(f"must be a decimal string like \"12.50\", got {value!r}")
        if not re.fullmatch(r"-?\d+(\.\d+)?", value.strip()):
            raise ValidationError(f"must be a decimal string like \"12.50\", got {value!r}")
        try:
            number = Decimal(value.strip())
        except InvalidOperation:  # pragma: no cover - the pattern above already rules this out
            raise ValidationError(f"not a decimal number: {value!r}") from None
        if self.places is not None and -number.as_tuple().exponent > self.places:
            raise ValidationError(
                f"at most {self.places} digits after the decimal point, got {value!r}")
        return number


class IsoDate(fields.Field):
    """A calendar date, quoted ("2026-11-01") or as YAML parsed it."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
            return value
        if isinstance(value, str):
            try:
                return dt.date.fromisoformat(value)
            except ValueError:
                pass
        raise ValidationError(f"must be a date YYYY-MM-DD, got {value!r}")


# ---------------------------------------------------------------------------------------------
# Validators.

POSITIVE = validate.Range(min=0, min_inclusive=False, error="must be greater than 0")
NON_NEGATIVE = validate.Range(min=0, error="must be 0 or more")
FRACTION = validate.Range(min=0, max=1, min_inclusive=False,
                          error="must be a fraction in (0, 1]")
DISCOUNT = validate.Range(min=0, max=1, max_inclusive=False,
                          error="must be a fraction in [0, 1)")
KEBAB = validate.Regexp(r"\A[a-z0-9]+(-[a-z0-9]+)*\Z", error="must be kebab-case, like 'hgx-h100-8'")
TEXT = validate.Length(min=1, error="must not be empty")

# Active ISO 4217 alphabetic codes. A pattern such as [A-Z]{3} would let a typo like "EUD" through
# into a quote, so the list is spelled out.
_ISO_4217_CODES = """
AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN
BZD CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS
GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW
KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD
NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD
SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES
VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG
"""
ISO_4217 = frozenset(_ISO_4217_CODES.split())


def iso_4217(code: object) -> None:
    if code not in ISO_4217:
        raise ValidationError(f"not an ISO 4217 currency code: {code!r}")


COUNTRY = validate.OneOf(ISO_3166_ALPHA2, error="must be an assigned ISO 3166-1 alpha-2 code, like 'DE'")


# ---------------------------------------------------------------------------------------------
# Schemas.


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


class SourcedSchema(StrictSchema):
    """An entry whose figures each name where they came from.

    `sources` maps a field of the entry to the text it was read from, or to "estimate: <why>"
    for an internal assumption. Fields listed in `sourced` must have one.
    """

    sourced: tuple[str, ...] = ()

    sources = fields.Dict(keys=fields.String(), values=fields.String(validate=TEXT), required=True)

    @validates_schema
    def _check_sources(self, data: dict, **kwargs: Any) -> None:
        sources = data.get("sources", {})
        own_fields = set(self.fields) - {"sources"}
        for key, text in sources.items():
            if key not in own_fields:
                raise ValidationError(f"'{key}' is not a field of this entry",
                                      field_name=f"sources.{key}")
            if text.lower().startswith("estimate") and not re.match(r"estimate: \S", text):
                raise ValidationError("an estimate must say why: 'estimate: <reason>'",
                                      field_name=f"sources.{key}")
        for name in self.sourced:
            if name not in sources:
                raise ValidationError(f"no source given (add sources.{name})", field_name=name)


class GpuSchema(SourcedSchema):
    sourced = ("bf16_tflops", "fp8_tflops", "memory_gb", "memory_bandwidth_gbs",
               "intra_bandwidth_gbs", "gpudirect_rdma", "tdp_w")

    id = fields.String(required=True, validate=KEBAB)
    name = fields.String(required=True, validate=TEXT)
    vendor = fields.String(required=True, validate=validate.OneOf(["nvidia", "amd", "intel"]))
    bf16_tflops = Figure(required=True, validate=POSITIVE)
    # Ampere and older have no FP8 tensor cores, so null is a real answer, not a gap.
    fp8_tflops = Figure(required=True, allow_none=True, validate=POSITIVE)
    memory_gb = Figure(required=True, validate=POSITIVE)
    memory_bandwidth_gbs = Figure(required=True, validate=POSITIVE)
    intra_link = fields.String(required=True, validate=validate.OneOf(INTRA_LINKS))
    intra_bandwidth_gbs = Figure(required=True, validate=POSITIVE)
    gpudirect_rdma = Flag(required=True)
    tdp_w = Figure(required=True, validate=POSITIVE)
    # NVSwitch with in-switch reduction (NVLink SHARP), which NCCL's NVLS algorithm uses.
    nvlink_sharp = Flag(load_default=False)


class ReferenceGpuSchema(GpuSchema):
    """A GPU of a published measurement that the provider does not sell (reference_systems.yaml).

    Older GPUs trained in FP32 too, so their FP32 rate may be given.
    """

    fp32_tflops = Figure(allow_none=True, validate=POSITIVE)
    # Volta and Pascal: no BF16 (FP16 only, at bf16_tflops) and no FlashAttention-class kernel.
    # Only reference GPUs may say so: every GPU the provider sells has both, which the search's
    # vectorised validity takes for granted.
    bf16 = Flag(load_default=True)
    fused_attention = Flag(load_default=True)


class NicSchema(StrictSchema):
    model = fields.String(required=True, validate=TEXT)
    count = Count(required=True, validate=POSITIVE)
    rate_gbps = Figure(required=True, validate=POSITIVE)
    protocols = fields.List(
        fields.String(validate=validate.OneOf(["infiniband", "ethernet"])),
        required=True,
        validate=validate.Length(min=1, error="must name at least one protocol"),
    )


class ServerSchema(SourcedSchema):
    sourced = ("gpus_per_node", "nics", "pcie_gen", "nic_gpu_same_switch", "cpu",
               "host_memory_gb", "power_kw")

    id = fields.String(required=True, validate=KEBAB)
    name = fields.String(required=True, validate=TEXT)
    gpu = fields.String(required=True, validate=TEXT)
    gpus_per_node = Count(required=True, validate=POSITIVE)
    nics = fields.List(fields.Nested(NicSchema), required=True,
                       validate=validate.Length(min=1, error="a server needs at least one NIC"))
    pcie_gen = Count(required=True, validate=validate.Range(min=3, max=6, error="must be 3 to 6"))
    nic_gpu_same_switch = Flag(required=True)
    cpu = fields.String(required=True, validate=TEXT)
    host_memory_gb = Figure(required=True, validate=POSITIVE)
    power_kw = Figure(required=True, validate=POSITIVE)

    @validates_schema
    def _one_row_per_nic_model(self, data: dict, **kwargs: Any) -> None:
        # rdma.yaml names the NIC by model, so two rows of one model would be ambiguous.
        seen: set[str] = set()
        for index, nic in enumerate(data.get("nics", [])):
            if nic["model"] in seen:
                raise ValidationError(f"NIC model '{nic['model']}' listed twice: merge the counts",
                                      field_name=f"nics[{index}].model")
            seen.add(nic["model"])


class MeasurementRows(fields.Field):
    """Ids of published measurements (bench/accuracy) a figure was fitted on: whole numbers."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list) or not value:
            raise ValidationError(f"must be a non-empty list of measurement row ids, got {value!r}")
        for row in value:
            if isinstance(row, bool) or not isinstance(row, int) or row < 1:
                raise ValidationError(f"a measurement row id is a whole number, got {row!r}")
        if len(set(value)) != len(value):
            raise ValidationError("a measurement row is listed twice")
        return value


def _check_fitted_sources(data: dict) -> None:
    """A figure fitted on measurements must not also call itself an estimate."""
    for name in data.get("fitted_on", {}):
        text = data.get("sources", {}).get(name, "")
        if text.lower().startswith("estimate"):
            raise ValidationError("a fitted figure's source must say what it was fitted on, "
                                  "not 'estimate'", field_name=f"sources.{name}")


class FabricPhysicsSchema(SourcedSchema):
    """The figures of a fabric the performance model uses (sold or not)."""

    sourced = ("latency_us", "achievable_fraction", "jitter_cv", "loss_rate")

    id = fields.String(required=True, validate=KEBAB)
    name = fields.String(required=True, validate=TEXT)
    kind = fields.String(required=True, validate=validate.OneOf(FABRIC_KINDS))
    line_rate_gbps = Figure(required=True, validate=POSITIVE)
    latency_us = Figure(required=True, validate=POSITIVE)
    # An inter-node ring step's latency where it was measured apart from a tree hop's.
    ring_latency_us = Figure(validate=POSITIVE)
    achievable_fraction = Figure(required=True, validate=FRACTION)
    rdma = Flag(required=True)
    lossless = Flag(required=True)
    jitter_cv = Figure(required=True, validate=NON_NEGATIVE)
    loss_rate = Figure(required=True, validate=DISCOUNT)
    oversubscription_options = fields.List(
        Figure(validate=validate.Range(min=1, error="must be 1 (non-blocking) or more")),
        required=True,
        validate=validate.Length(min=1, error="must offer at least one option"),
    )
    nodes_per_leaf = Count(required=True, validate=POSITIVE)
    # In-network reduction (SHARP) enabled for NCCL CollNet; adaptive routing in the switches
    # (no ECMP hash collisions); NICs that resend only lost packets instead of go-back-N.
    topology = fields.String(load_default="leaf-spine", validate=validate.OneOf(TOPOLOGIES))
    nodes_per_unit = Count(validate=POSITIVE)
    nodes_below_core = Count(validate=POSITIVE)
    sharp = Flag(load_default=False)
    adaptive_routing = Flag(load_default=False)
    selective_repeat = Flag(load_default=False)
    description = fields.String(required=True, validate=TEXT)
    # Figure name -> the measurement rows it was fitted on (bench/accuracy checks the fit).
    fitted_on = fields.Dict(keys=fields.String(), values=MeasurementRows())

    @validates_schema
    def _unit_of_a_rail_optimised_fabric(self, data: dict, **kwargs: Any) -> None:
        if (data.get("topology") == "rail-optimised") != ("nodes_per_unit" in data):
            raise ValidationError("a rail-optimised fabric states nodes_per_unit (and only it)",
                                  field_name="nodes_per_unit")

    @validates_schema
    def _source_of_a_ring_latency(self, data: dict, **kwargs: Any) -> None:
        if "ring_latency_us" in data and "ring_latency_us" not in data.get("sources", {}):
            raise ValidationError("no source given (add sources.ring_latency_us)",
                                  field_name="ring_latency_us")

    @validates_schema
    def _fitted_figures(self, data: dict, **kwargs: Any) -> None:
        for name in data.get("fitted_on", {}):
            if name not in self.fields or isinstance(self.fields[name], (fields.String,
                                                                         fields.Dict)):
                raise ValidationError(f"'{name}' is not a figure of this entry",
                                      field_name=f"fitted_on.{name}")
        _check_fitted_sources(data)


class FabricSchema(FabricPhysicsSchema):
    sourced = FabricPhysicsSchema.sourced + ("switch_port_price_usd_month",)

    switch_port_price_usd_month = DecimalString(required=True, allow_int=True, allow_float=True,
                                                places=2, validate=NON_NEGATIVE)


class RdmaSupportSchema(SourcedSchema):
    sourced = ("supported",)

    server = fields.String(required=True, validate=TEXT)
    fabric = fields.String(required=True, validate=TEXT)
    supported = Flag(required=True)
    nic = fields.String(required=True, allow_none=True, validate=TEXT)
    nics_used = Count(required=True, validate=NON_NEGATIVE)
    port_rate_gbps = Figure(required=True, allow_none=True, validate=POSITIVE)
    rdma = Flag(required=True)
    gpudirect_rdma = Flag(required=True)
    reason = fields.String(load_default=None, allow_none=True, validate=TEXT)

    @validates_schema
    def _consistent(self, data: dict, **kwargs: Any) -> None:
        if not data["supported"]:
            for name, empty, shown in (("nic", None, "null"), ("nics_used", 0, "0"),
                                       ("port_rate_gbps", None, "null"), ("rdma", False, "false"),
                                       ("gpudirect_rdma", False, "false")):
                if data[name] != empty:
                    raise ValidationError(f"must be {shown} on an unsupported pair",
                                          field_name=name)
            if not data["reason"]:
                raise ValidationError("an unsupported pair must say why", field_name="reason")
            return
        if data["nic"] is None:
            raise ValidationError("a supported pair must name the NIC that connects it",
                                  field_name="nic")
        if data["nics_used"] < 1:
            raise ValidationError("a supported pair uses at least one NIC", field_name="nics_used")
        if data["port_rate_gbps"] is None:
            raise ValidationError("a supported pair must give the port rate",
                                  field_name="port_rate_gbps")
        if data["gpudirect_rdma"] and not data["rdma"]:
            raise ValidationError("GPUDirect RDMA needs an RDMA transport (rdma: true)",
                                  field_name="gpudirect_rdma")
        if not data["gpudirect_rdma"] and not data["reason"]:
            raise ValidationError("say why GPUDirect RDMA is unavailable", field_name="reason")


class PriceSchema(SourcedSchema):
    sourced = ("hourly_usd", "monthly_usd", "setup_fee_usd")

    server = fields.String(required=True, validate=TEXT)
    region = fields.String(required=True, validate=TEXT)
    hourly_usd = DecimalString(required=True, places=2, validate=POSITIVE)
    monthly_usd = DecimalString(required=True, places=2, validate=POSITIVE)
    setup_fee_usd = DecimalString(required=True, places=2, validate=NON_NEGATIVE)


class FabricPriceSchema(SourcedSchema):
    sourced = ("nic_port_usd_month", "cable_optics_usd_one_time")

    fabric = fields.String(required=True, validate=TEXT)
    nic_port_usd_month = DecimalString(required=True, places=2, validate=NON_NEGATIVE)
    cable_optics_usd_one_time = DecimalString(required=True, places=2, validate=NON_NEGATIVE)


class StoragePriceSchema(SourcedSchema):
    """The checkpoint storage offer's price (its throughput is in reliability.yaml)."""

    sourced = ("per_node_usd_month",)

    per_node_usd_month = DecimalString(required=True, places=2, validate=NON_NEGATIVE)


class PricesSchema(SourcedSchema):
    sourced = ("hours_per_month", "term_discounts", "support_tiers")

    currency = fields.String(required=True, validate=iso_4217)
    hours_per_month = Count(required=True, validate=POSITIVE)
    term_discounts = fields.Dict(
        keys=fields.String(validate=TEXT), values=DecimalString(validate=DISCOUNT),
        required=True, validate=validate.Length(min=1, error="must offer at least one term"))
    support_tiers = fields.Dict(
        keys=fields.String(validate=TEXT), values=DecimalString(validate=DISCOUNT),
        required=True, validate=validate.Length(min=1, error="must offer at least one tier"))
    # Lists are checked entry by entry below so an error can name the entry.
    servers = fields.List(fields.Raw(), required=True)
    fabric_per_node = fields.List(fields.Raw(), required=True)
    storage = fields.Nested(StoragePriceSchema, required=True)

    @validates_schema
    def _offered(self, data: dict, **kwargs: Any) -> None:
        # The API offers these terms and tiers; each needs its discount or rate here.
        for name, offered in (("term_discounts", TERMS), ("support_tiers", SUPPORT_TIERS)):
            if name in data and set(data[name]) != set(offered):
                raise ValidationError(f"must give exactly {', '.join(offered)}", field_name=name)


class StockSchema(StrictSchema):
    """Nodes on hand now, and nodes on order that arrive `lead_time_days` after an order."""

    server = fields.String(required=True, validate=TEXT)
    available_nodes = Count(required=True, validate=NON_NEGATIVE)
    arriving_nodes = Count(required=True, validate=NON_NEGATIVE)
    lead_time_days = Count(required=True, validate=NON_NEGATIVE)


class RegionSchema(SourcedSchema):
    sourced = ("stock",)

    id = fields.String(required=True, validate=KEBAB)
    name = fields.String(required=True, validate=TEXT)
    country = fields.String(required=True, validate=COUNTRY)
    stock = fields.List(fields.Nested(StockSchema), required=True)


class CurrenciesSchema(SourcedSchema):
    sourced = ("rates",)

    base = fields.String(required=True, validate=iso_4217)
    rates_date = IsoDate(required=True)
    rates = fields.Dict(keys=fields.String(validate=iso_4217),
                        values=DecimalString(validate=POSITIVE), required=True)
    minor_units = fields.Dict(
        keys=fields.String(validate=iso_4217),
        values=Count(validate=validate.Range(min=0, max=4, error="must be 0 to 4")),
        required=True)

    @validates_schema
    def _consistent(self, data: dict, **kwargs: Any) -> None:
        base, rates, minor = data["base"], data["rates"], data["minor_units"]
        if base in rates and rates[base] != 1:
            raise ValidationError(f"the base currency {base} must convert at 1",
                                  field_name=f"rates.{base}")
        for code in [base, *rates]:
            if code not in minor:
                raise ValidationError(f"no minor units for {code}",
                                      field_name=f"minor_units.{code}")


COUNTRY_CODE = fields.String(validate=COUNTRY)


class TaxesSchema(StrictSchema):
    """Tax rate and name by the customer's country, and the reverse-charge area; all sourced."""

    rates = fields.Dict(keys=COUNTRY_CODE, values=DecimalString(validate=DISCOUNT), required=True)
    names = fields.Dict(keys=COUNTRY_CODE, values=fields.String(validate=TEXT), required=True)
    reverse_charge_countries = fields.List(COUNTRY_CODE, required=True)
    # A VAT id's prefix where it is not the country's code (Greece's EL).
    vat_id_prefixes = fields.Dict(keys=COUNTRY_CODE, values=fields.String(
        validate=validate.Regexp(r"^[A-Z]{2}$")), load_default=dict)
    sources = fields.Dict(keys=fields.String(), values=fields.String(validate=TEXT), required=True)

    @validates_schema
    def _sourced(self, data: dict, **kwargs: Any) -> None:
        for country in data["rates"]:
            if country not in data["sources"]:
                raise ValidationError(f"no source given (add sources.{country})",
                                      field_name=f"rates.{country}")
            if country not in data["names"]:
                raise ValidationError(f"no tax name given (add names.{country})",
                                      field_name=f"rates.{country}")
        # What a business outside the reverse-charge area is charged is a rule of its own.
        rules = ["reverse_charge_countries", "business_outside_reverse_charge_area"]
        if data["vat_id_prefixes"]:
            rules.append("vat_id_prefixes")
        for rule in rules:
            if rule not in data["sources"]:
                raise ValidationError(f"no source given (add sources.{rule})",
                                      field_name=rule if rule in data else "sources")


class ProviderSchema(SourcedSchema):
    """Who makes the offer, as printed on quotes, and the terms and conditions."""

    sourced = ("terms",)

    name = fields.String(required=True, validate=TEXT)
    address = fields.List(fields.String(validate=TEXT), required=True,
                          validate=validate.Length(min=1, error="must have at least one line"))
    country = fields.String(required=True, validate=COUNTRY)
    vat_id = fields.String(required=True, validate=TEXT)
    email = fields.Email(required=True)
    phone = fields.String(required=True, validate=TEXT)
    website = fields.Url(required=True)
    terms = fields.List(fields.String(validate=TEXT), required=True,
                        validate=validate.Length(min=1, error="must state at least one term"))


class ConstantSchema(StrictSchema):
    """One model constant: a number, or numbers keyed by a name (e.g. by fabric kind)."""

    value = fields.Raw(required=True)
    unit = fields.String(required=True)
    source = fields.String(required=True, validate=TEXT)
    # Measurement rows (bench/accuracy) the value was fitted on, as a list, or per key of a
    # keyed value; `informed_by` names rows looked at when an estimate was chosen. The accuracy
    # harness counts both as rows the model was fitted on, never as check rows.
    fitted_on = fields.Raw()
    informed_by = fields.Raw()

    @validates_schema
    def _value_is_numeric(self, data: dict, **kwargs: Any) -> None:
        value = data["value"]

        def is_number(item: object) -> bool:
            return isinstance(item, (int, float)) and not isinstance(item, bool)

        if is_number(value):
            return
        if isinstance(value, dict) and value:
            for key, item in value.items():
                if not isinstance(key, str) or not is_number(item):
                    raise ValidationError(f"must map names to numbers, got {key!r}: {item!r}",
                                          field_name=f"value.{key}")
            return
        raise ValidationError(f"must be a number or a mapping of names to numbers, got {value!r}",
                              field_name="value")

    @validates_schema
    def _rows_named_per_value(self, data: dict, **kwargs: Any) -> None:
        value = data.get("value")
        if not isinstance(value, (int, float, dict)) or isinstance(value, bool):
            return  # _value_is_numeric says what is wrong with the value
        for name in ("fitted_on", "informed_by"):
            rows = data.get(name)
            if rows is None:
                continue
            if isinstance(value, dict):
                if not isinstance(rows, dict) or not rows:
                    raise ValidationError("a keyed value names its rows per key",
                                          field_name=name)
                for key, listed in rows.items():
                    if key not in value:
                        raise ValidationError(f"'{key}' is not a key of the value",
                                              field_name=f"{name}.{key}")
                    self._rows(listed, f"{name}.{key}")
            else:
                self._rows(rows, name)
        if data.get("fitted_on") is not None and not isinstance(value, dict) \
                and data.get("source", "").lower().startswith("estimate"):
            raise ValidationError("a fitted value's source must say what it was fitted on",
                                  field_name="source")

    @staticmethod
    def _rows(listed: Any, where: str) -> None:
        try:
            MeasurementRows().deserialize(listed)
        except ValidationError as error:
            raise ValidationError(error.messages[0], field_name=where) from None


# ---------------------------------------------------------------------------------------------
# Reading.


class _UniqueKeyLoader(yaml.SafeLoader):
    """SafeLoader that refuses a key written twice in one mapping.

    Plain PyYAML keeps the last of two equal keys, so a pasted duplicate would silently replace
    a sourced figure.
    """


def _construct_mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode, deep: bool = False):
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"key {key!r} appears twice in one mapping", key_node.start_mark)
        seen.add(key)
    return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _load_yaml(path: Path) -> dict:
    name = path.name
    if not path.is_file():
        raise CatalogFileError(name, None, None, f"file not found in {path.parent}")
    try:
        document = yaml.load(path.read_text(encoding="utf-8"), Loader=_UniqueKeyLoader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = getattr(error, "problem", None) or str(error)
        raise CatalogFileError(name, None, None, f"not valid YAML: {where}{problem}") from None
    if not isinstance(document, dict):
        raise CatalogFileError(name, None, None, "must be a mapping at the top level")
    return document


def _first_error(messages: Any, path: str = "") -> tuple[str | None, str]:
    """Walk marshmallow's nested error messages to the first leaf: (field path, reason)."""
    if isinstance(messages, dict):
        key, inner = next(iter(messages.items()))
        if key == "_schema":
            step = path
        elif isinstance(key, int):
            step = f"{path}[{key}]"
        elif key in ("key", "value") and path and not isinstance(inner, dict):
            step = path  # marshmallow's Dict field reports "key"/"value"; the path already says it
        else:
            step = f"{path}.{key}" if path else str(key)
        return _first_error(inner, step)
    if isinstance(messages, list):
        if messages and isinstance(messages[0], (dict, list)):
            return _first_error(messages[0], path)
        reason = str(messages[0]) if messages else "invalid"
        return path or None, reason
    return path or None, str(messages)


def _validate(schema: Schema, data: Any, file: str, entry: str | None) -> dict:
    if not isinstance(data, dict):
        raise CatalogFileError(file, entry, None, f"must be a mapping, got {data!r}")
    try:
        return schema.load(data)
    except ValidationError as error:
        field, reason = _first_error(error.messages)
        if reason == "Unknown field.":
            reason = "unknown field"
        elif reason == "Missing data for required field.":
            reason = "missing required field"
        elif reason == "Field may not be null.":
            reason = "may not be null"
        raise CatalogFileError(file, entry, field, reason) from None


def _label(list_name: str, index: int, item: Any, keys: tuple[str, ...]) -> str:
    if isinstance(item, dict):
        named = [f"{key} {item[key]!r}" for key in keys if isinstance(item.get(key), str)]
        if named:
            return f"{list_name}[{index}] ({', '.join(named)})"
    return f"{list_name}[{index}]"


def _load_list(document: dict, file: str, list_name: str, schema: Schema,
               keys: tuple[str, ...] = ("id",)) -> list[tuple[str, dict]]:
    """Validate each entry of a top-level list, returning (label, entry) pairs."""
    items = document.get(list_name)
    if not isinstance(items, list):
        raise CatalogFileError(file, None, list_name, "must be a list")
    loaded = []
    for index, item in enumerate(items):
        label = _label(list_name, index, item, keys)
        loaded.append((label, _validate(schema, item, file, label)))
    return loaded


def _only_keys(document: dict, file: str, allowed: set[str]) -> None:
    for key in document:
        if key not in allowed:
            raise CatalogFileError(file, None, str(key), "unknown field")


def _unique_ids(entries: list[tuple[str, dict]], file: str) -> dict[str, dict]:
    by_id: dict[str, dict] = {}
    for label, entry in entries:
        if entry["id"] in by_id:
            raise CatalogFileError(file, label, "id", f"duplicate id '{entry['id']}'")
        by_id[entry["id"]] = entry
    return by_id


def read_catalog(data_dir: Path) -> dict:
    """Read and validate every catalog file in `data_dir`.

    Returns plain dicts and lists keyed by file:
    ``gpus``, ``servers``, ``fabrics``, ``regions`` (lists of entries), ``rdma`` (list of
    support entries), ``prices`` and ``currencies`` (the files' mappings) and ``model`` (the
    ``constants`` mapping). Money, tax rates, discounts and exchange rates are ``Decimal``.
    Raises ``CatalogFileError`` naming the file, entry and field of the first problem found.
    """
    data_dir = Path(data_dir)
    raw = {name: _load_yaml(data_dir / name) for name in FILES}

    # Each file on its own.
    _only_keys(raw["gpus.yaml"], "gpus.yaml", {"gpus"})
    gpu_entries = _load_list(raw["gpus.yaml"], "gpus.yaml", "gpus", GpuSchema())
    gpus = _unique_ids(gpu_entries, "gpus.yaml")

    _only_keys(raw["servers.yaml"], "servers.yaml", {"servers"})
    server_entries = _load_list(raw["servers.yaml"], "servers.yaml", "servers", ServerSchema())
    servers = _unique_ids(server_entries, "servers.yaml")

    _only_keys(raw["fabrics.yaml"], "fabrics.yaml", {"fabrics"})
    fabric_entries = _load_list(raw["fabrics.yaml"], "fabrics.yaml", "fabrics", FabricSchema())
    fabrics = _unique_ids(fabric_entries, "fabrics.yaml")

    _only_keys(raw["rdma.yaml"], "rdma.yaml", {"support"})
    support_entries = _load_list(raw["rdma.yaml"], "rdma.yaml", "support", RdmaSupportSchema(),
                                 keys=("server", "fabric"))

    _only_keys(raw["regions.yaml"], "regions.yaml", {"regions"})
    region_entries = _load_list(raw["regions.yaml"], "regions.yaml", "regions", RegionSchema())
    regions = _unique_ids(region_entries, "regions.yaml")

    currencies = _validate(CurrenciesSchema(), raw["currencies.yaml"], "currencies.yaml", None)

    prices = _validate(PricesSchema(), raw["prices.yaml"], "prices.yaml", None)
    price_entries = _load_list(raw["prices.yaml"], "prices.yaml", "servers", PriceSchema(),
                               keys=("server", "region"))
    fabric_price_entries = _load_list(raw["prices.yaml"], "prices.yaml", "fabric_per_node",
                                      FabricPriceSchema(), keys=("fabric",))

    _only_keys(raw["model.yaml"], "model.yaml", {"constants"})
    constants = raw["model.yaml"].get("constants")
    if not isinstance(constants, dict) or not constants:
        raise CatalogFileError("model.yaml", None, "constants", "must be a non-empty mapping")
    model = {str(name): _validate(ConstantSchema(), item, "model.yaml", f"constants.{name}")
             for name, item in constants.items()}
    policy = _constants(raw["policy.yaml"], "policy.yaml")
    reliability = _constants(raw["reliability.yaml"], "reliability.yaml")
    uncertainty = _constants(raw["uncertainty.yaml"], "uncertainty.yaml")
    taxes = _validate(TaxesSchema(), raw["taxes.yaml"], "taxes.yaml", None)
    provider = _validate(ProviderSchema(), raw["provider.yaml"], "provider.yaml", None)

    # Cross references, in the order the data depends on each other.
    for label, server in server_entries:
        if server["gpu"] not in gpus:
            raise CatalogFileError("servers.yaml", label, "gpu", f"unknown GPU '{server['gpu']}'")

    _check_rdma(support_entries, servers, fabrics, gpus)
    _check_regions(region_entries, servers)
    _check_prices(prices, price_entries, fabric_price_entries, servers, regions, fabrics,
                  currencies)

    prices["servers"] = [entry for _, entry in price_entries]
    prices["fabric_per_node"] = [entry for _, entry in fabric_price_entries]
    return {
        "gpus": [entry for _, entry in gpu_entries],
        "servers": [entry for _, entry in server_entries],
        "fabrics": [entry for _, entry in fabric_entries],
        "rdma": [entry for _, entry in support_entries],
        "prices": prices,
        "regions": [entry for _, entry in region_entries],
        "currencies": currencies,
        "model": model,
        "policy": policy,
        "reliability": reliability,
        "uncertainty": uncertainty,
        "taxes": taxes,
        "provider": provider,
    }


def _constants(raw: dict, file: str) -> dict:
    """A `constants:` mapping of name -> {value, unit, source}, each validated."""
    _only_keys(raw, file, {"constants"})
    constants = raw.get("constants")
    if not isinstance(constants, dict) or not constants:
        raise CatalogFileError(file, None, "constants", "must be a non-empty mapping")
    return {str(name): _validate(ConstantSchema(), item, file, f"constants.{name}")
            for name, item in constants.items()}


def _check_rdma(entries: list[tuple[str, dict]], servers: dict, fabrics: dict, gpus: dict) -> None:
    file = "rdma.yaml"
    seen: set[tuple[str, str]] = set()
    for label, entry in entries:
        server = servers.get(entry["server"])
        if server is None:
            raise CatalogFileError(file, label, "server", f"unknown server '{entry['server']}'")
        fabric = fabrics.get(entry["fabric"])
        if fabric is None:
            raise CatalogFileError(file, label, "fabric", f"unknown fabric '{entry['fabric']}'")
        pair = (entry["server"], entry["fabric"])
        if pair in seen:
            raise CatalogFileError(file, label, "fabric", "pair listed twice")
        seen.add(pair)
        if not entry["supported"]:
            continue

        nic = next((n for n in server["nics"] if n["model"] == entry["nic"]), None)
        if nic is None:
            raise CatalogFileError(file, label, "nic",
                                   f"server '{server['id']}' has no NIC '{entry['nic']}'")
        if entry["nics_used"] > nic["count"]:
            raise CatalogFileError(file, label, "nics_used",
                                   f"server has only {nic['count']} x {nic['model']}")
        protocol = "infiniband" if fabric["kind"] == "infiniband" else "ethernet"
        if protocol not in nic["protocols"]:
            raise CatalogFileError(file, label, "supported",
                                   f"{nic['model']} does not speak {protocol}")
        # A link trains to the slower end, so the port runs at the lower of the two rates.
        expected_rate = min(nic["rate_gbps"], fabric["line_rate_gbps"])
        if entry["port_rate_gbps"] != expected_rate:
            raise CatalogFileError(file, label, "port_rate_gbps",
                                   f"must be {expected_rate:g}: min(NIC {nic['rate_gbps']:g}, "
                                   f"fabric line rate {fabric['line_rate_gbps']:g})")
        if nic["rate_gbps"] < fabric["line_rate_gbps"] and not entry["reason"]:
            raise CatalogFileError(file, label, "reason",
                                   "the NIC is slower than the fabric: say that it caps the port")
        if entry["rdma"] and not fabric["rdma"]:
            raise CatalogFileError(file, label, "rdma",
                                   f"fabric '{fabric['id']}' has no RDMA transport")
        gpu = gpus[server["gpu"]]
        if entry["gpudirect_rdma"] and not gpu["gpudirect_rdma"]:
            raise CatalogFileError(file, label, "gpudirect_rdma",
                                   f"GPU '{gpu['id']}' does not support GPUDirect RDMA")

    for server_id in servers:
        for fabric_id in fabrics:
            if (server_id, fabric_id) not in seen:
                raise CatalogFileError(file, None, "support",
                                       f"no entry for server '{server_id}' on fabric '{fabric_id}'")


def _check_regions(entries: list[tuple[str, dict]], servers: dict) -> None:
    for label, region in entries:
        stocked: set[str] = set()
        for index, stock in enumerate(region["stock"]):
            if stock["server"] not in servers:
                raise CatalogFileError("regions.yaml", label, f"stock[{index}].server",
                                       f"unknown server '{stock['server']}'")
            if stock["server"] in stocked:
                raise CatalogFileError("regions.yaml", label, f"stock[{index}].server",
                                       f"server '{stock['server']}' listed twice")
            stocked.add(stock["server"])


def _check_prices(prices: dict, entries: list[tuple[str, dict]],
                  fabric_entries: list[tuple[str, dict]], servers: dict, regions: dict,
                  fabrics: dict, currencies: dict) -> None:
    file = "prices.yaml"
    if prices["currency"] != currencies["base"]:
        raise CatalogFileError(file, None, "currency",
                               f"prices are in {prices['currency']} but currencies.yaml's base "
                               f"is {currencies['base']}")
    hours = prices["hours_per_month"]
    seen: set[tuple[str, str]] = set()
    for label, entry in entries:
        if entry["server"] not in servers:
            raise CatalogFileError(file, label, "server", f"unknown server '{entry['server']}'")
        if entry["region"] not in regions:
            raise CatalogFileError(file, label, "region", f"unknown region '{entry['region']}'")
        pair = (entry["server"], entry["region"])
        if pair in seen:
            raise CatalogFileError(file, label, "region", "server priced twice in this region")
        seen.add(pair)
        # A committed month must never cost more than the same hours bought on demand.
        ceiling = entry["hourly_usd"] * hours
        if entry["monthly_usd"] > ceiling:
            raise CatalogFileError(file, label, "monthly_usd",
                                   f"{entry['monthly_usd']} is above hours_per_month x hourly_usd "
                                   f"= {ceiling}")
    for server_id in servers:
        for region_id in regions:
            if (server_id, region_id) not in seen:
                raise CatalogFileError(file, None, "servers",
                                       f"no price for server '{server_id}' in region '{region_id}'")

    priced: set[str] = set()
    for label, entry in fabric_entries:
        if entry["fabric"] not in fabrics:
            raise CatalogFileError(file, label, "fabric", f"unknown fabric '{entry['fabric']}'")
        if entry["fabric"] in priced:
            raise CatalogFileError(file, label, "fabric", "fabric priced twice")
        priced.add(entry["fabric"])
    for fabric_id in fabrics:
        if fabric_id not in priced:
            raise CatalogFileError(file, None, "fabric_per_node",
                                   f"no price for fabric '{fabric_id}'")


# ---------------------------------------------------------------------------------------------
# Reference systems: the machines of published measurements, for the accuracy harness.


class ReferenceSystemSchema(SourcedSchema):
    """A measured machine: GPUs per node, its compute NICs and the fabric joining the nodes."""

    sourced = ("gpu", "gpus_per_node", "nics_per_node", "nic_rate_gbps", "gpudirect_rdma",
               "fabric")

    id = fields.String(required=True, validate=KEBAB)
    name = fields.String(required=True, validate=TEXT)
    gpu = fields.String(required=True, validate=TEXT)
    gpus_per_node = Count(required=True, validate=POSITIVE)
    nics_per_node = Count(required=True, validate=POSITIVE)
    nic_rate_gbps = Figure(required=True, validate=POSITIVE)
    pcie_gen = Count(required=True, validate=validate.Range(min=3, max=6, error="must be 3 to 6"))
    gpudirect_rdma = Flag(required=True)
    fabric = fields.String(required=True, validate=TEXT)


def read_reference_systems(data_dir: Path, catalog: dict | None = None) -> dict:
    """Read and validate reference_systems.yaml against the catalog in `data_dir`.

    Returns ``gpus``, ``fabrics`` and ``systems`` (lists of entries). A reference GPU or fabric
    may not reuse a catalog id; a system must name a GPU and a fabric of the catalog or of this
    file. Raises ``CatalogFileError`` naming the file, entry and field of the first problem.
    """
    data_dir = Path(data_dir)
    catalog = catalog if catalog is not None else read_catalog(data_dir)
    file = REFERENCE_FILE
    raw = _load_yaml(data_dir / file)
    _only_keys(raw, file, {"gpus", "fabrics", "systems"})
    gpu_entries = _load_list(raw, file, "gpus", ReferenceGpuSchema())
    fabric_entries = _load_list(raw, file, "fabrics", FabricPhysicsSchema())
    system_entries = _load_list(raw, file, "systems", ReferenceSystemSchema())
    gpus = _unique_ids(gpu_entries, file)
    fabrics = _unique_ids(fabric_entries, file)
    _unique_ids(system_entries, file)
    for entries, sold, what in ((gpu_entries, catalog["gpus"], "GPU"),
                                (fabric_entries, catalog["fabrics"], "fabric")):
        sold_ids = {entry["id"] for entry in sold}
        for label, entry in entries:
            if entry["id"] in sold_ids:
                raise CatalogFileError(file, label, "id",
                                       f"'{entry['id']}' is a catalog {what}: use that entry")
    known_gpus = gpus.keys() | {entry["id"] for entry in catalog["gpus"]}
    known_fabrics = fabrics.keys() | {entry["id"] for entry in catalog["fabrics"]}
    for label, system in system_entries:
        if system["gpu"] not in known_gpus:
            raise CatalogFileError(file, label, "gpu", f"unknown GPU '{system['gpu']}'")
        if system["fabric"] not in known_fabrics:
            raise CatalogFileError(file, label, "fabric", f"unknown fabric '{system['fabric']}'")
    return {
        "gpus": [entry for _, entry in gpu_entries],
        "fabrics": [entry for _, entry in fabric_entries],
        "systems": [entry for _, entry in system_entries],
    }
