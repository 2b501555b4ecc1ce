from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.quote import Quote
from ...models.quote_request import QuoteRequest
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: QuoteRequest,
    client_secret: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(client_secret, Unset):
        headers["Client-Secret"] = client_secret

    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/quotes",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Quote | None:
    if response.status_code == 201:
        response_201 = Quote.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())



        return response_403

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())



        return response_409

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
    *,
    client: AuthenticatedClient,
    body: QuoteRequest,
    client_secret: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Response[Problem | Quote]:
    """ Quote a sizing's configuration or an explicit one

     A publishable key quotes a sizing it made, with the client_secret the sizing's creation returned, in
    the Client-Secret header as on every route that reads the sizing (or, as before, in
    sizing_client_secret; both, differing, are a 422 naming sizing_client_secret).

    Args:
        client_secret (str | Unset):
        idempotency_key (str | Unset):
        body (QuoteRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Quote]
     """


    kwargs = _get_kwargs(
        body=body,
client_secret=client_secret,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: QuoteRequest,
    client_secret: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Problem | Quote | None:
    """ Quote a sizing's configuration or an explicit one

     A publishable key quotes a sizing it made, with the client_secret the sizing's creation returned, in
    the Client-Secret header as on every route that reads the sizing (or, as before, in
    sizing_client_secret; both, differing, are a 422 naming sizing_client_secret).

    Args:
        client_secret (str | Unset):
        idempotency_key (str | Unset):
        body (QuoteRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Quote
     """


    return sync_detailed(
        client=client,
body=body,
client_secret=client_secret,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: QuoteRequest,
    client_secret: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Response[Problem | Quote]:
    """ Quote a sizing's configuration or an explicit one

     A publishable key quotes a sizing it made, with the client_secret the sizing's creation returned, in
    the Client-Secret header as on every route that reads the sizing (or, as before, in
    sizing_client_secret; both, differing, are a 422 naming sizing_client_secret).

    Args:
        client_secret (str | Unset):
        idempotency_key (str | Unset):
        body (QuoteRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Quote]
     """


    kwargs = _get_kwargs(
        body=body,
client_secret=client_secret,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: QuoteRequest,
    client_secret: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Problem | Quote | None:
    """ Quote a sizing's configuration or an explicit one

     A publishable key quotes a sizing it made, with the client_secret the sizing's creation returned, in
    the Client-Secret header as on every route that reads the sizing (or, as before, in
    sizing_client_secret; both, differing, are a 422 naming sizing_client_secret).

    Args:
        client_secret (str | Unset):
        idempotency_key (str | Unset):
        body (QuoteRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Quote
     """


    return (await asyncio_detailed(
        client=client,
body=body,
client_secret=client_secret,
idempotency_key=idempotency_key,

    )).parsed
