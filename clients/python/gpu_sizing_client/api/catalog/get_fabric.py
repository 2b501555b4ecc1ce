from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.fabric import Fabric
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    fabric_id: str,
    *,
    version: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match



    

    params: dict[str, Any] = {}

    params["version"] = version


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/catalog/fabrics/{fabric_id}".format(fabric_id=quote(str(fabric_id), safe=""),),
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Fabric | Problem | None:
    if response.status_code == 200:
        response_200 = Fabric.from_dict(response.json())



        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())



        return response_414

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())



        return response_429

    if response.status_code == 431:
        response_431 = Problem.from_dict(response.json())



        return response_431

    if response.status_code == 500:
        response_500 = Problem.from_dict(response.json())



        return response_500

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Fabric | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    fabric_id: str,
    *,
    client: AuthenticatedClient,
    version: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | Fabric | Problem]:
    """ One fabric SKU

    Args:
        fabric_id (str):
        version (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Fabric | Problem]
     """


    kwargs = _get_kwargs(
        fabric_id=fabric_id,
version=version,
if_none_match=if_none_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    fabric_id: str,
    *,
    client: AuthenticatedClient,
    version: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | Fabric | Problem | None:
    """ One fabric SKU

    Args:
        fabric_id (str):
        version (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Fabric | Problem
     """


    return sync_detailed(
        fabric_id=fabric_id,
client=client,
version=version,
if_none_match=if_none_match,

    ).parsed

async def asyncio_detailed(
    fabric_id: str,
    *,
    client: AuthenticatedClient,
    version: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | Fabric | Problem]:
    """ One fabric SKU

    Args:
        fabric_id (str):
        version (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Fabric | Problem]
     """


    kwargs = _get_kwargs(
        fabric_id=fabric_id,
version=version,
if_none_match=if_none_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    fabric_id: str,
    *,
    client: AuthenticatedClient,
    version: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | Fabric | Problem | None:
    """ One fabric SKU

    Args:
        fabric_id (str):
        version (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Fabric | Problem
     """


    return (await asyncio_detailed(
        fabric_id=fabric_id,
client=client,
version=version,
if_none_match=if_none_match,

    )).parsed
