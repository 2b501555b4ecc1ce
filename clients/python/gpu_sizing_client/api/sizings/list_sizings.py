from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.list_sizings_origin import ListSizingsOrigin
from ...models.list_sizings_status import ListSizingsStatus
from ...models.problem import Problem
from ...models.sizing_page import SizingPage
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    status: ListSizingsStatus | Unset = UNSET,
    origin: ListSizingsOrigin | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["cursor"] = cursor

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    json_origin: str | Unset = UNSET
    if not isinstance(origin, Unset):
        json_origin = origin.value

    params["origin"] = json_origin


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/sizings",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | SizingPage | None:
    if response.status_code == 200:
        response_200 = SizingPage.from_dict(response.json())



        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())



        return response_403

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | SizingPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    status: ListSizingsStatus | Unset = UNSET,
    origin: ListSizingsOrigin | Unset = UNSET,

) -> Response[Problem | SizingPage]:
    """ The account's sizings, newest first, by cursor (secret keys only)

     Every sizing of the account, including those the page's publishable key made (`origin: page`). A
    publishable key lists nothing.

    Args:
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):
        status (ListSizingsStatus | Unset):
        origin (ListSizingsOrigin | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SizingPage]
     """


    kwargs = _get_kwargs(
        limit=limit,
cursor=cursor,
status=status,
origin=origin,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    status: ListSizingsStatus | Unset = UNSET,
    origin: ListSizingsOrigin | Unset = UNSET,

) -> Problem | SizingPage | None:
    """ The account's sizings, newest first, by cursor (secret keys only)

     Every sizing of the account, including those the page's publishable key made (`origin: page`). A
    publishable key lists nothing.

    Args:
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):
        status (ListSizingsStatus | Unset):
        origin (ListSizingsOrigin | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SizingPage
     """


    return sync_detailed(
        client=client,
limit=limit,
cursor=cursor,
status=status,
origin=origin,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    status: ListSizingsStatus | Unset = UNSET,
    origin: ListSizingsOrigin | Unset = UNSET,

) -> Response[Problem | SizingPage]:
    """ The account's sizings, newest first, by cursor (secret keys only)

     Every sizing of the account, including those the page's publishable key made (`origin: page`). A
    publishable key lists nothing.

    Args:
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):
        status (ListSizingsStatus | Unset):
        origin (ListSizingsOrigin | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SizingPage]
     """


    kwargs = _get_kwargs(
        limit=limit,
cursor=cursor,
status=status,
origin=origin,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    status: ListSizingsStatus | Unset = UNSET,
    origin: ListSizingsOrigin | Unset = UNSET,

) -> Problem | SizingPage | None:
    """ The account's sizings, newest first, by cursor (secret keys only)

     Every sizing of the account, including those the page's publishable key made (`origin: page`). A
    publishable key lists nothing.

    Args:
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):
        status (ListSizingsStatus | Unset):
        origin (ListSizingsOrigin | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SizingPage
     """


    return (await asyncio_detailed(
        client=client,
limit=limit,
cursor=cursor,
status=status,
origin=origin,

    )).parsed
