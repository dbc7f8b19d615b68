"""``serve``'s reload streams: idle ones sleep until a rebuild, and there are only so many."""

from __future__ import annotations

import http.client
import io
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mcpdesc_docs.devserver import handler
from mcpdesc_docs.devserver.overlay import EVENTS_PATH
from mcpdesc_docs.devserver.server import DevServer

from .test_devserver import FakeBuilder


class CountedCondition(threading.Condition):
    """The server's lock, counting how often a waiter went to sleep on it."""

    def __init__(self) -> None:
        super().__init__()
        self.waits = 0

    def wait(self, timeout: float | None = None) -> bool:
        self.waits += 1  # under the lock, as every wait is
        return super().wait(timeout)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[DevServer]:
    served = DevServer(FakeBuilder(tmp_path), port=0, err=io.StringIO())
    served._lock = CountedCondition()
    assert served.rebuild()
    served.start_http()
    yield served
    served.close()


def open_stream(server: DevServer) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    connection = http.client.HTTPConnection(server.host, server.port, timeout=10)
    connection.request("GET", f"{EVENTS_PATH}?state={server.state_token}")
    return connection, connection.getresponse()


def settle(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_idle_streams_sleep_until_a_rebuild_wakes_them(server):
    lock = server._lock
    streams = [open_stream(server) for _ in range(5)]
    for _, response in streams:
        assert response.status == 200
        assert response.readline() == b"retry: 500\n"
    settle(lambda: lock.waits >= 5)
    time.sleep(1.0)  # a window for polls to show in the count (they were every 0.2 s)
    assert lock.waits == 5  # one sleep each, no wake-up to check for a shutdown
    assert server.rebuild()
    for connection, response in streams:
        response.readline()
        assert response.readline() == b"event: change\n"
        connection.close()
    assert lock.waits == 5


def test_streams_beyond_the_cap_get_503_and_hold_no_thread(server, monkeypatch):
    monkeypatch.setattr(handler, "MAX_EVENT_STREAMS", 3)
    server.close()
    capped = DevServer(FakeBuilder(server.builder.root), port=0, err=io.StringIO())
    try:
        assert capped.rebuild()
        capped.start_http()
        threads_before = threading.active_count()
        streams = [open_stream(capped) for _ in range(3)]
        assert [response.status for _, response in streams] == [200] * 3
        refused = []
        for _ in range(20):
            connection, response = open_stream(capped)
            assert response.status == 503
            assert response.getheader("Connection") == "close"
            assert response.read() == b"Too many reload streams\n"
            refused.append(connection)
        # The refused requests' threads end with their connections: three streams, three threads.
        settle(lambda: threading.active_count() <= threads_before + 3)
        for connection in refused:
            connection.close()
        assert capped.rebuild()  # the streams end with the change event and free their slots
        for connection, response in streams:
            response.read()
            connection.close()
        again = [open_stream(capped) for _ in range(3)]
        assert [response.status for _, response in again] == [200] * 3
        for connection, _ in again:
            connection.close()
    finally:
        capped.close()
