"""The broker's transport, for real against Redis: every send arrives, on one client per
channel, and a channel whose pool is replaced gets a client of the new pool."""

from __future__ import annotations

import json

import redis

from service.broker import Channel
from service.celery_app import send_task
from tests.conftest import build_app
from tests.settings import REDIS_HOST, REDIS_PORT


def test_sends_arrive_on_one_client_per_channel(tmp_path, monkeypatch):
    url = f"redis://{REDIS_HOST}:{REDIS_PORT}/12"
    broker = redis.Redis.from_url(url)
    broker.flushdb()
    app = build_app(f"sqlite:///{tmp_path / 'broker.sqlite3'}", redis_url=url,
                    tasks_eager=False, load_catalog=False)
    made = []
    create = Channel.__mro__[1]._create_client

    def counted(self, asynchronous=False):
        made.append(asynchronous)
        return create(self, asynchronous)

    monkeypatch.setattr(Channel.__mro__[1], "_create_client", counted)
    with app.app_context():
        for sizing_id in ("a", "b", "c"):
            assert send_task("tasks.run_sizing", sizing_id)
        # kombu's own channel makes one client per message; this one, one for the three.
        assert made.count(False) == 1
        with app.extensions["celery"].connection_for_write() as connection:
            channel = connection.default_channel
            assert isinstance(channel, Channel)
            first = channel._create_client()
            assert channel._create_client() is first
            channel._disconnect_pools()
            assert channel._create_client() is not first
    assert broker.llen("celery") == 3
    # Celery's protocol 2, as a worker reads it: the task, its id argument, its repr.
    headers = json.loads(broker.lindex("celery", -1))["headers"]
    assert headers["task"] == "tasks.run_sizing" and headers["argsrepr"] == "('a',)"
    broker.flushdb()


def test_a_task_is_the_message_celery_send_task_writes(tmp_path):
    url = f"redis://{REDIS_HOST}:{REDIS_PORT}/12"
    broker = redis.Redis.from_url(url)
    broker.flushdb()
    app = build_app(f"sqlite:///{tmp_path / 'broker.sqlite3'}", redis_url=url,
                    tasks_eager=False, load_catalog=False)
    celery = app.extensions["celery"]
    with app.app_context():
        assert send_task("tasks.run_sizing", "a")
        # Celery's own send, with the options service.celery_app gave it before the publisher.
        celery.send_task("tasks.run_sizing", args=("a",), headers={"request_id": None},
                         argsrepr="('a',)", kwargsrepr="{}")
    ours, celerys = (json.loads(m) for m in broker.lrange("celery", 0, -1)[::-1])
    broker.flushdb()
    # Every message has ids of its own; everything else is the same.
    for message in (ours, celerys):
        assert message["headers"].pop("id") == message["headers"].pop("root_id") \
            == message["properties"].pop("correlation_id")
        assert message["properties"].pop("delivery_tag")
    assert ours == celerys
