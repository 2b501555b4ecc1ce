from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.sizing import Sizing
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    sizing_id: UUID,
    *,
    client_secret: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(client_secret, Unset):
        headers["Client-Secret"] = client_secret



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sizings/{sizing_id}/cancel".format(sizing_id=quote(str(sizing_id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Sizing | None:
    if response.status_code == 200:
        response_200 = Sizing.from_dict(response.json())



        return response_200

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | Sizing]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    sizing_id: UUID,
    *,
    client: AuthenticatedClient,
    client_secret: str | Unset = UNSET,

) -> Response[Problem | Sizing]:
    """ Cancel a queued or running sizing

    Args:
        sizing_id (UUID):
        client_secret (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Sizing]
     """


    kwargs = _get_kwargs(
        sizing_id=sizing_id,
client_secret=client_secret,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    sizing_id: UUID,
    *,
    client: AuthenticatedClient,
    client_secret: str | Unset = UNSET,

) -> Problem | Sizing | None:
    """ Cancel a queued or running sizing

    Args:
        sizing_id (UUID):
        client_secret (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Sizing
     """


    return sync_detailed(
        sizing_id=sizing_id,
client=client,
client_secret=client_secret,

    ).parsed

async def asyncio_detailed(
    sizing_id: UUID,
    *,
    client: AuthenticatedClient,
    client_secret: str | Unset = UNSET,

) -> Response[Problem | Sizing]:
    """ Cancel a queued or running sizing

    Args:
        sizing_id (UUID):
        client_secret (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Sizing]
     """


    kwargs = _get_kwargs(
        sizing_id=sizing_id,
client_secret=client_secret,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    sizing_id: UUID,
    *,
    client: AuthenticatedClient,
    client_secret: str | Unset = UNSET,

) -> Problem | Sizing | None:
    """ Cancel a queued or running sizing

    Args:
        sizing_id (UUID):
        client_secret (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Sizing
     """


    return (await asyncio_detailed(
        sizing_id=sizing_id,
client=client,
client_secret=client_secret,

    )).parsed
