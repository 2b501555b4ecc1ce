from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.quote import Quote
from ...models.reprice_request import RepriceRequest
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    quote_id: UUID,
    *,
    body: RepriceRequest | Unset = UNSET,
    if_match: str,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["If-Match"] = if_match



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/quotes/{quote_id}/reprice".format(quote_id=quote(str(quote_id), safe=""),),
    }

    
    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Quote | None:
    if response.status_code == 200:
        response_200 = Quote.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())



        return response_409

    if response.status_code == 412:
        response_412 = Problem.from_dict(response.json())



        return response_412

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())



        return response_413

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())



        return response_414

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())



        return response_422

    if response.status_code == 428:
        response_428 = Problem.from_dict(response.json())



        return response_428

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | Quote]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    quote_id: UUID,
    *,
    client: AuthenticatedClient,
    body: RepriceRequest | Unset = UNSET,
    if_match: str,

) -> Response[Problem | Quote]:
    """ A new revision at the current catalog prices, showing the difference

     A quote already priced at the current catalog version is answered as it is, with the same ETag and
    no new revision.

    Args:
        quote_id (UUID):
        if_match (str):
        body (RepriceRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Quote]
     """


    kwargs = _get_kwargs(
        quote_id=quote_id,
body=body,
if_match=if_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    quote_id: UUID,
    *,
    client: AuthenticatedClient,
    body: RepriceRequest | Unset = UNSET,
    if_match: str,

) -> Problem | Quote | None:
    """ A new revision at the current catalog prices, showing the difference

     A quote already priced at the current catalog version is answered as it is, with the same ETag and
    no new revision.

    Args:
        quote_id (UUID):
        if_match (str):
        body (RepriceRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Quote
     """


    return sync_detailed(
        quote_id=quote_id,
client=client,
body=body,
if_match=if_match,

    ).parsed

async def asyncio_detailed(
    quote_id: UUID,
    *,
    client: AuthenticatedClient,
    body: RepriceRequest | Unset = UNSET,
    if_match: str,

) -> Response[Problem | Quote]:
    """ A new revision at the current catalog prices, showing the difference

     A quote already priced at the current catalog version is answered as it is, with the same ETag and
    no new revision.

    Args:
        quote_id (UUID):
        if_match (str):
        body (RepriceRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Quote]
     """


    kwargs = _get_kwargs(
        quote_id=quote_id,
body=body,
if_match=if_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    quote_id: UUID,
    *,
    client: AuthenticatedClient,
    body: RepriceRequest | Unset = UNSET,
    if_match: str,

) -> Problem | Quote | None:
    """ A new revision at the current catalog prices, showing the difference

     A quote already priced at the current catalog version is answered as it is, with the same ETag and
    no new revision.

    Args:
        quote_id (UUID):
        if_match (str):
        body (RepriceRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Quote
     """


    return (await asyncio_detailed(
        quote_id=quote_id,
client=client,
body=body,
if_match=if_match,

    )).parsed
