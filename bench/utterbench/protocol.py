"""An output module (sd_utter, sd_espeak-ng) spawned directly and driven over the output-module
protocol on its stdin/stdout, the way speech-dispatcher 0.11.4 does it. Replies are read as a byte
stream, every line timestamped on arrival; every wait has a deadline."""

import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time

from .processes import BenchError

SET_BLOCK = [
    "pitch=0", "pitch_range=0", "rate=0", "volume=100", "punctuation_mode=none",
    "spelling_mode=off", "cap_let_recogn=none", "language=en-US", "voice=male1",
    "synthesis_voice=NULL",
]


class Module:
    """One module process with a reader thread that timestamps every line it writes."""

    def __init__(self, binary, scratch, timeout, env, conf_text="", wrapper=()):
        """`conf_text`: the module's configuration file; `wrapper`: a command that runs it (valgrind)."""
        self.timeout = timeout
        self.scratch = scratch
        conf = os.path.join(scratch, "module.conf")
        with open(conf, "w") as f:
            f.write(conf_text)
        self.log = open(os.path.join(scratch, "module.log"), "wb")
        self.lines = queue.Queue()
        self.t_spawn = time.monotonic()
        self.proc = subprocess.Popen(
            [*wrapper, binary, conf], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
            env=env, cwd=scratch, bufsize=0, start_new_session=True)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        buf = b""
        fd = self.proc.stdout.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            now = time.monotonic()
            if not chunk:
                self.lines.put((now, None))
                return
            buf += chunk
            while True:
                nl = buf.find(b"\n")
                if nl < 0:
                    break
                line, buf = buf[:nl], buf[nl + 1:]
                self.lines.put((now, line))

    def send(self, text):
        try:
            self.proc.stdin.write(text.encode("utf-8"))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise BenchError("write failed (%s): module exited? %s" % (e, self.tail_log()))
        return time.monotonic()

    def next_line(self, deadline, what):
        left = deadline - time.monotonic()
        if left <= 0:
            raise BenchError("timeout waiting for %s" % what)
        try:
            t, line = self.lines.get(timeout=left)
        except queue.Empty:
            raise BenchError("timeout waiting for %s" % what)
        if line is None:
            raise BenchError("module closed stdout while waiting for %s; %s" % (what, self.tail_log()))
        return t, line

    def reply(self, what, timeout=None):
        """Reads one reply (NNN-... lines then 'NNN text'); returns (time, code, lines)."""
        deadline = time.monotonic() + (timeout or self.timeout)
        lines = []
        while True:
            t, line = self.next_line(deadline, what)
            lines.append(line)
            if len(line) < 4 or line[3:4] != b"-":
                return t, line[:3].decode("ascii", "replace"), lines

    def expect(self, prefix, what):
        t, code, lines = self.reply(what)
        if not code.startswith(prefix):
            raise BenchError("%s: expected %s…, got %r" % (what, prefix, lines[-3:]))
        return t

    def wait_for(self, predicate, what, timeout=None):
        """Skips lines until predicate(line) is true; returns (time, line)."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            t, line = self.next_line(deadline, what)
            if predicate(line):
                return t, line

    def block(self, command, lines, what):
        self.send(command + "\n")
        t, code, _ = self.reply(what + " (ack)")
        if not code.startswith("2"):
            raise BenchError("%s refused at once: %s" % (what, code))
        self.send("".join(l + "\n" for l in lines))
        # The clock is read before the "." goes out: read after the write, it could come after a
        # fast module's reply, which the reader thread timestamps on arrival (sd_espeak-ng's first
        # audio once measured -0.9 ms).
        t = time.monotonic()
        self.send(".\n")
        return t

    def vmhwm_kib(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        raise BenchError("no VmHWM")

    def tail_log(self):
        try:
            self.log.flush()
            with open(self.log.name, "rb") as f:
                return "module log tail: " + f.read()[-600:].decode("utf-8", "replace")
        except OSError:
            return ""

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("QUIT\n")
                self.wait_for(lambda l: l.startswith(b"210"), "210 OK QUIT", timeout=3)
            except BenchError:
                pass
            try:
                self.proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        self.log.close()


def handshake(m, device):
    """INIT … LIST VOICES as speech-dispatcher 0.11.4 does; returns (startup s, server_audio)."""
    m.send("INIT\n")
    t, code, lines = m.reply("INIT reply")
    if not code.startswith("299"):
        raise BenchError("INIT failed: %r" % lines)
    startup = t - m.t_spawn
    m.block("AUDIO", ["audio_output_method=server"], "first AUDIO block")
    _, code, _ = m.reply("first AUDIO reply")
    server_audio = code.startswith("2")
    if not server_audio:
        m.block("AUDIO", [
            "audio_output_method=alsa", "audio_oss_device=/dev/dsp",
            "audio_alsa_device=" + device, "audio_nas_server=tcp/localhost:5450",
            "audio_pulse_device=default", "audio_pulse_min_length=10",
        ], "second AUDIO block")
        m.expect("2", "second AUDIO reply")
    m.block("LOGLEVEL", ["log_level=0"], "LOGLEVEL")
    m.expect("2", "LOGLEVEL reply")
    m.send("LIST VOICES\n")
    _, code, _ = m.reply("LIST VOICES reply")
    return startup, server_audio


def speak(m, text, settings=SET_BLOCK):
    """SET + SPEAK; returns the time just before the final '.' of the SPEAK block was written."""
    m.block("SET", settings, "SET")
    m.expect("2", "SET reply")
    t_sent = m.block("SPEAK", [l if not l.startswith(".") else "." + l for l in text.split("\n")],
                     "SPEAK")
    m.expect("2", "SPEAK reply (200 OK SPEAKING)")
    return t_sent


def terminal(line):
    """702 END, 703 STOP or 704 PAUSE: a message's last event."""
    return line[:3] in (b"702", b"703", b"704") and line[3:4] == b" "


def spawn_to_299(binary, timeout):
    """spawn with an empty configuration file, INIT sent at once -> "299 OK LOADED SUCCESSFULLY"
    (ms)."""
    binary = os.path.abspath(binary)
    scratch = tempfile.mkdtemp(prefix="utter-bench-init-")
    try:
        env = dict(os.environ, HOME=scratch)
        env.pop("ALSA_CONFIG_PATH", None)
        m = Module(binary, scratch, timeout, env)
        try:
            m.send("INIT\n")
            t, line = m.wait_for(lambda l: l.startswith(b"299 ") or
                                 (l[:1] in (b"3", b"4", b"5") and l[3:4] == b" "), "299 from %s" % binary)
            if not line.startswith(b"299 "):
                raise BenchError("INIT failed: %r" % line)
            return 1000 * (t - m.t_spawn)
        finally:
            m.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
