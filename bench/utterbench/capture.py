"""Recording what a sink plays, timed on arrival, and reading sound files."""

import array
import bisect
import os
import subprocess
import threading
import time
import wave

from .analysis import LOUD, RATE
from .processes import BenchError, spawn, wait_until
from .soundserver import SINK
from .statistics import median, percentile


class Monitor:
    """parec on the null sink's monitor; every chunk is timestamped on arrival."""

    def __init__(self, env, logpath, timeout):
        self.timeout = timeout
        self.data = bytearray()
        self.arrivals = array.array("d")  # time.monotonic() of each chunk
        self.ends = array.array("q")      # sample count after each chunk
        self.lock = threading.Lock()
        self.p = spawn(["parec", "-d", SINK + ".monitor", "--rate=%d" % RATE, "--channels=1",
                        "--format=s16le", "--latency-msec=5", "--raw"], env, None,
                       stdout=subprocess.PIPE)
        self.errlog = logpath
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        wait_until(lambda: self.count() > RATE // 5, timeout, "the monitor's first 200 ms")

    def _read(self):
        fd = self.p.stdout.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return
            now = time.monotonic()
            if not chunk:
                return
            with self.lock:
                self.data += chunk
                self.arrivals.append(now)
                self.ends.append(len(self.data) // 2)

    def count(self):
        with self.lock:
            return len(self.data) // 2

    def samples(self, n0, n1):
        with self.lock:
            n1 = min(n1, len(self.data) // 2)
            if n1 <= n0:
                return array.array("h")
            return array.array("h", bytes(self.data[2 * n0:2 * n1]))

    def offset_near_sample(self, n):
        with self.lock:
            lo = bisect.bisect_left(self.ends, n - 2 * RATE)
            hi = bisect.bisect_right(self.ends, n + 2 * RATE)
            if hi <= lo:
                lo, hi = max(0, len(self.ends) - 200), len(self.ends)
            # The null sink wakes when everything it rendered is due, and renders the next block
            # (due from now to now + block) at once; the monitor hands parec that block in one
            # chunk. So a chunk's FIRST sample is due (heard) when the chunk is rendered, and the
            # lower envelope of (arrival - first sample / rate) is the sink clock's offset.
            return min(self.arrivals[i] - self.ends[i - 1] / RATE for i in range(max(1, lo), hi))

    def time_of(self, n):
        """Wall-clock (monotonic) time at which the sink's clock reached sample n: heard."""
        return n / RATE + self.offset_near_sample(n)

    def sample_at(self, t):
        """Index of the sample heard at time t."""
        with self.lock:
            i = bisect.bisect_left(self.arrivals, t)
            i = min(max(i, 0), len(self.arrivals) - 1)
            n = self.ends[i]
        off = self.offset_near_sample(n)
        return max(0, int(round((t - off) * RATE)))

    def resolution(self):
        """Chunk arrival jitter around the lower envelope (ms): median, p95; chunk size (ms)."""
        with self.lock:
            k = len(self.arrivals)
            pts = [(self.arrivals[i], self.ends[i]) for i in range(max(1, k - 4000), k)]
        starts = [(pts[i][0], pts[i - 1][1]) for i in range(1, len(pts))]
        off = min(t - n / RATE for t, n in starts)
        lags = [1000 * (t - n / RATE - off) for t, n in starts]  # delivery lag above the envelope
        sizes = [1000.0 * (pts[i][1] - pts[i - 1][1]) / RATE for i in range(1, len(pts))]
        return median(lags), percentile(lags, 95), median(sizes)

    # -- waiting in real time
    def first_loud(self, n0, timeout, what):
        """Waits for the first audible sample at or after n0; returns its index."""
        deadline = time.monotonic() + timeout
        pos = n0
        while True:
            s = self.samples(pos, self.count())
            for i, v in enumerate(s):
                if v >= LOUD or v <= -LOUD:
                    return pos + i
            pos += len(s)
            if time.monotonic() > deadline:
                raise BenchError("no audible sample for %.1f s (%s)" % (timeout, what))
            time.sleep(0.002)

    def end_of_sound(self, n0, quiet_ms, timeout, what):
        """Waits until the monitor was silent for quiet_ms; returns the index just after the last
        audible sample at or after n0 (n0 if none)."""
        deadline = time.monotonic() + timeout
        quiet = int(quiet_ms * RATE / 1000)
        last_end = n0
        pos = n0
        while True:
            s = self.samples(pos, self.count())
            for i in range(len(s) - 1, -1, -1):
                v = s[i]
                if v >= LOUD or v <= -LOUD:
                    last_end = pos + i + 1
                    break
            pos += len(s)
            if pos - last_end >= quiet:
                return last_end
            if time.monotonic() > deadline:
                raise BenchError("still sound after %.1f s (%s)" % (timeout, what))
            time.sleep(0.005)

    def wait_heard(self, n, timeout, what):
        wait_until(lambda: self.count() >= n, timeout, what, poll=0.002)

    def recent_loud(self, ms=8):
        c = self.count()
        s = self.samples(max(0, c - int(ms * RATE / 1000)), c)
        return any(v >= LOUD or v <= -LOUD for v in s)


def wait_for_bytes(path, after, deadline, poll):
    """Waits until the file at path (an ALSA `file` device's output) holds more than `after`
    bytes; returns when (time.monotonic()), or None at the deadline."""
    while True:
        try:
            if os.path.getsize(path) > after:
                return time.monotonic()
        except OSError:
            pass
        if time.monotonic() > deadline:
            return None
        time.sleep(poll)


def seconds_of(path):
    """The length of a WAV file, s."""
    with wave.open(path, "rb") as w:
        return w.getnframes() / float(w.getframerate())


def raw_samples(path):
    """A raw s16le file's samples."""
    with open(path, "rb") as f:
        data = f.read()
    return array.array("h", data[:len(data) // 2 * 2])
