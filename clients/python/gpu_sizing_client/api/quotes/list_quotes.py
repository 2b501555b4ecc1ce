from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.list_quotes_origin import ListQuotesOrigin
from ...models.list_quotes_status import ListQuotesStatus
from ...models.problem import Problem
from ...models.quote_page import QuotePage
from ...types import UNSET, Unset
from typing import cast
import datetime



def _get_kwargs(
    *,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    status: ListQuotesStatus | Unset = UNSET,
    origin: ListQuotesOrigin | Unset = UNSET,
    created_from: datetime.datetime | Unset = UNSET,
    created_to: datetime.datetime | Unset = UNSET,

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

    json_created_from: str | Unset = UNSET
    if not isinstance(created_from, Unset):
        json_created_from = created_from.isoformat()
    params["created_from"] = json_created_from

    json_created_to: str | Unset = UNSET
    if not isinstance(created_to, Unset):
        json_created_to = created_to.isoformat()
    params["created_to"] = json_created_to


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/quotes",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | QuotePage | None:
    if response.status_code == 200:
        response_200 = QuotePage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | QuotePage]:
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
    status: ListQuotesStatus | Unset = UNSET,
    origin: ListQuotesOrigin | Unset = UNSET,
    created_from: datetime.datetime | Unset = UNSET,
    created_to: datetime.datetime | Unset = UNSET,

) -> Response[Problem | QuotePage]:
    """ The account's quotes, newest first, filtered, by cursor (secret keys only)

     Every quote of the account, including the quote requests the page's publishable key made (`origin:
    page`). A publishable key lists nothing.

    Args:
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):
        status (ListQuotesStatus | Unset):
        origin (ListQuotesOrigin | Unset):
        created_from (datetime.datetime | Unset):
        created_to (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | QuotePage]
     """


    kwargs = _get_kwargs(
        limit=limit,
cursor=cursor,
status=status,
origin=origin,
created_from=created_from,
created_to=created_to,

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
    status: ListQuotesStatus | Unset = UNSET,
    origin: ListQuotesOrigin | Unset = UNSET,
    created_from: datetime.datetime | Unset = UNSET,
    created_to: datetime.datetime | Unset = UNSET,

) -> Problem | QuotePage | None:
    """ The account's quotes, newest first, filtered, by cursor (secret keys only)

     Every quote of the account, including the quote requests the page's publishable key made (`origin:
    page`). A publishable key lists nothing.

    Args:
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):
        status (ListQuotesStatus | Unset):
        origin (ListQuotesOrigin | Unset):
        created_from (datetime.datetime | Unset):
        created_to (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | QuotePage
     """


    return sync_detailed(
        client=client,
limit=limit,
cursor=cursor,
status=status,
origin=origin,
created_from=created_from,
created_to=created_to,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    status: ListQuotesStatus | Unset = UNSET,
    origin: ListQuotesOrigin | Unset = UNSET,
    created_from: datetime.datetime | Unset = UNSET,
    created_to: datetime.datetime | Unset = UNSET,

) -> Response[Problem | QuotePage]:
    """ The account's quotes, newest first, filtered, by cursor (secret keys only)

     Every quote of the account, including the quote requests the page's publishable key made (`origin:
    page`). A publishable key lists nothing.

    Args:
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):
        status (ListQuotesStatus | Unset):
        origin (ListQuotesOrigin | Unset):
        created_from (datetime.datetime | Unset):
        created_to (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | QuotePage]
     """


    kwargs = _get_kwargs(
        limit=limit,
cursor=cursor,
status=status,
origin=origin,
created_from=created_from,
created_to=created_to,

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
    status: ListQuotesStatus | Unset = UNSET,
    origin: ListQuotesOrigin | Unset = UNSET,
    created_from: datetime.datetime | Unset = UNSET,
    created_to: datetime.datetime | Unset = UNSET,

) -> Problem | QuotePage | None:
    """ The account's quotes, newest first, filtered, by cursor (secret keys only)

     Every quote of the account, including the quote requests the page's publishable key made (`origin:
    page`). A publishable key lists nothing.

    Args:
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):
        status (ListQuotesStatus | Unset):
        origin (ListQuotesOrigin | Unset):
        created_from (datetime.datetime | Unset):
        created_to (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | QuotePage
     """


    return (await asyncio_detailed(
        client=client,
limit=limit,
cursor=cursor,
status=status,
origin=origin,
created_from=created_from,
created_to=created_to,

    )).parsed
