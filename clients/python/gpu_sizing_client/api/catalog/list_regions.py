from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.region import Region
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    version: int | Unset = UNSET,
    server: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match



    

    params: dict[str, Any] = {}

    params["version"] = version

    params["server"] = server


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/catalog/regions",
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | list[Region] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in (_response_200):
            response_200_item = Region.from_dict(response_200_item_data)



            response_200.append(response_200_item)

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Problem | list[Region]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    version: int | Unset = UNSET,
    server: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | Problem | list[Region]]:
    """ Regions with stock and lead times

    Args:
        version (int | Unset):
        server (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | list[Region]]
     """


    kwargs = _get_kwargs(
        version=version,
server=server,
if_none_match=if_none_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    version: int | Unset = UNSET,
    server: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | Problem | list[Region] | None:
    """ Regions with stock and lead times

    Args:
        version (int | Unset):
        server (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | list[Region]
     """


    return sync_detailed(
        client=client,
version=version,
server=server,
if_none_match=if_none_match,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    version: int | Unset = UNSET,
    server: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | Problem | list[Region]]:
    """ Regions with stock and lead times

    Args:
        version (int | Unset):
        server (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | list[Region]]
     """


    kwargs = _get_kwargs(
        version=version,
server=server,
if_none_match=if_none_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    version: int | Unset = UNSET,
    server: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | Problem | list[Region] | None:
    """ Regions with stock and lead times

    Args:
        version (int | Unset):
        server (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | list[Region]
     """


    return (await asyncio_detailed(
        client=client,
version=version,
server=server,
if_none_match=if_none_match,

    )).parsed
