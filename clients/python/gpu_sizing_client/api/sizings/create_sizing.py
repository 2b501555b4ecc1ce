from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.sizing import Sizing
from ...models.sizing_request import SizingRequest
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: SizingRequest,
    idempotency_key: str | Unset = UNSET,
    prefer: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    if not isinstance(prefer, Unset):
        headers["Prefer"] = prefer



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sizings",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Sizing | None:
    if response.status_code == 201:
        response_201 = Sizing.from_dict(response.json())



        return response_201

    if response.status_code == 202:
        response_202 = Sizing.from_dict(response.json())



        return response_202

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | Sizing]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: SizingRequest,
    idempotency_key: str | Unset = UNSET,
    prefer: str | Unset = UNSET,

) -> Response[Problem | Sizing]:
    """ Submit a workload questionnaire

     Before it is queued, a sizing's search size (server and fabric pairs x node counts x the parallel
    layouts whose degrees divide each GPU count) is checked against the key's allowance, and the
    account's sizings queued or running at once against its caps (429 too_many_active_sizings with
    Retry-After past them). `Prefer: wait=N` waits at most PREFER_WAIT_MAX_S, and only while the server
    has a wait slot free; Preference-Applied says when it waited. The values are in the Limits table of
    the API's description.

    Args:
        idempotency_key (str | Unset):
        prefer (str | Unset):
        body (SizingRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Sizing]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,
prefer=prefer,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: SizingRequest,
    idempotency_key: str | Unset = UNSET,
    prefer: str | Unset = UNSET,

) -> Problem | Sizing | None:
    """ Submit a workload questionnaire

     Before it is queued, a sizing's search size (server and fabric pairs x node counts x the parallel
    layouts whose degrees divide each GPU count) is checked against the key's allowance, and the
    account's sizings queued or running at once against its caps (429 too_many_active_sizings with
    Retry-After past them). `Prefer: wait=N` waits at most PREFER_WAIT_MAX_S, and only while the server
    has a wait slot free; Preference-Applied says when it waited. The values are in the Limits table of
    the API's description.

    Args:
        idempotency_key (str | Unset):
        prefer (str | Unset):
        body (SizingRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Sizing
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,
prefer=prefer,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: SizingRequest,
    idempotency_key: str | Unset = UNSET,
    prefer: str | Unset = UNSET,

) -> Response[Problem | Sizing]:
    """ Submit a workload questionnaire

     Before it is queued, a sizing's search size (server and fabric pairs x node counts x the parallel
    layouts whose degrees divide each GPU count) is checked against the key's allowance, and the
    account's sizings queued or running at once against its caps (429 too_many_active_sizings with
    Retry-After past them). `Prefer: wait=N` waits at most PREFER_WAIT_MAX_S, and only while the server
    has a wait slot free; Preference-Applied says when it waited. The values are in the Limits table of
    the API's description.

    Args:
        idempotency_key (str | Unset):
        prefer (str | Unset):
        body (SizingRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Sizing]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,
prefer=prefer,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: SizingRequest,
    idempotency_key: str | Unset = UNSET,
    prefer: str | Unset = UNSET,

) -> Problem | Sizing | None:
    """ Submit a workload questionnaire

     Before it is queued, a sizing's search size (server and fabric pairs x node counts x the parallel
    layouts whose degrees divide each GPU count) is checked against the key's allowance, and the
    account's sizings queued or running at once against its caps (429 too_many_active_sizings with
    Retry-After past them). `Prefer: wait=N` waits at most PREFER_WAIT_MAX_S, and only while the server
    has a wait slot free; Preference-Applied says when it waited. The values are in the Limits table of
    the API's description.

    Args:
        idempotency_key (str | Unset):
        prefer (str | Unset):
        body (SizingRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Sizing
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,
prefer=prefer,

    )).parsed
