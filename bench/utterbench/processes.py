"""Starting, waiting for and ending the processes a benchmark runs: every process started through
spawn() is ended by its PID in cleanup(), never by name (other developers' benchmarks and tests
run on the same machine)."""

import os
import sys
import signal
import subprocess
import time

STARTED = []  # every Popen spawn() started, ended by PID in cleanup()


class BenchError(Exception):
    """A step of a benchmark failed; the figures measured before it are kept."""


def spawn(argv, env, logpath=None, **kw):
    """Starts argv in a session of its own, stdout and stderr to logpath (or nowhere)."""
    out = open(logpath, "wb") if logpath else subprocess.DEVNULL
    p = subprocess.Popen(argv, env=env, stdout=kw.pop("stdout", out), stderr=out,
                         stdin=kw.pop("stdin", subprocess.DEVNULL), start_new_session=True, **kw)
    STARTED.append(p)
    return p


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def children_of(root):
    """Every descendant of root (PIDs), from /proc."""
    parent = {}
    for e in os.listdir("/proc"):
        if e.isdigit():
            try:
                with open("/proc/%s/stat" % e) as f:
                    parent[int(e)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    out, frontier = [], {root}
    while frontier:
        nxt = [p for p, pp in parent.items() if pp in frontier]
        out += nxt
        frontier = set(nxt)
    return out


def stop_process(p, grace=3.0):
    """SIGTERM, then SIGKILL after `grace` seconds; by PID only."""
    if p.poll() is not None:
        return
    try:
        p.send_signal(signal.SIGTERM)
        p.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        p.kill()
        try:
            p.wait(timeout=3)
        except subprocess.TimeoutExpired:
            pass


def cleanup():
    """Ends every process spawn() started that still runs, the newest first."""
    for p in reversed(STARTED):
        stop_process(p, 2.0)


def wait_until(cond, timeout, what, poll=0.005):
    """Polls cond() until it returns something true, and returns that."""
    deadline = time.monotonic() + timeout
    while True:
        v = cond()
        if v:
            return v
        if time.monotonic() > deadline:
            raise BenchError("timeout after %.1f s waiting for %s" % (timeout, what))
        time.sleep(poll)


def module_environment(*binaries):
    """Exits unless every binary is executable; the environment a module is spawned with (ours,
    without ALSA_CONFIG_PATH, so that each run's HOME/.asoundrc decides the device)."""
    for b in binaries:
        if not os.access(b, os.X_OK):
            sys.exit("not executable: %s" % b)
    env = dict(os.environ)
    env.pop("ALSA_CONFIG_PATH", None)
    return env
