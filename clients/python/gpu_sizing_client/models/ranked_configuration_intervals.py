from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.interval import Interval





T = TypeVar("T", bound="RankedConfigurationIntervals")



@_attrs_define
class RankedConfigurationIntervals:
    """ p10-p90 of each headline figure from the model's error on published measurements by category (split-conformal,
    catalog/data/uncertainty.yaml), widened for an extrapolated configuration by a prior on the constants marked
    estimate; total: the price of a run of each end of time_to_train_hours's interval, billed by the term's rule, at the
    term, currency and prices of the document it is in (a quote's own, a re-priced quote's new ones), p10 rounded down
    and p90 up to 4 significant digits so that the range holds the total shown to the cent (a range of the model's
    uncertainty, not a charge)

     """

    additional_properties: dict[str, Interval] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.interval import Interval # noqa: PLC0415
        
        field_dict: dict[str, Any] = {}
        for prop_name, prop in self.additional_properties.items():
            field_dict[prop_name] = prop.to_dict()


        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.interval import Interval # noqa: PLC0415
        d = dict(src_dict)
        ranked_configuration_intervals = cls(
        )


        additional_properties = {}
        for prop_name, prop_dict in d.items():
            additional_property = Interval.from_dict(prop_dict)



            additional_properties[prop_name] = additional_property

        ranked_configuration_intervals.additional_properties = additional_properties
        return ranked_configuration_intervals

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Interval:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Interval) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
