#!/usr/bin/python3
"""SSIP client used by the ServerTests: drives one scenario against a private
speech-dispatcher and prints what happened, one record per line, for the Swift
test to assert on.

Run with Debian's /usr/bin/python3 (python3-speechd). The server address comes
from SPEECHD_ADDRESS. Every wait has a deadline; on expiry the script prints
`error <what>` and exits 2 (the Swift side then prints the server logs).

Output lines (fields separated by one space):
  event <msg_id> <type> [<mark>]   every SSIP event received, in arrival order
                                   (type: begin end cancel pause resume index_marks)
  action <name> [<msg_id>]         what the script did (speak, cancel, pause, resume)
  done                             the scenario ran to its end
  error <text>                     a deadline expired or the client failed

Events are recorded from the connection's raw event callback, so nothing is
lost to python3-speechd's per-message callback registration race, and events
that arrive after a message's END/CANCEL are still seen.

Usage: session.py SCENARIO TIMEOUT_SECONDS TEXT...
Scenarios:
  marks  TEXT        SSML message, wait for END/CANCEL, then listen for a quiet period
  voice-marks VOICE TEXT  the same, spoken by the synthesis voice VOICE (set_synthesis_voice)
  speak  TEXT        text message, wait for END/CANCEL, then listen for a quiet period
  cancel LONG SHORT  text message LONG, cancel after BEGIN, wait for CANCEL, listen for
                     a quiet period, then speak SHORT and wait for its END
  pause  TEXT        text message, pause after BEGIN, wait for PAUSE, resume, wait for
                     END, then listen for a quiet period
  replay FIRST LONG SHORT COMMAND...
                     text message FIRST to its END; LONG, and after its BEGIN run COMMAND
                     (`utter history --replay 2`: FIRST again), printing `action command
                     <status>`; wait for LONG's CANCEL/END, then speak SHORT at once (while
                     the replay plays) and wait for its END, then listen for a quiet period
"""

import subprocess
import sys
import threading
import time

import speechd

from ssip_client import connect, fail, finish

TIMEOUT = 20.0  # per wait, seconds; set from argv[2]
QUIET = 1.0  # seconds to keep listening after a terminal event


class Recorder:
    def __init__(self):
        self.cond = threading.Condition()
        self.events = []  # (msg_id, type, mark)

    def __call__(self, msg_id, client_id, event_type, index_mark=None):
        with self.cond:
            self.events.append((msg_id, event_type, index_mark))
            line = "event %d %s" % (msg_id, event_type)
            if index_mark is not None:
                line += " " + index_mark
            print(line, flush=True)
            self.cond.notify_all()

    def wait_for(self, msg_id, types, what):
        deadline = time.monotonic() + TIMEOUT
        with self.cond:
            while True:
                for (m, t, _) in self.events:
                    if m == msg_id and t in types:
                        return t
                left = deadline - time.monotonic()
                if left <= 0:
                    fail("timeout after %.1f s waiting for %s of message %d" % (TIMEOUT, what, msg_id))
                self.cond.wait(left)

    def count(self, msg_id, event_type):
        with self.cond:
            return sum(1 for (m, t, _) in self.events if m == msg_id and t == event_type)


def action(name, msg_id=None):
    print("action %s%s" % (name, "" if msg_id is None else " %d" % msg_id), flush=True)


def speak(client, text):
    code, msg, data = client.speak(text)
    msg_id = int(data[0])
    action("speak", msg_id)
    return msg_id


def quiet_period():
    time.sleep(QUIET)


def main():
    global TIMEOUT
    if len(sys.argv) < 4:
        fail("usage: session.py SCENARIO TIMEOUT_SECONDS TEXT...")
    scenario = sys.argv[1]
    TIMEOUT = float(sys.argv[2])
    args = sys.argv[3:]
    recorder = Recorder()
    client = connect("utter-tests", recorder)

    if scenario in ("marks", "speak"):
        client.set_data_mode(speechd.DataMode.SSML if scenario == "marks" else speechd.DataMode.TEXT)
        msg = speak(client, args[0])
        recorder.wait_for(msg, ("end", "cancel"), "END")
        quiet_period()
    elif scenario == "voice-marks":
        # args: the synthesis voice's name, then SSML with marks, spoken by that voice
        client.set_synthesis_voice(args[0])
        client.set_data_mode(speechd.DataMode.SSML)
        msg = speak(client, args[1])
        recorder.wait_for(msg, ("end", "cancel"), "END")
        quiet_period()
    elif scenario == "cancel":
        client.set_data_mode(speechd.DataMode.TEXT)
        msg = speak(client, args[0])
        recorder.wait_for(msg, ("begin",), "BEGIN")
        client.cancel()
        action("cancel", msg)
        recorder.wait_for(msg, ("cancel", "end"), "CANCEL")
        quiet_period()
        msg2 = speak(client, args[1])
        recorder.wait_for(msg2, ("end", "cancel"), "END")
        quiet_period()
    elif scenario == "pause":
        client.set_data_mode(speechd.DataMode.TEXT)
        msg = speak(client, args[0])
        recorder.wait_for(msg, ("begin",), "BEGIN")
        client.pause()
        action("pause", msg)
        recorder.wait_for(msg, ("pause", "end", "cancel"), "PAUSE")
        time.sleep(0.5)
        client.resume()
        action("resume", msg)
        recorder.wait_for(msg, ("end", "cancel"), "END")
        quiet_period()
    elif scenario == "replay":
        client.set_data_mode(speechd.DataMode.TEXT)
        first = speak(client, args[0])
        recorder.wait_for(first, ("end", "cancel"), "END")
        msg = speak(client, args[1])
        recorder.wait_for(msg, ("begin",), "BEGIN")
        status = subprocess.run(args[3:], timeout=TIMEOUT).returncode
        action("command %d" % status)
        recorder.wait_for(msg, ("cancel", "end"), "CANCEL")
        msg2 = speak(client, args[2])
        recorder.wait_for(msg2, ("end", "cancel"), "END")
        quiet_period()
    else:
        fail("unknown scenario " + scenario)

    finish(client)


if __name__ == "__main__":
    main()
