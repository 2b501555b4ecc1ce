from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.what_if_option import WhatIfOption





T = TypeVar("T", bound="NetworkUpgrade")



@_attrs_define
class NetworkUpgrade:
    """ 
        Attributes:
            option (WhatIfOption):
            sentence (str):
            what (str): What changes: lossless, SHARP, the spine or the fabric
     """

    option: WhatIfOption
    sentence: str
    what: str





    def to_dict(self) -> dict[str, Any]:
        from ..models.what_if_option import WhatIfOption # noqa: PLC0415
        option = self.option.to_dict()

        sentence = self.sentence

        what = self.what


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "option": option,
            "sentence": sentence,
            "what": what,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.what_if_option import WhatIfOption # noqa: PLC0415
        d = dict(src_dict)
        option = WhatIfOption.from_dict(d.pop("option"))




        sentence = d.pop("sentence")

        what = d.pop("what")

        network_upgrade = cls(
            option=option,
            sentence=sentence,
            what=what,
        )

        return network_upgrade

