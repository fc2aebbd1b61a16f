"""What the ServerTests' python3-speechd clients share: reporting a failure, connecting with a
raw event callback (so no event is lost to python3-speechd's per-message callback registration),
and finishing."""

import os
import sys

import speechd


def fail(text):
    print("error " + text, flush=True)
    sys.stdout.flush()
    # os._exit: do not wait for python3-speechd's reader thread.
    os._exit(2)


def connect(name, callback):
    """A client of the server at SPEECHD_ADDRESS that speaks through Utter; every event goes to
    `callback(msg_id, client_id, event_type, index_mark=None)`."""
    try:
        client = speechd.SSIPClient(name, autospawn=False)
    except Exception as e:  # noqa: BLE001 - report any connection failure
        fail("cannot connect: %r" % (e,))
    client._conn.set_callback(callback)
    client.set_output_module("utter")
    return client


def finish(client):
    """Prints `done` (the scenario ran to its end) and closes the connection."""
    print("done", flush=True)
    try:
        client.close()
    except Exception:  # noqa: BLE001 - closing is best effort
        pass
