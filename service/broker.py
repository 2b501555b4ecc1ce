"""The broker's transport: kombu's Redis transport, publishing on one client per channel."""

from __future__ import annotations

from kombu.transport import redis


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
