"""`gpu-sizing size` has a flag for every field of the API's fixed layout, and sends only those given."""

from __future__ import annotations

import attrs
from gpu_sizing_client.models import FixedLayout

from gpu_sizing_cli import layouts
from gpu_sizing_cli.sizings import FLAG_OF_FIELD, size


def test_every_field_of_the_fixed_layout_has_its_flag():
    fields = {field.name for field in attrs.fields(FixedLayout)}
    flags = {option: param.name for param in size.params for option in param.opts}
    assert {name: flags.get("--" + name.replace("_", "-")) for name in fields} == {
        name: name for name in fields}
    # A problem the API names by the layout's pointer (/layout/tp) is named by its flag.
    assert {FLAG_OF_FIELD[f"layout.{name}"] for name in fields} == {
        "--" + name.replace("_", "-") for name in fields}


def test_only_the_layout_flags_given_are_sent_and_none_leave_the_search_free():
    arguments = {"tp": 4, "pp": None, "zero_stage": "1", "flash_attention": False,
                 "sequence_parallel": None, "tokens": 1e11}
    assert layouts.take_layout(arguments) == {"tp": 4, "zero_stage": 1, "flash_attention": False}
    assert arguments == {"tokens": 1e11}
    assert layouts.take_layout({"tokens": 1e11, "tp": None}) is None


def test_the_estimate_names_the_zero_stage_as_the_api_and_size_do():
    from gpu_sizing_cli.estimates import ESTIMATE_FLAGS, estimate

    (zero,) = [param for param in estimate.params if param.name == "zero_stage"]
    assert zero.opts == ["--zero-stage", "--zero"]
    assert ESTIMATE_FLAGS["layout.zero_stage"] == FLAG_OF_FIELD["layout.zero_stage"] == "--zero-stage"
