from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.what_if_option import WhatIfOption





T = TypeVar("T", bound="FabricVsMoreGpus")



@_attrs_define
class FabricVsMoreGpus:
    """ 
        Attributes:
            currency (str):
            more_nodes (None | WhatIfOption):
            more_nodes_unavailable (None | str):
            sentence (str):
            upgrade (None | WhatIfOption):
            upgrade_unavailable (None | str):
     """

    currency: str
    more_nodes: None | WhatIfOption
    more_nodes_unavailable: None | str
    sentence: str
    upgrade: None | WhatIfOption
    upgrade_unavailable: None | str





    def to_dict(self) -> dict[str, Any]:
        from ..models.what_if_option import WhatIfOption # noqa: PLC0415
        currency = self.currency

        more_nodes: dict[str, Any] | None
        if isinstance(self.more_nodes, WhatIfOption):
            more_nodes = self.more_nodes.to_dict()
        else:
            more_nodes = self.more_nodes

        more_nodes_unavailable: None | str
        more_nodes_unavailable = self.more_nodes_unavailable

        sentence = self.sentence

        upgrade: dict[str, Any] | None
        if isinstance(self.upgrade, WhatIfOption):
            upgrade = self.upgrade.to_dict()
        else:
            upgrade = self.upgrade

        upgrade_unavailable: None | str
        upgrade_unavailable = self.upgrade_unavailable


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "currency": currency,
            "more_nodes": more_nodes,
            "more_nodes_unavailable": more_nodes_unavailable,
            "sentence": sentence,
            "upgrade": upgrade,
            "upgrade_unavailable": upgrade_unavailable,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.what_if_option import WhatIfOption # noqa: PLC0415
        d = dict(src_dict)
        currency = d.pop("currency")

        def _parse_more_nodes(data: object) -> None | WhatIfOption:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                more_nodes_type_0 = WhatIfOption.from_dict(data)



                return more_nodes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | WhatIfOption, data)

        more_nodes = _parse_more_nodes(d.pop("more_nodes"))


        def _parse_more_nodes_unavailable(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        more_nodes_unavailable = _parse_more_nodes_unavailable(d.pop("more_nodes_unavailable"))


        sentence = d.pop("sentence")

        def _parse_upgrade(data: object) -> None | WhatIfOption:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                upgrade_type_0 = WhatIfOption.from_dict(data)



                return upgrade_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | WhatIfOption, data)

        upgrade = _parse_upgrade(d.pop("upgrade"))


        def _parse_upgrade_unavailable(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        upgrade_unavailable = _parse_upgrade_unavailable(d.pop("upgrade_unavailable"))


        fabric_vs_more_gpus = cls(
            currency=currency,
            more_nodes=more_nodes,
            more_nodes_unavailable=more_nodes_unavailable,
            sentence=sentence,
            upgrade=upgrade,
            upgrade_unavailable=upgrade_unavailable,
        )

        return fabric_vs_more_gpus

