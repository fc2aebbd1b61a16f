"""First benchmark: sd_utter against sd_espeak-ng, each spawned directly (no server) and driven
through the output-module protocol on its stdin/stdout, the way speech-dispatcher 0.11.4 does it.

Per repetition and module (fresh process and scratch folder each time):
  startup      spawn -> "299 OK LOADED SUCCESSFULLY"
  first audio  end of the SPEAK block ("." line written) -> first audio frame:
                 sd_utter (module audio): first bytes in the ALSA `file` plugin's output file
                 (HOME/.asoundrc defines the device; its name goes in the second AUDIO block);
                 sd_espeak-ng (server audio): first 705 event line received
  stop         STOP (sent ~200 ms after SPEAK of a long text) -> "703"
  peak RSS     VmHWM from /proc/PID/status just before QUIT
  private      anonymous pages of every mapping (/proc/PID/smaps: heap, stacks, and file pages
               the module wrote) at the same moment: what the module alone costs the machine
               (clean file pages are shared and droppable)
Then prints one table: median and p95 for each module and the ratio of medians (ours/theirs).

The handshake mirrors the server: INIT, AUDIO audio_output_method=server (refused by sd_utter
with 3xx, so a second AUDIO block with the real settings follows), LOGLEVEL, LIST VOICES, then per
message a full SET block and SPEAK. Replies are read as a byte stream; every wait has a deadline.

Device: by default the unpaced ALSA `file` PCM over `null` (docs/testing.md §1), so "first audio"
is synthesis + hand-off latency. --paced puts a private PulseAudio null sink behind the file
plugin (testing.md §2): writes then block in real time, as on a desktop. Note that the file
plugin writes a frame only once the pulse slave took it, so there "first audio" for sd_utter includes
PulseAudio's one-time first-fill stall (0.6-1.4 s); sd_espeak-ng's figure is unchanged (705 events).
A failed step keeps the metrics measured before it; failures are listed under the table and make
the exit status 1.

Usage: bench/run [--reps N] [--paced] [--timeout S] [UTTER_BINARY]
       (default UTTER_BINARY: .build/release/sd_utter next to this script's parent)

What a user feels (through the real speech-dispatcher, python3-speechd clients, a real-time paced
device, audio timed on the sink's monitor) is measured by bench/server instead.
"""

import argparse
import os
import shutil
import sys
import tempfile
import time

from . import ESPEAK, ROOT
from .capture import wait_for_bytes
from .processes import BenchError, module_environment, stop_process
from .procfs import memory_parts_mib, print_mappings
from .protocol import Module, handshake, speak, terminal
from .report import fmt, header, ratio, summary
from .soundserver import capture_device

SHORT_TEXT = "<speak>Hello, this is a latency test.</speak>"
LONG_TEXT = "<speak>" + " ".join(
    'This is sentence number %d of a long text that keeps the synthesizer busy.<mark name="__spd_%d"/>'
    % (i, i) for i in range(1, 601)) + "</speak>"  # ~45 min of speech: still busy at +200 ms


def one_run(binary, device_conf, device, timeout, env_base, result):
    """Fills `result` as it goes, so a failure late in the run keeps the earlier metrics."""
    scratch = tempfile.mkdtemp(prefix="utter-bench-")
    capture = os.path.join(scratch, "out.raw")
    with open(os.path.join(scratch, ".asoundrc"), "w") as f:
        f.write(device_conf.replace("@CAPTURE@", capture))
    env = dict(env_base)
    env["HOME"] = scratch
    m = Module(binary, scratch, timeout, env)
    try:
        result["startup"], server_audio = handshake(m, device)

        # First audio frame of a short message.
        t_sent = speak(m, SHORT_TEXT)
        if server_audio:
            t_first, _ = m.wait_for(lambda l: l.startswith(b"705"), "first 705 event")
        else:
            t_first = wait_for_bytes(capture, 0, time.monotonic() + timeout, 0.0005)
            if t_first is None:
                raise BenchError("no audio in %s after %.0f s" % (capture, timeout))
        result["first_audio"] = t_first - t_sent
        _, line = m.wait_for(terminal, "terminal event of the short message")
        if not line.startswith(b"702"):
            raise BenchError("short message ended with %r" % line)

        # STOP ~200 ms into a long message.
        t_sent = speak(m, LONG_TEXT)
        time.sleep(max(0.0, t_sent + 0.2 - time.monotonic()))
        t_stop = m.send("STOP\n")
        t_end, line = m.wait_for(terminal, "703 after STOP")
        if line.startswith(b"703"):
            result["stop"] = t_end - t_stop
        else:
            result["stop_missed"] = line.decode("ascii", "replace")

        result["rss"] = m.vmhwm_kib() / 1024.0
        result["private"] = memory_parts_mib(m.proc.pid)["Private"]
        if os.environ.get("UTTER_BENCH_MAPS"):
            # where the resident memory is, per mapped file (UTTER_BENCH_MAPS=segments: per segment)
            print_mappings(m.proc.pid, os.path.basename(binary), sys.stderr,
                           int(os.environ.get("UTTER_BENCH_MAPS_TOP", "14")),
                           os.environ.get("UTTER_BENCH_MAPS") == "segments")
    finally:
        m.close()
        if os.environ.get("UTTER_BENCH_KEEP"):
            print("kept", scratch, file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("utter", nargs="?", default=os.path.join(ROOT, ".build/release/sd_utter"))
    ap.add_argument("--espeak", default=ESPEAK)
    ap.add_argument("--reps", "-n", type=int, default=20)
    ap.add_argument("--timeout", type=float, default=15.0, help="deadline for every wait (s)")
    ap.add_argument("--paced", action="store_true", help="PulseAudio null sink behind the file plugin")
    args = ap.parse_args()

    env_base = module_environment(args.utter, args.espeak)
    pulse = None
    top = tempfile.mkdtemp(prefix="utter-bench-top-")
    device_conf, pulse = capture_device(args.paced, top, args.timeout)

    modules = [("sd_utter", args.utter), ("sd_espeak-ng", args.espeak)]
    results = {name: [] for name, _ in modules}
    errors = {name: [] for name, _ in modules}
    try:
        for i in range(args.reps):
            # Alternate the order so drift on a shared machine hits both alike.
            order = modules if i % 2 == 0 else list(reversed(modules))
            for name, binary in order:
                result = {}
                try:
                    one_run(binary, device_conf, "utter_capture", args.timeout, env_base, result)
                except BenchError as e:
                    errors[name].append(str(e))
                results[name].append(result)
            if sys.stderr.isatty():
                sys.stderr.write("\rrepetition %d/%d" % (i + 1, args.reps))
                sys.stderr.flush()
        if sys.stderr.isatty():
            sys.stderr.write("\n")
    finally:
        if pulse is not None:
            stop_process(pulse, 3.0)
        shutil.rmtree(top, ignore_errors=True)

    metrics = [
        ("startup: spawn -> 299 (ms)", "startup", 1000.0),
        ("first audio after SPEAK (ms)", "first_audio", 1000.0),
        ("STOP -> 703 (ms)", "stop", 1000.0),
        ("peak RSS VmHWM (MiB)", "rss", 1.0),
        ("private: anonymous pages (MiB)", "private", 1.0),
    ]
    ours, theirs = (name for name, _ in modules)
    print("device: %s; %d repetitions" % ("paced (PulseAudio null sink)" if args.paced
                                          else "unpaced (ALSA file over null)", args.reps))
    print("%s: %s\n%s: %s" % (ours, args.utter, theirs, args.espeak))
    row = "%-30s %10s %10s %12s %12s %8s"
    header(row % ("metric", ours + " med", "p95", theirs + " med", "p95", "ratio"))
    for label, key, scale in metrics:
        om, op, _ = summary([r[key] * scale for r in results[ours] if key in r])
        tm, tp, _ = summary([r[key] * scale for r in results[theirs] if key in r])
        print(row % (label, fmt(om, 2), fmt(op, 2), fmt(tm, 2), fmt(tp, 2), ratio(om, tm)))
    for name in (ours, theirs):
        n = len([r for r in results[name] if r])
        missed = [r["stop_missed"] for r in results[name] if "stop_missed" in r]
        if missed:
            print("%s: STOP ended with %r instead of 703 in %d of %d runs" % (name, missed[0], len(missed), n))
        if errors[name]:
            print("%s: %d failed runs, first: %s" % (name, len(errors[name]), errors[name][0]))
    if any(errors.values()):
        sys.exit(1)
