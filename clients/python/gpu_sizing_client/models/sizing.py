from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.sizing_origin import SizingOrigin
from ..models.sizing_status import SizingStatus
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.sizing_error import SizingError
  from ..models.sizing_request import SizingRequest
  from ..models.sizing_result import SizingResult





T = TypeVar("T", bound="Sizing")



@_attrs_define
class Sizing:
    """ 
        Attributes:
            created_at (datetime.datetime):
            id (str):
            origin (SizingOrigin): page: made with a publishable key (the website's form), so from a visitor; api: with a
                secret key
            progress (float): 0 to 1
            request (SizingRequest):
            status (SizingStatus):
            catalog_version (int | None | Unset):
            client_secret (str | Unset): Only in the answer that created the object (and its idempotent replays): with a
                publishable key, send it in the Client-Secret header to read the object back; it is not shown again
            error (None | SizingError | Unset): Why it failed (when failed)
            finished_at (datetime.datetime | None | Unset):
            result (None | SizingResult | Unset): Ranked configurations, network advice, efficiency series (when succeeded)
            started_at (datetime.datetime | None | Unset):
     """

    created_at: datetime.datetime
    id: str
    origin: SizingOrigin
    progress: float
    request: SizingRequest
    status: SizingStatus
    catalog_version: int | None | Unset = UNSET
    client_secret: str | Unset = UNSET
    error: None | SizingError | Unset = UNSET
    finished_at: datetime.datetime | None | Unset = UNSET
    result: None | SizingResult | Unset = UNSET
    started_at: datetime.datetime | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.sizing_error import SizingError # noqa: PLC0415
        from ..models.sizing_request import SizingRequest # noqa: PLC0415
        from ..models.sizing_result import SizingResult # noqa: PLC0415
        created_at = self.created_at.isoformat()

        id = self.id

        origin = self.origin.value

        progress = self.progress

        request = self.request.to_dict()

        status = self.status.value

        catalog_version: int | None | Unset
        if isinstance(self.catalog_version, Unset):
            catalog_version = UNSET
        else:
            catalog_version = self.catalog_version

        client_secret = self.client_secret

        error: dict[str, Any] | None | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        elif isinstance(self.error, SizingError):
            error = self.error.to_dict()
        else:
            error = self.error

        finished_at: None | str | Unset
        if isinstance(self.finished_at, Unset):
            finished_at = UNSET
        elif isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        result: dict[str, Any] | None | Unset
        if isinstance(self.result, Unset):
            result = UNSET
        elif isinstance(self.result, SizingResult):
            result = self.result.to_dict()
        else:
            result = self.result

        started_at: None | str | Unset
        if isinstance(self.started_at, Unset):
            started_at = UNSET
        elif isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "created_at": created_at,
            "id": id,
            "origin": origin,
            "progress": progress,
            "request": request,
            "status": status,
        })
        if catalog_version is not UNSET:
            field_dict["catalog_version"] = catalog_version
        if client_secret is not UNSET:
            field_dict["client_secret"] = client_secret
        if error is not UNSET:
            field_dict["error"] = error
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at
        if result is not UNSET:
            field_dict["result"] = result
        if started_at is not UNSET:
            field_dict["started_at"] = started_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sizing_error import SizingError # noqa: PLC0415
        from ..models.sizing_request import SizingRequest # noqa: PLC0415
        from ..models.sizing_result import SizingResult # noqa: PLC0415
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = d.pop("id")

        origin = SizingOrigin(d.pop("origin"))




        progress = d.pop("progress")

        request = SizingRequest.from_dict(d.pop("request"))




        status = SizingStatus(d.pop("status"))




        def _parse_catalog_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        catalog_version = _parse_catalog_version(d.pop("catalog_version", UNSET))


        client_secret = d.pop("client_secret", UNSET)

        def _parse_error(data: object) -> None | SizingError | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = SizingError.from_dict(data)



                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SizingError | Unset, data)

        error = _parse_error(d.pop("error", UNSET))


        def _parse_finished_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)



                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        finished_at = _parse_finished_at(d.pop("finished_at", UNSET))


        def _parse_result(data: object) -> None | SizingResult | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                result_type_0 = SizingResult.from_dict(data)



                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SizingResult | Unset, data)

        result = _parse_result(d.pop("result", UNSET))


        def _parse_started_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)



                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        started_at = _parse_started_at(d.pop("started_at", UNSET))


        sizing = cls(
            created_at=created_at,
            id=id,
            origin=origin,
            progress=progress,
            request=request,
            status=status,
            catalog_version=catalog_version,
            client_secret=client_secret,
            error=error,
            finished_at=finished_at,
            result=result,
            started_at=started_at,
        )

        return sizing

