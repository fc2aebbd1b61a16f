"""One module behind a private speech-dispatcher on a private sound server, its sink recorded,
driven by a python3-speechd client: what a user hears, timed (bench/server's docstring says how),
and the texts its measures speak."""

import array
import os
import shutil
import signal
import site
import subprocess
import sys
import tempfile
import threading
import time

from .analysis import RATE, heard_samples, judge_cut, largest_step, loud_runs
from .capture import Monitor
from .processes import BenchError, alive, children_of, spawn, stop_process, wait_until
from .procfs import cpu_seconds, vm_hwm_kib, wakeups, wakeups_between
from .soundserver import start_pipewire, start_pulseaudio

SHORT_TEXT = "Hello there."
# Metric 1 in Japanese, with kanji: Utter reads them through MeCab before the first sound.
JAPANESE_TEXT = "それでは発表します。"
# The key-echo storm: 30 CHARs 80 ms apart; letters whose names have no silence inside them.
STORM_COUNT = 30
STORM_SPACING = 0.08
STORM_KEYS = "aeioumnlrs"
CANCEL_TEXT = ("The quick brown fox jumps over the lazy dog while the orchestra keeps playing "
               "a very long and rather slow piece of music for everyone in the hall.")
MARK_TEXT = ('<speak>One. <mark name="a"/>Alpha, <mark name="b"/>oscar. '
             '<mark name="c"/>Echo.</speak>')
MARKS = ["a", "b", "c"]
PAUSE_TEXT = "Alpha bravo charlie delta. Echo foxtrot golf."
# The server's DefaultLanguage, which a metric in another language goes back to: "en" would pick
# another English voice (espeak-ng's British one for the American), and every later figure would
# be measured on it against references taken on the first (the resumed/uninterrupted ratio was
# 0.943 that way, 0.999 on one voice).
DEFAULT_LANGUAGE = "en-US"
# STOP cuts (metric 11): a sentence with no pause the voice could end a sound in, stopped 20 times
# at varied moments: (what came before, ms after the message was first heard). The first is the
# module's first sound; "silence": 0.7 s of it (the stream runs dry and is corked); "dry": a short
# message played out right before; "stop": right after the previous STOP's silence.
CUT_TEXT = ("the quick brown fox jumps over the lazy dog while the orchestra keeps playing a very "
            "long and rather slow piece of music for everyone in the hall")
CUT_PLAN = [("fresh", 60), ("silence", 20), ("silence", 700), ("dry", 60), ("stop", 1200),
            ("silence", 120), ("silence", 80), ("dry", 10), ("stop", 400), ("silence", 1500),
            ("silence", 200), ("stop", 50), ("silence", 250), ("dry", 900), ("silence", 25),
            ("silence", 280), ("dry", 150), ("silence", 40), ("stop", 100), ("silence", 600)]
LONG_SENTENCE = ("Sentence %d of the long text keeps the voice busy with ordinary words, "
                 "numbers and names for a while.")
LONG_SENTENCE_SECONDS = 5.8  # measured: about 5.8 s of speech per sentence at the default rate


def rig_environment(base, home, runtime_dir, user_base):
    """The environment of a rig's processes: `base` without what would reach the user's own sound
    server or speech-dispatcher, in a private HOME and runtime folder. HOME moves the user's Python
    packages (pip install --user) out of sight, so their base is named: a user-installed `piper`
    that sd_generic runs finds its packages as it does for the user (the base of `base`'s own
    PYTHONUSERBASE, if it has one)."""
    env = dict(base)
    for k in ("ALSA_CONFIG_PATH", "PULSE_SERVER", "PULSE_SINK", "SPEECHD_ADDRESS"):
        env.pop(k, None)
    env.update(HOME=home, XDG_RUNTIME_DIR=runtime_dir, LANG="C.UTF-8",
               XDG_CONFIG_HOME=os.path.join(home, ".config"),
               XDG_DATA_HOME=os.path.join(home, ".local/share"))
    env.setdefault("PYTHONUSERBASE", user_base)
    return env


def tail(path, count, leave_out=()):
    """The last `count` lines of the file at `path`, less those holding any of `leave_out`; None
    when it cannot be read."""
    try:
        with open(path, "rb") as f:
            lines = f.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return None
    return [line for line in lines if not any(part in line for part in leave_out)][-count:]


def failure_report(label, binary, phase, error, scratch, logs):
    """What a rig says when a step fails: which rig and module, in which phase, what failed, its
    scratch folder (kept), then the end of each log, [(name, lines)], so that the cause is in the
    output (a `piper` that cannot start, a module that logged its error) rather than a traceback
    of the wait that noticed it."""
    out = ["FAILED %s (module %s), %s: %s" % (label, binary, phase, error), "  scratch folder: " + scratch]
    for name, lines in logs:
        out.append("----- %s: %s" % (name, "last %d lines" % len(lines) if lines else "empty"))
        out.extend("  " + line for line in lines)
    return "\n".join(out)


class Events:
    """Replaces python3-speechd's connection callback: timestamps every event on arrival."""

    def __init__(self):
        self.cond = threading.Condition()
        self.items = []  # (time, msg_id, type, mark)

    def __call__(self, msg_id, client_id, event_type, index_mark=None):
        now = time.monotonic()
        with self.cond:
            self.items.append((now, msg_id, event_type, index_mark))
            self.cond.notify_all()

    def wait(self, msg_id, types, timeout, what):
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for it in self.items:
                    if it[1] == msg_id and it[2] in types:
                        return it
                left = deadline - time.monotonic()
                if left <= 0:
                    raise BenchError("timeout after %.1f s waiting for %s of message %d; events: %s"
                                     % (timeout, what, msg_id, self.of(msg_id)))
                self.cond.wait(left)

    def of(self, msg_id):
        with self.cond:
            return [it for it in self.items if it[1] == msg_id]


class Rig:
    """One module (`binary`, named `bench` to its server) with its own sound server, recording,
    speech-dispatcher and client, in a scratch folder; `server_audio`: the module hands its audio
    to the server (sd_espeak-ng), else it plays itself (sd_utter, through `backend`)."""

    def __init__(self, label, binary, server_audio, timeout, sound_server="pulseaudio", backend="alsa",
                 module_conf=None, command_logs=()):
        """module_conf: (file name, text) of a module that plays by itself through ALSA's default
        device (sd_generic's command's aplay): the rig's sink is made that default. command_logs:
        the files where the commands such a module runs write their errors, shown with the
        module's log when a step fails."""
        import speechd  # python3-speechd (Debian's /usr/bin/python3)
        self.speechd = speechd
        self.label = label
        self.binary = os.path.realpath(binary)
        self.server_audio = server_audio
        self.timeout = timeout
        self.dir = tempfile.mkdtemp(prefix="utter-bench-server-")
        self.rt = os.path.join(self.dir, "rt")
        os.makedirs(self.rt, mode=0o700)
        self.run = os.path.join(self.dir, "run")
        self.logdir = os.path.join(self.run, "log")
        os.makedirs(self.logdir)
        self.socket = os.path.join(self.rt, "native")
        self.pulse = self.server = self.monitor = self.client = None
        self.module_pid = None
        self.broken = None
        self.command_logs = list(command_logs)
        env = rig_environment(os.environ, self.dir, self.rt, site.getuserbase())
        self.env = env
        os.makedirs(os.path.join(self.dir, ".config/pulse"))
        with open(os.path.join(self.dir, ".config/pulse/client.conf"), "w") as f:
            f.write("autospawn = no\n")

        self.daemons = []
        if sound_server == "pipewire":
            self.daemons, self.pulse, self.socket = start_pipewire(self.dir, self.rt, env, timeout)
        else:
            self.pulse = start_pulseaudio(env, self.socket, os.path.join(self.dir, "pulseaudio.log"),
                                          timeout)
            self.daemons = [self.pulse]
        self.env["PULSE_SERVER"] = "unix:" + self.socket
        self.monitor = Monitor(self.env, None, timeout)

        conf = os.path.join(self.dir, "conf")
        os.makedirs(os.path.join(conf, "modules"))
        if module_conf:
            modconf = module_conf[0]
            with open(os.path.join(conf, "modules", modconf), "w") as f:
                f.write(module_conf[1])
            audio = ('AudioOutputMethod "pulse"\nAudioPulseServer "unix:%s"\n'
                     'AudioPulseDevice "utter_null"\n' % self.socket)
            with open(os.path.join(self.dir, ".asoundrc"), "w") as f:
                f.write('pcm.!default { type pulse server "unix:%s" device "utter_null" }\n'
                        'ctl.!default { type pulse server "unix:%s" }\n' % (self.socket, self.socket))
        elif server_audio:
            modconf = "espeak-ng.conf"
            src = "/etc/speech-dispatcher/modules/espeak-ng.conf"
            if os.path.exists(src):
                shutil.copy(src, os.path.join(conf, "modules", modconf))
            audio = ('AudioOutputMethod "pulse"\nAudioPulseServer "unix:%s"\n'
                     'AudioPulseDevice "utter_null"\n' % self.socket)
        else:
            modconf = "utter.conf"
            with open(os.path.join(conf, "modules", modconf), "w") as f:
                f.write("LogLevel 3\n")  # its default; the server's -l 5 would turn on debug
                f.write(os.environ.get("UTTER_BENCH_CONF", "").replace(";", "\n") + "\n")  # extra utter.conf lines
            if backend != "alsa":
                # As on a desktop: speech-dispatcher's default output method; sd_utter's backend
                # named in its utter.conf (auto finds PipeWire through PIPEWIRE_RUNTIME_DIR, else
                # the PulseAudio server through PULSE_SERVER).
                with open(os.path.join(conf, "modules", modconf), "a") as f:
                    f.write("AudioBackend %s\n" % backend)
                audio = ('AudioOutputMethod "pulse"\nAudioPulseServer "unix:%s"\n'
                         'AudioPulseDevice "utter_null"\n' % self.socket)
                self.env["PULSE_SINK"] = "utter_null"
            else:
                audio = 'AudioOutputMethod "alsa"\nAudioALSADevice "bench_paced"\n'
            with open(os.path.join(self.dir, ".asoundrc"), "w") as f:
                f.write('pcm.bench_paced { type pulse server "unix:%s" device "utter_null" }\n'
                        % self.socket)
        with open(os.path.join(conf, "speechd.conf"), "w") as f:
            f.write('AddModule "bench" "%s" "%s"\nDefaultModule bench\nDefaultVolume 100\n'
                    'DefaultLanguage "%s"\n%s' % (self.binary, modconf, DEFAULT_LANGUAGE, audio))
        sock = os.path.join(self.run, "speechd.sock")
        self.t_server = time.monotonic()
        self.server = spawn(
            ["speech-dispatcher", "-s", "-t", "0", "-C", conf, "-c", "unix_socket", "-S", sock,
             "-L", self.logdir, "-P", os.path.join(self.run, "speechd.pid"), "-l", "5"],
            env, os.path.join(self.dir, "server.out"))
        wait_until(lambda: os.path.exists(sock) or self.server.poll() is not None, timeout,
                   "server socket")
        if self.server.poll() is not None:
            raise BenchError("speech-dispatcher exited: %s" % self.server.returncode)

        def find_module():
            for pid in children_of(self.server.pid):
                try:
                    if os.path.realpath("/proc/%d/exe" % pid) == self.binary:
                        return pid
                except OSError:
                    pass
            return None
        self.module_pid = wait_until(find_module, timeout, "the module process")
        self.events = Events()
        self.client = speechd.SSIPClient("utter-bench", address="unix_socket:" + sock,
                                         autospawn=False)
        self.client._conn.set_callback(self.events)  # raw events, nothing lost to registration
        self.client.set_output_module("bench")
        if os.environ.get("UTTER_BENCH_RATE"):  # the client's SSIP rate, -100..100, for every message
            self.client.set_rate(int(os.environ["UTTER_BENCH_RATE"]))
        self.mode = None

    # -- helpers
    def say(self, text, ssml=False):
        mode = self.speechd.DataMode.SSML if ssml else self.speechd.DataMode.TEXT
        if mode != self.mode:
            self.client.set_data_mode(mode)
            self.mode = mode
        t = time.monotonic()
        result = self.client.speak(text)
        return t, int(result[2][0])

    def quiet(self, ms=150):
        """Returns the current sample index once the sink has been silent for ms."""
        m = self.monitor
        m.end_of_sound(max(0, m.count() - int(0.5 * RATE)), ms, self.timeout, "quiet before speaking")
        return m.count()

    def utterance(self, text, ssml=False):
        """Speaks text uninterrupted; returns (t_speak, msg, first, end) sample indexes."""
        n0 = self.quiet()
        t, msg = self.say(text, ssml)
        first = self.monitor.first_loud(n0, self.timeout, "first audible sample")
        self.events.wait(msg, ("end", "cancel"), self.timeout + 120, "END")
        end = self.monitor.end_of_sound(first, 200, self.timeout, "end of the message")
        return t, msg, first, end

    # -- metrics
    def first_audible(self, text=SHORT_TEXT, language=None):
        """speak() -> first audible sample, and BEGIN callback - first audible sample (ms)."""
        if language:
            self.client.set_language(language)
        try:
            t, msg, first, end = self.utterance(text)
        finally:
            if language:
                self.client.set_language(DEFAULT_LANGUAGE)
        heard = self.monitor.time_of(first)
        begin = [it[0] for it in self.events.of(msg) if it[2] == "begin"]
        return 1000 * (heard - t), (1000 * (begin[0] - heard) if begin else None)

    def cancel(self):
        m = self.monitor
        n0 = self.quiet()
        t, msg = self.say(CANCEL_TEXT)
        first = m.first_loud(n0, self.timeout, "first audible sample")
        m.wait_heard(first + int(0.3 * RATE), self.timeout, "300 ms of speech")
        wait_until(lambda: m.recent_loud(), 3.0, "an audible moment to cancel at", poll=0.001)
        tc = time.monotonic()
        self.client.cancel()
        ev = self.events.wait(msg, ("cancel", "end"), self.timeout, "CANCEL")
        if ev[2] != "cancel":
            raise BenchError("cancel() gave %s instead of CANCEL" % ev[2])
        end = m.end_of_sound(m.sample_at(tc) - int(0.05 * RATE), 300, self.timeout,
                             "silence after cancel()")
        # The click: the largest step where the sound ends (its last audible sample and the 5 ms
        # after it), against the largest step of the speech itself before the cancel.
        m.wait_heard(end + int(0.01 * RATE), self.timeout, "the recording past the cut")
        cut = largest_step(m.samples(end - 2, end + int(0.005 * RATE)))
        own = largest_step(m.samples(first, m.sample_at(tc) - int(0.05 * RATE)))
        return 1000 * (m.time_of(end) - tc), 1000 * (ev[0] - tc), cut / max(own, 1)

    def stop_cuts(self):
        """Metric 11: the 20 STOPs of CUT_PLAN, each judged by judge_cut against the message
        spoken unstopped afterwards. Returns [(before, ms, gain, last_ms)]."""
        m = self.monitor
        onsets = []
        for before, after in CUT_PLAN:
            if before == "silence":
                time.sleep(0.7)
            elif before == "dry":
                t, msg = self.say("yes")
                self.events.wait(msg, ("end", "cancel"), self.timeout, "END of yes")
                m.end_of_sound(max(0, m.count() - RATE // 2), 20, self.timeout, "yes heard out")
            n0 = m.count()
            t, msg = self.say(CUT_TEXT)
            first = m.first_loud(n0, self.timeout, "first audible sample")
            time.sleep(after / 1000.0)
            self.client.cancel()
            self.events.wait(msg, ("cancel", "end"), self.timeout, "CANCEL")
            m.end_of_sound(first, 200, self.timeout, "silence after the STOP")
            onsets.append((before, after, first))
        t, msg, first, end = self.utterance(CUT_TEXT)
        margin = RATE // 10
        reference = m.samples(first - margin, end + margin)
        if os.environ.get("UTTER_BENCH_KEEP"):
            # for a closer look: the recording (raw s16le), the unstopped message's place, the onsets
            with open(os.path.join(self.dir, "cuts.raw"), "wb") as f:
                f.write(m.samples(0, m.count()).tobytes())
            with open(os.path.join(self.dir, "cuts.txt"), "w") as f:
                f.write("reference %d %d\n" % (first - margin, end + margin))
                f.writelines("%s %d %d\n" % o for o in onsets)
        out = []
        for before, after, onset in onsets:
            s = m.samples(onset - margin, onset + 12 * RATE)
            judged = judge_cut(s, margin, reference, margin)
            if judged is None:
                raise BenchError("the sound stopped %d ms after it was heard never ended" % after)
            out.append((before, after) + judged)
        return out

    def storm_references(self):
        """Each storm letter's first 15 ms as this module says it alone (from its first audible
        sample): what the storm's keys are recognised by."""
        if getattr(self, "letters", None) is None:
            import numpy
            self.client.set_priority(self.speechd.Priority.TEXT)
            self.letters = {}
            for letter in STORM_KEYS:
                n0 = self.quiet()
                self.client.char(letter)
                first = self.monitor.first_loud(n0, self.timeout, "the letter %s" % letter)
                self.monitor.end_of_sound(first, 200, self.timeout, "the end of the letter %s" % letter)
                self.letters[letter] = numpy.array(
                    self.monitor.samples(first, first + int(0.015 * RATE)), dtype=float)
        return self.letters

    def storm(self, keys=STORM_COUNT, spacing=STORM_SPACING):
        """Key echo as a fast typist makes it: `keys` CHAR messages of priority text, `spacing` s
        apart, each cancelling the one before. Returns each heard key's delay from its CHAR to its
        first audible sample (ms), and how many keys were never heard.

        A key is found by its letter's first 15 ms (normalised cross-correlation >= 0.8 with the
        letter said alone, the earliest place within 0.03 of the best match) in the 250 ms after
        its CHAR: neighbouring keys are different letters, and a key may follow the fade of the one
        before without any silence between them."""
        import numpy
        references = self.storm_references()
        m = self.monitor
        n0 = self.quiet()
        # Priority text (the server's default): a new text message cancels the one playing.
        self.client.set_priority(self.speechd.Priority.TEXT)
        sent = []
        start = time.monotonic()
        for k in range(keys):
            due = start + k * spacing
            while time.monotonic() < due:
                time.sleep(0.0005)
            sent.append(time.monotonic())
            self.client.char(STORM_KEYS[k % len(STORM_KEYS)])
        end = m.end_of_sound(m.sample_at(sent[-1]), 300, self.timeout, "the end of the storm")
        heard = numpy.array(m.samples(n0, end), dtype=float)
        delays, unheard = [], 0
        for k, t in enumerate(sent):
            ref = references[STORM_KEYS[k % len(STORM_KEYS)]]
            lo = max(0, m.sample_at(t) - n0)
            window = heard[lo:lo + int(0.25 * RATE) + len(ref)]
            if len(window) < 2 * len(ref):
                unheard += 1
                continue
            dots = numpy.correlate(window, ref, "valid")
            energy = numpy.convolve(window * window, numpy.ones(len(ref)), "valid")
            ncc = dots / (numpy.linalg.norm(ref) * numpy.sqrt(numpy.maximum(energy, 1e-9)))
            best = float(ncc.max())
            if best < 0.8:
                unheard += 1
                continue
            at = int(numpy.argmax(ncc >= best - 0.03))
            delays.append(1000 * (m.time_of(n0 + lo + at) - t))
        return delays, unheard

    def mark_layout(self, first, end):
        """The three longest silences (>= 60 ms, or 15 ms at a client rate above 50, where the
        pauses shrink) between audible runs, in time order."""
        s = self.monitor.samples(first, end)
        fast = int(os.environ.get("UTTER_BENCH_RATE") or 0) > 50
        runs = loud_runs(s, int((0.015 if fast else 0.06) * RATE))
        gaps = [(runs[i + 1][0] - runs[i][1], runs[i][1], runs[i + 1][0])
                for i in range(len(runs) - 1)]
        if len(gaps) < len(MARKS):
            raise BenchError("mark text: %d pauses found, %d needed (runs %s)"
                             % (len(gaps), len(MARKS), runs))
        longest = sorted(sorted(gaps, reverse=True)[:len(MARKS)], key=lambda g: g[1])
        others = sorted((g[0] for g in gaps if g not in longest), reverse=True)
        return [first + g[2] for g in longest], [1000.0 * g[0] / RATE for g in longest], \
            [1000.0 * g / RATE for g in others]

    def marks(self):
        t, msg, first, end = self.utterance(MARK_TEXT, ssml=True)
        onsets, _, _ = self.mark_layout(first, end)
        got = {}
        for it in self.events.of(msg):
            if it[2] == "index_marks" and it[3] in MARKS and it[3] not in got:
                got[it[3]] = it[0]
        skews = [(name, 1000 * (got[name] - self.monitor.time_of(onsets[k])))
                 for k, name in enumerate(MARKS) if name in got]
        return skews, len(MARKS) - len(got)

    def pause(self, reference):
        m = self.monitor
        n0 = self.quiet()
        t, msg = self.say(PAUSE_TEXT)
        first = m.first_loud(n0, self.timeout, "first audible sample")
        m.wait_heard(first + int(0.25 * RATE), self.timeout, "250 ms of speech")
        tp = time.monotonic()
        self.client.pause()
        ev = self.events.wait(msg, ("pause", "end", "cancel"), self.timeout, "PAUSE")
        if ev[2] != "pause":
            raise BenchError("pause() gave %s instead of PAUSE" % ev[2])
        stop = m.end_of_sound(m.sample_at(tp) - int(0.05 * RATE), 300, self.timeout,
                              "silence after pause()")
        result = {"pause_cb": 1000 * (ev[0] - tp), "pause_silence": 1000 * (m.time_of(stop) - tp)}
        self.client.resume()
        self.events.wait(msg, ("end", "cancel"), self.timeout + 30, "END after resume()")
        end = m.end_of_sound(stop, 200, self.timeout, "end of the resumed message")
        kinds = [it[2] for it in self.events.of(msg)]
        result["events"] = " ".join(k for k in kinds if k != "index_marks")
        heard = heard_samples(m.samples(first, end), int(0.03 * RATE))
        result["resume_ratio"] = heard / reference
        return result

    def long_run(self, text, busy=0):
        """The long text, optionally with busy loops; returns the audible runs (>= 30 ms gaps) and
        CPU ticks of module and server."""
        loops = []
        try:
            for _ in range(busy):
                loops.append(spawn([sys.executable, "-c", "while 1: pass"], dict(os.environ)))
            n0 = self.quiet()
            c0 = (cpu_seconds(self.module_pid), cpu_seconds(self.server.pid))
            w0 = wakeups(self.module_pid)
            t, msg = self.say(text)
            first = self.monitor.first_loud(n0, self.timeout, "first audible sample")
            self.events.wait(msg, ("end", "cancel"), 600, "END of the long text")
            end = self.monitor.end_of_sound(first, 300, self.timeout, "end of the long text")
            c1 = (cpu_seconds(self.module_pid), cpu_seconds(self.server.pid))
            w1 = wakeups(self.module_pid)
        finally:
            for p in loops:
                stop_process(p, 1.0)
        s = self.monitor.samples(first, end)
        return {"runs": loud_runs(s, int(0.03 * RATE)), "seconds": (end - first) / RATE,
                "module_cpu": c1[0] - c0[0], "server_cpu": c1[1] - c0[1],
                "wakeups": wakeups_between(w0, w1)}

    def underrun_log_lines(self):
        n = 0
        for name in os.listdir(self.logdir):
            try:
                with open(os.path.join(self.logdir, name), errors="replace") as f:
                    n += sum(1 for line in f if "underrun" in line.lower())
            except OSError:
                pass
        return n

    def rss_mib(self):
        return vm_hwm_kib(self.module_pid) / 1024.0

    # -- timing self-check
    def self_check(self):
        """pacat plays clicks on this rig's sink; returns (spacing error ms list, delay ms list)."""
        m = self.monitor
        click = array.array("h", [12000 if (i // 11) % 2 == 0 else -12000 for i in range(110)])
        # a train: 8 clicks exactly 0.5 s apart in one stream
        train = array.array("h", [0] * int(0.2 * RATE))
        for _ in range(8):
            train += click + array.array("h", [0] * (RATE // 2 - len(click)))
        n0 = self.quiet()
        p = spawn(["pacat", "-d", "utter_null", "--rate=%d" % RATE, "--channels=1",
                   "--format=s16le", "--latency-msec=10", "--raw"], self.env, None,
                  stdin=subprocess.PIPE)
        try:
            p.stdin.write(train.tobytes())
            p.stdin.close()
            p.wait(timeout=self.timeout)
        finally:
            stop_process(p, 1.0)
        end = m.end_of_sound(n0, 200, self.timeout, "end of the click train")
        s = m.samples(n0, end)
        onsets = [n0 + a for a, b in loud_runs(s, int(0.1 * RATE))]
        if len(onsets) != 8:
            raise BenchError("click train: %d clicks detected, 8 played" % len(onsets))
        # detector + stream: spacing in the sample domain; clock mapping: time minus samples
        spacing = [1000.0 * (onsets[i + 1] - onsets[i]) / RATE - 500.0 for i in range(7)]
        mapping = [1000 * (m.time_of(onsets[i + 1]) - m.time_of(onsets[i]))
                   - 1000.0 * (onsets[i + 1] - onsets[i]) / RATE for i in range(7)]
        # isolated clicks: a stream kept nearly empty (20 ms of silence every 40 ms), then a click
        delays = []
        p = spawn(["pacat", "-d", "utter_null", "--rate=%d" % RATE, "--channels=1",
                   "--format=s16le", "--latency-msec=5", "--raw"], self.env, None,
                  stdin=subprocess.PIPE)
        try:
            silence = bytes(2 * int(0.02 * RATE))
            for k in range(10):
                for _ in range(8):
                    p.stdin.write(silence)
                    p.stdin.flush()
                    time.sleep(0.04)
                n1 = m.count()
                tw = time.monotonic()
                p.stdin.write(click.tobytes() + silence)
                p.stdin.flush()
                on = m.first_loud(n1 - int(0.05 * RATE), self.timeout, "isolated click")
                delays.append(1000 * (m.time_of(on) - tw))
                m.end_of_sound(on, 100, self.timeout, "end of a click")
            p.stdin.close()
        finally:
            stop_process(p, 1.0)
        return spacing, mapping, delays

    def log_tails(self, count=40):
        """[(name, last lines)] of speech-dispatcher's and the module's logs, the server's output,
        the sound server's log and the command logs, each that can be read."""
        paths = [os.path.join(self.logdir, name) for name in sorted(os.listdir(self.logdir))]
        paths += [os.path.join(self.dir, "server.out"), os.path.join(self.dir, "pulseaudio.log")]
        out = []
        for path in paths + self.command_logs:
            lines = tail(path, count, leave_out=("LINE here:|200-", "Voice name"))
            if lines is not None:
                out.append((os.path.relpath(path, self.dir) if path.startswith(self.dir + os.sep) else path, lines))
        return out

    def failure(self, phase, error):
        """``failure_report`` for this rig: the end of each of its logs. Its scratch folder is
        kept once the rig is marked broken."""
        return failure_report(self.label, self.binary, phase, error, self.dir, self.log_tails())

    def close(self):
        if self.client is not None:
            try:
                self.client._conn._socket.shutdown(2)  # no blocking QUIT on a hung server
            except Exception:  # noqa: BLE001
                pass
        kids = children_of(self.server.pid) if self.server is not None else []
        for p in (self.server, ):
            if p is not None:
                stop_process(p, 5.0)
        for pid in kids:
            if alive(pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        for p in [self.monitor.p if self.monitor else None] + self.daemons:
            if p is not None:
                stop_process(p, 3.0)
        if not os.environ.get("UTTER_BENCH_KEEP") and not self.broken:
            shutil.rmtree(self.dir, ignore_errors=True)

