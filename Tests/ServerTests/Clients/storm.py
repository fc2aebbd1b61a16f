#!/usr/bin/python3
"""Speak+cancel storm for the ServerTests: PAIRS messages, each cancelled after a
random delay (mostly under 30 ms, sometimes up to 330 ms, so some are cancelled
queued, some speaking, some finished), through a private speech-dispatcher (SPEECHD_ADDRESS).

Then it waits until every message has its terminal event and listens one more
second. It prints `summary <key>=<value>...` and, for each broken rule,
`error <text>`; `done` at the end. Exit 2 on a deadline or connection failure.

Usage: storm.py PAIRS TIMEOUT_SECONDS SEED
"""

import random
import sys
import threading
import time

import speechd

from ssip_client import connect, fail, finish

TEXTS = [
    "Yes.",
    "The storm goes on.",
    "A somewhat longer sentence that keeps the module busy for a while, so a cancel finds it speaking.",
    "Two sentences here. And the second one.",
]


def main():
    pairs, timeout, seed = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    cond = threading.Condition()
    events = {}  # msg_id -> [types]
    stray = []

    def record(msg_id, client_id, event_type, index_mark=None):
        with cond:
            if msg_id in events:
                events[msg_id].append(event_type)
            else:
                stray.append((msg_id, event_type))
            cond.notify_all()

    client = connect("utter-storm", record)
    client.set_data_mode(speechd.DataMode.TEXT)

    ids = []
    started = time.monotonic()
    for _ in range(pairs):
        # Registered before SPEAK is sent: an event can arrive before speak() returns.
        with cond:
            pending = len(ids)
        code, msg, data = client.speak(rng.choice(TEXTS))
        msg_id = int(data[0])
        with cond:
            events.setdefault(msg_id, [])
            # Events that raced ahead of the registration are moved over.
            for (m, t) in [s for s in stray if s[0] == msg_id]:
                events[msg_id].append(t)
            stray[:] = [s for s in stray if s[0] != msg_id]
        ids.append(msg_id)
        # Mostly at once (cancelled in the server's queue or as speech starts), sometimes later
        # (cancelled while the module speaks, or after the END of a short message).
        time.sleep(rng.random() * 0.03 if rng.random() < 0.7 else 0.03 + rng.random() * 0.3)
        client.cancel()
    sent = time.monotonic() - started

    deadline = time.monotonic() + timeout
    with cond:
        while not all(any(t in ("end", "cancel") for t in events[m]) for m in ids):
            left = deadline - time.monotonic()
            if left <= 0:
                missing = [m for m in ids if not any(t in ("end", "cancel") for t in events[m])]
                fail("no terminal event for %d messages after %.0f s, e.g. %s" % (len(missing), timeout, missing[:5]))
            cond.wait(left)
    time.sleep(1.0)

    with cond:
        ended = cancelled = spoke = 0
        for m in ids:
            types = events[m]
            terminals = [i for i, t in enumerate(types) if t in ("end", "cancel")]
            if len(terminals) != 1:
                print("error message %d has %d terminal events: %s" % (m, len(terminals), types), flush=True)
                continue
            if terminals[0] != len(types) - 1:
                print("error message %d has events after its terminal one: %s" % (m, types), flush=True)
            if types.count("begin") > 1:
                print("error message %d began %d times: %s" % (m, types.count("begin"), types), flush=True)
            if "begin" in types and types.index("begin") > terminals[0]:
                print("error message %d began after it ended: %s" % (m, types), flush=True)
            ended += types[terminals[0]] == "end"
            cancelled += types[terminals[0]] == "cancel"
            spoke += "begin" in types
        for (m, t) in stray:
            print("error event %s for message %d, which this client never sent" % (t, m), flush=True)
        print("summary pairs=%d ended=%d cancelled=%d began=%d seconds=%.1f" % (len(ids), ended, cancelled, spoke, sent),
              flush=True)
    finish(client)


if __name__ == "__main__":
    main()
