"""bench/symbol-order: writes packaging/sd_utter.order, the functions sd_utter runs in everyday
work, which the release link puts side by side at the start of its code (Package.swift: lld's
--symbol-ordering-file, with every Swift target compiled into one section per function).

Why: sd_utter is one static binary of about 9 MB of code and read-only data. The kernel maps a
file's cached pages 64 KiB at a time around each page touched (fault-around), so code run here
and there across the binary made most of it resident: on an English message through ALSA 6.3 MiB
of the binary was resident, while the code run (75,000 instructions in 1,751 functions) lay on 521
pages (2.0 MiB) in 73 windows of 64 KiB. Laid out together they fill a few hundred kilobytes.

How: sd_utter (a release build, debug sections stripped for valgrind 3.19, which cannot read
DWARF 5) runs under callgrind through the sessions below, driven over the module protocol as
speech-dispatcher drives it: English text and SSML with marks and a STOP in a long message, on
ALSA (an unpaced null device), on PulseAudio through libpulse and on PipeWire through libpipewire
(private servers), then the same on ALSA with Japanese with kanji too. Every function of the binary
callgrind saw run is written, grouped by the sessions that ran it, so that each session's code
lies together: first what ALSA runs and one sound server too (or not), then what every session runs,
then what both sound servers run, then each one's own, then what Japanese alone adds. (Sorted by
name together, the functions one English message on ALSA runs were spread over the 2 MiB of all
of them, nearly all of it resident.) Within a group the names are sorted: a stable file, and a
function renamed later is only left out of the order, which lld ignores. The functions of the
order it replaces that the binary still has and were not seen this time go last. Needs valgrind.
Run it again when the code run in those sessions changes much.

Usage: bench/symbol-order [--output FILE] [SD_UTTER]  (default: .build/release/sd_utter)
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from . import ROOT
from .processes import BenchError, stop_process
from .protocol import SET_BLOCK, Module, speak, terminal
from .soundserver import start_pipewire, start_pulseaudio

ENGLISH = [
    ("en", "<speak>Hello, this is a test. <mark name=\"a\"/>One, two, <mark name=\"b\"/>three.</speak>"),
    ("en", "Plain text, with punctuation: commas, and a question?"),
]
JAPANESE = [("ja", "<speak>それでは発表します。今日は良い天気です。</speak>")]
LONG = "<speak>" + " ".join("This is sentence number %d of a long text." % i for i in range(1, 200)) + "</speak>"


def executed_functions(profile, binary_name):
    """The functions of `binary_name` callgrind saw run (name compression resolved)."""
    objects, functions = {}, {}
    current_object, current_function = None, None
    found = set()

    def resolve(token, table):
        m = re.match(r"\((\d+)\)\s*(.*)", token)
        if not m:
            return token
        if m.group(2):
            table[m.group(1)] = m.group(2)
        return table.get(m.group(1), "")

    with open(profile) as f:
        for line in f:
            if line.startswith("ob="):
                current_object = resolve(line[3:].strip(), objects)
            elif line.startswith("fn="):
                current_function = resolve(line[3:].strip(), functions)
            elif line.startswith("cob="):
                resolve(line[4:].strip(), objects)
            elif line.startswith("cfn="):
                resolve(line[4:].strip(), functions)
            elif line[:1] in "0123456789+-*" and current_object and current_function:
                if os.path.basename(current_object) == binary_name:
                    found.add(current_function)
    return found


def symbol_names(functions, symbols):
    """`functions` as callgrind names them, as the link knows them: without the "'2" that marks a
    recursive call's level; what is no symbol of the binary (`symbols`: its function names) is left
    out: a bare address (code callgrind found no name for: a PLT stub or the like) and
    "(below main)"."""
    names = {re.sub(r"'\d+$", "", function) for function in functions}
    return names & symbols


def function_symbols(binary):
    """The names of the functions of `binary`."""
    listing = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True)
    fields = (line.split(None, 2) for line in listing.stdout.splitlines())
    return {f[2] for f in fields if len(f) == 3 and f[1] in "tTwW"}


def session(binary, wrapper, scratch, env, conf_text, method, messages, timeout):
    """One module run: `messages`, then a STOP 300 ms into a long one, then QUIT."""
    m = Module(binary, scratch, timeout, env, conf_text=conf_text, wrapper=wrapper)
    try:
        m.send("INIT\n")
        m.expect("299", "INIT reply")
        m.block("AUDIO", ["audio_output_method=" + method, "audio_alsa_device=utter_null",
                          "audio_pulse_device=default", "audio_pulse_min_length=10"], "AUDIO")
        m.expect("2", "AUDIO reply")
        m.send("LIST VOICES\n")
        m.reply("LIST VOICES reply")
        for language, text in messages:
            settings = [s if not s.startswith("language=") else "language=" + language for s in SET_BLOCK]
            speak(m, text, settings)
            m.wait_for(terminal, "end of a %s message" % language)
        speak(m, LONG)
        time.sleep(0.3)
        m.send("STOP\n")
        m.wait_for(terminal, "703 after STOP")
        m.send("QUIT\n")
        m.proc.wait(timeout=timeout)  # callgrind writes its profile as the module exits
    finally:
        m.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary", nargs="?", default=os.path.join(ROOT, ".build/release/sd_utter"))
    ap.add_argument("--output", default=os.path.join(ROOT, "packaging/sd_utter.order"))
    ap.add_argument("--timeout", type=float, default=120.0, help="deadline for every wait under valgrind (s)")
    args = ap.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("needs valgrind (apt install valgrind)")

    top = tempfile.mkdtemp(prefix="utter-order-")
    stripped = os.path.join(top, "sd_utter")
    subprocess.run(["strip", "--strip-debug", "-o", stripped, args.binary], check=True)
    symbols = function_symbols(stripped)
    daemons = []
    try:
        routes = [("alsa", "")]
        # PulseAudio through libpulse.
        pulse_rt = os.path.join(top, "pulse-rt")
        os.makedirs(pulse_rt, mode=0o700)
        pulse_socket = os.path.join(pulse_rt, "native")
        daemons.append(start_pulseaudio(dict(os.environ, HOME=top, XDG_RUNTIME_DIR=pulse_rt), pulse_socket,
                                        os.path.join(top, "pulseaudio.log"), 15))
        routes.append(("pulse", "unix:" + pulse_socket))
        # PipeWire through libpipewire.
        pw_home = os.path.join(top, "pw-home")
        pw_rt = os.path.join(top, "pw-rt")
        os.makedirs(pw_home)
        os.makedirs(pw_rt, mode=0o700)
        pw_env = dict(os.environ, HOME=pw_home, XDG_RUNTIME_DIR=pw_rt)
        started, _, _ = start_pipewire(pw_home, pw_rt, pw_env, 15)
        daemons.extend(started)
        routes.append(("pipewire", pw_env))
        runs = {}
        for backend, where in routes + [("ja", "")]:
            scratch = tempfile.mkdtemp(prefix="session-", dir=top)
            env = dict(os.environ, HOME=scratch)
            for key in ("ALSA_CONFIG_PATH", "PULSE_SERVER", "PIPEWIRE_RUNTIME_DIR"):
                env.pop(key, None)
            conf_text = ""
            if backend in ("alsa", "ja"):
                with open(os.path.join(scratch, ".asoundrc"), "w") as f:
                    f.write("pcm.utter_null { type null }\n")
            elif backend == "pulse":
                env["PULSE_SERVER"] = where
                conf_text = "AudioBackend pulse\n"
            else:
                env.update({k: v for k, v in where.items() if k in (
                    "PIPEWIRE_RUNTIME_DIR", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS")})
                conf_text = "AudioBackend pipewire\n"
            profile = os.path.join(scratch, "callgrind.out")
            wrapper = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + profile, "--demangle=no",
                       "--log-file=" + os.path.join(scratch, "valgrind.log")]
            method = "alsa" if backend in ("alsa", "ja") else "pulse"
            session(stripped, wrapper, scratch, env, conf_text, method,
                    ENGLISH + JAPANESE if backend == "ja" else ENGLISH, args.timeout)
            deadline = time.monotonic() + args.timeout
            while not os.path.exists(profile) and time.monotonic() < deadline:
                time.sleep(0.2)
            seen = symbol_names(executed_functions(profile, "sd_utter"), symbols)
            print("%s: %d functions of sd_utter run" % (backend, len(seen)))
            if not seen:
                raise BenchError("callgrind saw no function of sd_utter run on %s (%s)" % (backend, profile))
            runs[backend] = seen
    finally:
        for daemon in daemons:
            stop_process(daemon)
        shutil.rmtree(top, ignore_errors=True)
    groups = grouped(runs)
    # What the order held before and the binary still has, not seen run this time (a path taken
    # now and then: a wait that timed out, a retry), follows at the end, still out of the way.
    seen = set().union(*groups)
    if os.path.exists(args.output):
        with open(args.output) as f:
            groups.append(sorted({line.strip() for line in f} & symbols - seen))
    with open(args.output, "w") as f:
        f.write("".join(name + "\n" for group in groups for name in group))
    print("%d functions written to %s, in groups of %s" % (
        sum(map(len, groups)), args.output, ", ".join(str(len(g)) for g in groups)))
    return 0


def grouped(runs):
    """The functions of `runs` (session -> the functions it ran) in the order they are laid out:
    groups by the English sessions that ran them, ALSA's next to the common ones and the sound
    servers' on the other side, then those of the Japanese session alone; names sorted in each."""
    english = ("alsa", "pulse", "pipewire")
    order = [
        {"alsa"}, {"alsa", "pipewire"}, {"alsa", "pulse"}, set(english),
        {"pulse", "pipewire"}, {"pulse"}, {"pipewire"},
    ]
    everything = set().union(*runs.values())
    by_sessions = {}
    for name in everything:
        key = frozenset(b for b in english if name in runs.get(b, ()))
        by_sessions.setdefault(key, []).append(name)
    groups = [sorted(by_sessions.pop(frozenset(key), [])) for key in order]
    groups.append(sorted(by_sessions.pop(frozenset(), [])))  # the Japanese session's own
    assert not by_sessions, by_sessions
    return groups
