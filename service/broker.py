"""The broker's transport: kombu's Redis transport, publishing on one client per channel; and
the task publisher that writes Celery's messages on it."""

from __future__ import annotations

import threading
from collections.abc import Mapping

from celery import Celery
from kombu.entity import PERSISTENT_DELIVERY_MODE
from kombu.serialization import dumps
from kombu.transport import redis
from kombu.utils.uuid import uuid


class Channel(redis.Channel):
    """kombu's Redis channel, without a new client for every message it publishes.

    kombu builds a redis-py client (and its table of some hundred response callbacks) each
    time it pushes a message, which cost a task's send more than the push itself. A client
    holds nothing but its connection pool and is safe to share between threads, so one per
    channel and pool serves every push; a pool kombu replaces (after a fork, on a reconnect)
    gets a client of its own.
    """

    _sync_client = None

    def _create_client(self, asynchronous=False):
        if asynchronous:
            return super()._create_client(asynchronous=True)
        client = self._sync_client
        if client is None or client.connection_pool is not self.pool:
            client = self._sync_client = super()._create_client(asynchronous=False)
        return client


class Transport(redis.Transport):
    Channel = Channel


# Celery's broker_transport: the URL still says where the broker is.
TRANSPORT = f"{__name__}:Transport"


class TaskPublisher:
    """Sends a task by name in the message Celery's `send_task` writes, at less than half its
    CPU (bench/request_profile.py times both: 0.08 against 0.18 ms of CPU per send).

    `send_task` spends most of a send on the router, the producer pool, kombu's queue
    declaration on every message and its retry wrapper, none of which a task sent by name to
    the one default queue needs (the app routes no task elsewhere: no task_routes). Here
    Celery builds the message (`create_task_message`, protocol 2), kombu's serializer encodes
    its body as kombu's producer does and kombu's channel pushes it (`prepare_message`,
    `basic_publish`): the same message on the same queue, which tests/service/test_broker.py
    holds to `send_task`'s. The push is the same LPUSH on the same client, so as durable.

    One channel per process, opened at the first send (after a server's fork) and shared by
    its threads: a push uses nothing of the channel but its Redis client (Channel above),
    which is thread-safe, and whose pool connects again by itself once the broker is back. A
    send that fails raises for the caller, which leaves its record to the dispatcher.
    """

    def __init__(self, celery: Celery):
        self._celery = celery
        self._lock = threading.Lock()
        # Held for as long as its channel is used: the channel belongs to it.
        self._connection = None
        self._channel: Channel | None = None

    def _open_channel(self) -> Channel:
        with self._lock:
            if self._channel is None:
                connection = self._celery.connection_for_write()
                try:
                    # Twice at once, as send_task's retry policy tried: kombu's defaults
                    # (default_channel's, and channel()'s two seconds between tries) would
                    # hold a request for seconds in an outage.
                    connection.ensure_connection(max_retries=1, interval_start=0,
                                                 interval_step=0.2)
                    self._channel = connection.channel()
                except BaseException:
                    connection.release()
                    raise
                self._connection = connection
            return self._channel

    def send(self, name: str, args: tuple, headers: Mapping[str, object]) -> None:
        celery = self._celery
        queue = celery.amqp.default_queue
        # The arguments are ids: their repr is what Celery's size-bounded saferepr would
        # make of them, at a fraction of its cost.
        argsrepr = repr(args)
        message = celery.amqp.create_task_message(
            uuid(), name, args, {}, reply_to=celery.thread_oid, ignore_result=None,
            argsrepr=argsrepr, kwargsrepr="{}")
        message.headers.update(headers)
        # What send_task's options add to the properties, and the queue's delivery mode.
        message.properties.update(argsrepr=argsrepr, kwargsrepr="{}",
                                  delivery_mode=PERSISTENT_DELIVERY_MODE)
        content_type, encoding, body = dumps(message.body, serializer=celery.conf.task_serializer)
        channel = self._channel or self._open_channel()
        # The default exchange: the routing key is the queue.
        channel.basic_publish(
            channel.prepare_message(body, 0, content_type, encoding, message.headers,
                                    message.properties),
            exchange="", routing_key=queue.name)
