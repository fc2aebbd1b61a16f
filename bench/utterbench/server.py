"""What a user feels: sd_utter against sd_espeak-ng through the REAL speech-dispatcher on a
REAL-TIME PACED device, side by side in one run, with python3-speechd clients.

How to run (as root on Debian 12; no sound card needed):
  apt-get install -y --no-install-recommends speech-dispatcher speech-dispatcher-espeak-ng \\
      python3-speechd pulseaudio pulseaudio-utils libasound2-plugins
  swift build -c release --static-swift-stdlib --scratch-path .build-bench
  bench/server                    # full run, 50 repetitions, 60 s load test (~16 min)
  bench/server --quick            # 10 repetitions, 15 s load test (~5 min)
  bench/server --reps 80 --load-seconds 90 PATH/TO/sd_utter
It prints one table (median, p95, ratio of medians ours/theirs, target, PASS/MISS) and exits 1 when
any step failed (the figures measured before the failure are kept; logs of the failed set-up are
printed). UTTER_BENCH_KEEP=1 keeps the scratch folders (with the STOP cuts' recording, cuts.raw). The direct-stdio benchmark (no server) is
bench/run.

Set-up, fresh for each module, in a scratch folder (HOME and XDG_RUNTIME_DIR inside it):
  - a private PulseAudio daemon: module-null-sink sink_name=utter_null rate=22050 channels=1 and
    module-native-protocol-unix auth-anonymous=1 (started and killed by PID);
  - `parec -d utter_null.monitor --latency-msec=5` records the sink's monitor from before the first
    message to the end; a thread timestamps every chunk it reads (time.monotonic());
  - a private `speech-dispatcher -s -t 0 -C CONF -c unix_socket ... -l 5` whose speechd.conf has one
    module, `AddModule "bench" "<binary>"`, `DefaultModule bench` (same name for both modules);
  - sd_espeak-ng hands its audio to the server (server-audio mode): AudioOutputMethod "pulse",
    AudioPulseServer = the private daemon's socket (PULSE_SERVER too), AudioPulseDevice "utter_null";
  - sd_utter plays itself through ALSA: AudioOutputMethod "alsa", AudioALSADevice "bench_paced",
    and $HOME/.asoundrc: pcm.bench_paced { type pulse server "unix:<socket>" device "utter_null" };
    with --backend pulse, pipewire or auto: AudioOutputMethod "pulse" as for sd_espeak-ng, and
    that AudioBackend in sd_utter's utter.conf (PULSE_SERVER names the private daemon,
    PIPEWIRE_RUNTIME_DIR the private PipeWire's folder).
Both modules therefore end on the same kind of paced null sink. Both rigs are up at the same time
(idle one stays silent) and the repetitions alternate between them, so drift on a shared machine hits
both alike. One warm-up utterance per module is discarded (PulseAudio's first-fill stall).

When was a sample heard: module-null-sink wakes when everything it rendered is due and renders the
next block (its latency, 1.3-5 ms here) at once; the monitor hands that block to parec in one chunk.
So the FIRST sample of a chunk is due ("heard") when the chunk arrives, give or take delivery lag.
Sample n of the recording was heard at t(n) = n / 22050 + offset, where offset is the lower
envelope (minimum over the chunks within +-2 s) of (chunk arrival time - index of the chunk's first
sample / 22050): the chunk delivered with the least delay defines the clock, later ones were merely
delivered late (GIL, scheduling). "Audible" = |sample| >= 300
(-40 dBFS); "silent" = no audible sample for a given time. The start-up self-check (printed above
the table) plays a click train with pacat on the rig's sink: spacing error of the detected clicks
(sample clock + detector) and write-to-heard delay of isolated clicks (an upper bound of the whole
chain's error, including pacat's own buffering), plus the chunk arrival jitter = resolution.
Validation here: clicks 500 ms apart were found exactly 11025 samples apart, the mapped times agreed
with the sample clock within ~1-2 ms (it follows the sink's block size, 1.3 ms with a server
connected, 4.9 ms idle), and isolated clicks were heard -1.4..+2.1 ms after pacat got them:
resolution about +-2 ms, far below the 10 ms targets.

Metrics (the client's times are taken right before the python3-speechd call; events are timestamped
in python3-speechd's reader thread as they arrive):
 1 speak -> first audible: speak("Hello there.") -> first audible sample; and the same for a
   Japanese sentence with kanji ("それでは発表します。", language ja), which Utter reads with MeCab.
 2 cancel -> silence / -> CANCEL: a long text; once >= 300 ms of it was heard and the newest chunk is
   audible (mid-word), cancel() -> end of the last audible sample, and -> the CANCEL callback.
 3 mark skew: SSML  One. <mark a/>Alpha, <mark b/>oscar. <mark c/>Echo.
   Every mark directly precedes a pause in the speech (a, c after a full stop, b after a comma,
   mid-sentence), so the mark's sample is the onset after that pause: the utterance is cut into
   audible runs at silences >= 60 ms, the three longest silences are the three mark pauses (checked
   on an uninterrupted capture first: they are 4-5x longer than any other silence), and mark k was
   heard at the end of the k-th of them in time order. skew = INDEX_MARK callback time - that
   onset (positive: the callback came after the sound). Missing callbacks are counted as marks lost.
 4 pause: a two-sentence TEXT message; 250 ms into the first sentence pause() -> PAUSE callback and
   -> silence; 300 ms after the silence resume() -> RESUME ... END. Heard duration = audible time
   of the message with every silence >= 30 ms removed (so a pause gap or sentence pause moved by the
   resume does not count); ratio resumed / uninterrupted (median of 3 uninterrupted runs) is 1.00
   when nothing was lost or repeated.
 5 spawn -> 299: the module binary is driven directly (no server, as bench/run does): spawn with an
   empty config file, send INIT at once, time to "299 OK LOADED SUCCESSFULLY".
 6 peak RSS: VmHWM of the module process (the server's child running the binary) after all runs;
   private: what it alone holds then (the anonymous pages of every mapping, written file pages
   included: the memory it costs the machine; clean file pages are shared and droppable); below the table,
   what it holds at the end: anonymous (its own), file-backed (code), PSS, private.
 7 CPU per audio second: CPU time of the module, and of module + server, over one long TEXT
   message (>= 20 s of speech) divided by its audible duration (first to last audible sample).
   CPU time = sum over the process's threads of /proc/PID/task/TID/schedstat (ns; utime+stime in
   10 ms ticks is too coarse for sd_espeak-ng's ~20 ms), plus the ticks of threads that exited.
   sd_espeak-ng's audio is played by the server (libpulse runs in the server), sd_utter's by the
   module (the ALSA pulse plugin's libpulse runs in the module): module+server is the like-for-like
   figure; both rows get the <= 1x target. sd_utter gets a utter.conf with "LogLevel 3" (its
   default), since the server's -l 5 would otherwise switch its logging to debug.
 8 underruns under load: the long text (--load-seconds of speech) once unloaded (reference) and once
   with two `python3 -c 'while 1: pass'` busy loops running; counted as silences > 30 ms inside
   the speech beyond those of the reference, and "added silence" = how much longer the loaded
   utterance lasted (negative values, seen for both modules, are run-to-run variation of the
   unloaded reference, not understood yet: read it as information only); for sd_utter also its own
   log lines (bench.log: the module's stderr) mentioning "underrun".
 9 cut step: at each cancel (metric 2), the largest difference between neighbouring samples where
   the sound ends (its last audible sample and the 5 ms after it) over the largest such difference
   in the speech heard before the cancel: above 1 the cut is a step the voice never makes, a click.
10 after silence: --reps (at most 5) times, both rigs idle for 10 s, then speak -> first audible
   (metric 1) on each; with the module's wakeups per second (the third field of
   /proc/PID/task/*/schedstat: times its threads were scheduled in) over the last 4 s of the 10,
   judged, and over all 10, shown: sd_utter closes its idle device once, AudioIdleSeconds (5) after
   the message, which takes its render and control threads 2-3 wakeups; what is judged is whether
   anything wakes it once that is done. And while speaking the long text of metric 7. sd_espeak-ng's audio thread is in the server, so its module figures count only
   synthesis and protocol.
11 STOP cuts (issue 25): first of all (before the self-check and the warm-up), so the first is
   the module's first sound on a sound server nothing played to yet; 20
   STOPs of one sentence with no pause in it (CUT_TEXT), at the moments of CUT_PLAN: the first
   60 ms after the module's first sound, others 10-280 ms after a message started on a stream
   corked in 0.7 s of silence or right after a short message played out, some mid-sentence.
   Each cut ends at its last sample >= 30 (-60 dBFS: the stream then plays digital zeros) before
   150 ms of silence. Its last millisecond is compared with the same sentence spoken unstopped
   afterwards (matched over the 60 ms before the cut's last 6 ms, then again over the fade, within -100..+150 ms of where
   the onsets put it): gain = RMS heard / RMS unstopped there (a 4 ms fade leaves about 0.14, a
   cut 1). A cut is "not faded" when gain > 0.5 and its last millisecond's peak is > 0.15 of the
   largest peak of the 10 ms before (issue 25's measure; alone it misjudges speech: a real fade
   of a low or rising wave leaves up to 0.6, and a STOP in a pause ends a quiet natural decay).
   An end where the unstopped sentence falls silent too (a word's own end: nothing was cut) is not
   judged. UTTER_BENCH_QUANTUM=1024 holds PipeWire's quantum where a desktop has it with nothing
   but speech playing (the 5 ms recorder otherwise makes it 256).
   Rows: cuts not faded, the worst gain among loud ends, the worst issue-25 measure.
"""

import argparse
import os
import sys
import time
import traceback

from . import ESPEAK, ROOT
from .analysis import RATE, heard_samples
from .processes import BenchError, alive, cleanup
from .procfs import memory_parts_mib, vm_hwm_kib, wakeups, wakeups_between
from .protocol import spawn_to_299
from .report import abs_target, fmt, header, ratio, ratio_target, summary
from .rig import JAPANESE_TEXT, LONG_SENTENCE, LONG_SENTENCE_SECONDS, MARK_TEXT, PAUSE_TEXT, Rig
from .statistics import median

SILENCE_SECONDS = 10
# The idle wakeups judged are those after this many seconds of the silence: after the idle close.
SETTLED_SECONDS = 6


def log(text):
    sys.stderr.write("[%7.1f] %s\n" % (time.monotonic() - T0, text))
    sys.stderr.flush()


T0 = time.monotonic()


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n")[0], epilog=__doc__.split("\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("utter", nargs="?", default=os.path.join(ROOT, ".build-bench/release/sd_utter"),
                    help="sd_utter binary (default: .build-bench/release/sd_utter)")
    ap.add_argument("--espeak", default=ESPEAK)
    ap.add_argument("--reps", "-n", type=int, default=50)
    ap.add_argument("--load-seconds", type=float, default=60.0,
                    help="speech under load (and its unloaded reference), s")
    ap.add_argument("--quick", action="store_true", help="--reps 10 --load-seconds 15")
    ap.add_argument("--timeout", type=float, default=15.0, help="deadline for each wait, s")
    ap.add_argument("--sound-server", choices=("pulseaudio", "pipewire"), default="pulseaudio",
                    help="the private sound server both modules play to: PulseAudio, or PipeWire with"
                         " WirePlumber and pipewire-pulse (as Debian 12's GNOME)")
    ap.add_argument("--backend", choices=("alsa", "pulse", "pipewire", "auto"), default="alsa",
                    help="how sd_utter reaches the sound server: ALSA's pulse plugin (AudioOutputMethod alsa),"
                         " or (AudioOutputMethod pulse) libpulse, libpipewire, or what AudioBackend auto picks")
    ap.add_argument("--only", default="spawn,cuts,speak,storm,silence,load,pause",
                    help="comma-separated phases to run (spawn, cuts, speak, storm, silence, load, pause), to iterate on one"
                         " figure; the full table needs all")
    args = ap.parse_args()
    phases = set(args.only.split(","))
    if args.quick:
        args.reps, args.load_seconds = 10, 15.0
    for b in (args.utter, args.espeak):
        if not os.access(b, os.X_OK):
            sys.exit("not executable: %s" % b)

    names = ("sd_utter", "sd_espeak-ng")
    binaries = {"sd_utter": args.utter, "sd_espeak-ng": args.espeak}
    R = {n: {} for n in names}  # name -> metric -> list of values
    info = {n: {} for n in names}
    failures = []
    rigs = {}

    def add(name, key, value):
        R[name].setdefault(key, []).append(value)

    def snap_rss(name):
        """Peak RSS so far (kept when a later step fails and the rig is torn down)."""
        rig = rigs.get(name)
        if rig is None or rig.module_pid is None or not alive(rig.module_pid):
            return
        try:
            R[name]["rss"] = [rig.rss_mib()]
            info[name]["rss_parts"] = memory_parts_mib(rig.module_pid)
            R[name]["private"] = [info[name]["rss_parts"]["Private"]]
            info[name]["server_rss"] = vm_hwm_kib(rig.server.pid) / 1024.0
        except (OSError, BenchError):
            pass

    def fail(name, phase, e):
        rig = rigs.get(name)
        failures.append("%s, %s: %s" % (name, phase, e))
        log("FAILED %s %s: %s" % (name, phase, e))
        if rig is not None and not rig.broken:
            snap_rss(name)
            rig.broken = str(e)
            print(rig.failure(phase, e), file=sys.stderr)
            rig.close()

    try:
        # 5. spawn -> 299, directly
        log("spawn -> 299, %d times each" % args.reps)
        for i in range(args.reps if "spawn" in phases else 0):
            for name in (names if i % 2 == 0 else names[::-1]):
                try:
                    add(name, "spawn", spawn_to_299(binaries[name], args.timeout))
                except BenchError as e:
                    failures.append("%s, spawn -> 299: %s" % (name, e))

        for name in names:
            log("set-up for %s" % name)
            try:
                rigs[name] = Rig(name, binaries[name], name == "sd_espeak-ng", args.timeout,
                                 args.sound_server, args.backend)
            except Exception as e:  # noqa: BLE001
                rigs[name] = None
                failures.append("%s, set-up: %s" % (name, e))
                log("set-up of %s failed: %s" % (name, e))
        live = lambda: [n for n in names if rigs.get(n) is not None and not rigs[n].broken]

        # timing self-check on the first rig, then warm-up + references
        for name in live():
            rig = rigs[name]
            try:
                if "cuts" in phases:
                    # first, on a sound server nothing has played to yet: the first STOP of the
                    # module's first sound is one of them
                    log("%s: 20 STOP cuts" % name)
                    cuts = rig.stop_cuts()
                    info[name]["cuts"] = cuts
                    loud = [g for b, a, g, l, natural in cuts if l > 0.15 and not natural]
                    add(name, "cuts_unfaded", sum(1 for g in loud if g > 0.5))
                    add(name, "cut_worst", max(loud, default=0.0))
                    add(name, "cut_last_ms_worst", max(l for b, a, g, l, natural in cuts if not natural))
                if "check" not in info["sd_utter"]:
                    spacing, mapping, delays = rig.self_check()
                    info["sd_utter"]["check"] = (spacing, mapping, delays,
                                                 rig.monitor.resolution())
                log("%s: warm-up" % name)
                rig.utterance("Warm up.")
                lay = []
                for _ in range(2):
                    t, msg, first, end = rig.utterance(MARK_TEXT, ssml=True)
                    lay.append(rig.mark_layout(first, end))
                info[name]["mark_layout"] = lay[-1]
                ref = []
                for _ in range(3):
                    t, msg, first, end = rig.utterance(PAUSE_TEXT)
                    ref.append(heard_samples(rig.monitor.samples(first, end), int(0.03 * RATE)))
                info[name]["pause_ref"] = median(ref)
            except Exception as e:  # noqa: BLE001
                fail(name, "warm-up/reference", e)

        # 1-3 interleaved
        log("speak/cancel/marks, %d repetitions" % args.reps)
        for i in range(args.reps if "speak" in phases else 0):
            for name in (live() if i % 2 == 0 else live()[::-1]):
                rig = rigs[name]
                try:
                    first, begin = rig.first_audible()
                    add(name, "first", first)
                    if begin is not None:
                        add(name, "begin_skew", begin)
                    add(name, "first_ja", rig.first_audible(JAPANESE_TEXT, "ja")[0])
                    sil, cb, step = rig.cancel()
                    add(name, "cancel_silence", sil)
                    add(name, "cancel_cb", cb)
                    add(name, "cut_step", step)
                    skews, lost = rig.marks()
                    for mark, v in skews:
                        add(name, "skew", v)
                        add(name, "skew_" + mark, v)
                    add(name, "marks_lost", lost)
                except Exception as e:  # noqa: BLE001
                    fail(name, "repetition %d" % (i + 1), e)
            if (i + 1) % 10 == 0:
                log("  repetition %d/%d" % (i + 1, args.reps))

        # key echo storm: 30 CHARs 80 ms apart, each cancelling the last
        n_storms = min(args.reps, 3) if "storm" in phases else 0
        log("key-echo storm, %d repetitions" % n_storms)
        for i in range(n_storms):
            for name in (live() if i % 2 == 0 else live()[::-1]):
                try:
                    delays, unheard = rigs[name].storm()
                    for d in delays:
                        add(name, "storm_first", d)
                    add(name, "storm_unheard", unheard)
                except Exception as e:  # noqa: BLE001
                    fail(name, "storm %d" % (i + 1), e)

        # speech after silence: the first word after 10 s of nothing, and the wakeups meanwhile
        n_silent = min(args.reps, 5) if "silence" in phases else 0
        log("speak after %d s of silence, %d repetitions" % (SILENCE_SECONDS, n_silent))
        for i in range(n_silent):
            order = live() if i % 2 == 0 else live()[::-1]
            before, settled = {}, {}
            for name in order:
                try:
                    before[name] = wakeups(rigs[name].module_pid)
                except OSError as e:
                    fail(name, "idle wakeups", e)
            time.sleep(SETTLED_SECONDS)
            for name in order:
                try:
                    settled[name] = wakeups(rigs[name].module_pid)
                except (OSError, KeyError) as e:
                    fail(name, "idle wakeups", e)
            time.sleep(SILENCE_SECONDS - SETTLED_SECONDS)
            for name in order:
                rig = rigs[name]
                if rig.broken:
                    continue
                try:
                    now = wakeups(rig.module_pid)
                    add(name, "idle_wakeups",
                        wakeups_between(settled[name], now) / (SILENCE_SECONDS - SETTLED_SECONDS))
                    add(name, "idle_wakeups_all", wakeups_between(before[name], now) / SILENCE_SECONDS)
                    first, _ = rig.first_audible()
                    add(name, "first_after_silence", first)
                except Exception as e:  # noqa: BLE001
                    fail(name, "after silence %d" % (i + 1), e)

        # 7-8 long text: reference (CPU), then under load
        n_sent = max(1, int(round(args.load_seconds / LONG_SENTENCE_SECONDS)))
        load_text = " ".join(LONG_SENTENCE % (k + 1) for k in range(n_sent))
        n_cpu = max(n_sent, int(round(20.0 / LONG_SENTENCE_SECONDS)) + 1)
        cpu_text = " ".join(LONG_SENTENCE % (k + 1) for k in range(n_cpu))
        for name in (live() if "load" in phases else []):
            rig = rigs[name]
            try:
                log("%s: long text for CPU (%d sentences)" % (name, n_cpu))
                r = rig.long_run(cpu_text)
                info[name]["cpu_seconds"] = r["seconds"]
                add(name, "cpu_module", r["module_cpu"] / r["seconds"])
                add(name, "cpu_total", (r["module_cpu"] + r["server_cpu"]) / r["seconds"])
                add(name, "speaking_wakeups", r["wakeups"] / r["seconds"])
                ref = r if n_cpu == n_sent else rig.long_run(load_text)
                log_before = rig.underrun_log_lines()
                log("%s: the same %.0f s under load (2 busy loops)" % (name, ref["seconds"]))
                loaded = rig.long_run(load_text, busy=2)
                extra = max(0, len(loaded["runs"]) - len(ref["runs"]))
                added = 1000 * (loaded["seconds"] - ref["seconds"])
                add(name, "gaps", extra)
                add(name, "added_silence", added)
                info[name]["load"] = (ref["seconds"], loaded["seconds"], len(ref["runs"]),
                                      len(loaded["runs"]))
                if name == "sd_utter":
                    add(name, "underrun_log", rig.underrun_log_lines() - log_before)
            except Exception as e:  # noqa: BLE001
                fail(name, "long text / load", e)

        for name in live():
            snap_rss(name)
        # 4 pause, last: it is the riskiest for the server
        log("pause/resume, %d repetitions" % args.reps)
        for i in range(args.reps if "pause" in phases else 0):
            for name in (live() if i % 2 == 0 else live()[::-1]):
                rig = rigs[name]
                try:
                    r = rig.pause(info[name]["pause_ref"])
                    add(name, "pause_cb", r["pause_cb"])
                    add(name, "pause_silence", r["pause_silence"])
                    add(name, "resume_ratio", r["resume_ratio"])
                    info[name].setdefault("pause_events", {}).setdefault(r["events"], 0)
                    info[name]["pause_events"][r["events"]] += 1
                except Exception as e:  # noqa: BLE001
                    fail(name, "pause repetition %d" % (i + 1), e)
            if (i + 1) % 10 == 0:
                log("  pause repetition %d/%d" % (i + 1, args.reps))

        # 6 peak RSS (after every run; taken before the pause phase too, in case it fails)
        for name in live():
            snap_rss(name)
    except KeyboardInterrupt:
        failures.append("interrupted")
    except Exception as e:  # noqa: BLE001
        failures.append("bench error: %s\n%s" % (e, traceback.format_exc()))
    finally:
        for name in names:
            rig = rigs.get(name)
            if rig is not None:
                try:
                    rig.close()
                except Exception:  # noqa: BLE001
                    pass
        cleanup()

    report(args, R, info, failures)
    sys.exit(1 if failures else 0)


def report(args, R, info, failures):
    ours, theirs = "sd_utter", "sd_espeak-ng"
    print()
    print("bench/server: %d repetitions, load %.0f s; %s vs %s through speech-dispatcher 0.11.4 "
          "on a paced %s null sink (22050 Hz mono); sd_utter through %s" % (
              args.reps, args.load_seconds, args.utter, args.espeak,
              "PipeWire (pipewire-pulse, WirePlumber)" if args.sound_server == "pipewire" else "PulseAudio",
              "ALSA's pulse plugin" if args.backend == "alsa" else "AudioBackend " + args.backend))
    chk = info[ours].get("check")
    if chk:
        spacing, mapping, delays, (lag_med, lag_p95, chunk) = chk
        print("timing: monitor chunks %.1f ms (median); chunk arrival jitter above the envelope "
              "median %.2f ms, p95 %.2f ms" % (chunk, lag_med, lag_p95))
        print("timing self-check: click train (pacat, clicks 500 ms apart): detected spacing "
              "error in samples max |%.2f| ms; clock-mapping error between clicks max |%.2f| ms; "
              "isolated clicks, pacat write -> heard: median %.1f ms, min %.1f, max %.1f (10; "
              "includes pacat's 5 ms buffer, so >= 0 is expected)"
              % (max(abs(x) for x in spacing), max(abs(x) for x in mapping),
                 median(delays), min(delays), max(delays)))

    rows = [
        ("speak -> first audible (ms)", "first", 1, ratio_target(0.5)),
        ("BEGIN callback - first audible (ms)", "begin_skew", 1, None),
        ("  the same in Japanese, with kanji (ms)", "first_ja", 1, None),
        ("cancel -> silence (ms)", "cancel_silence", 1, ratio_target(0.5, 10)),
        ("cancel -> CANCEL callback (ms)", "cancel_cb", 1, None),
        ("cut step / speech's largest step", "cut_step", 2, abs_target("<= 1.00", lambda m, p: p <= 1)),
        ("STOP cuts not faded (of 20)", "cuts_unfaded", 0, abs_target("0", lambda m, p: p == 0)),
        ("worst STOP cut: last-ms gain", "cut_worst", 2, abs_target("<= 0.50", lambda m, p: p <= 0.5)),
        ("worst STOP cut: last ms/10 ms peak", "cut_last_ms_worst", 2, None),
        ("key storm: CHAR -> first audible (ms)", "storm_first", 1, ratio_target(0.5)),
        ("key storm: keys never heard (of 30)", "storm_unheard", 1, None),
        ("first audible after 10 s silence (ms)", "first_after_silence", 1, None),
        ("module wakeups/s, idle", "idle_wakeups", 1, abs_target("0", lambda m, p: p == 0)),
        ("  over all 10 s (idle close in it)", "idle_wakeups_all", 1, None),
        ("module wakeups/s, speaking", "speaking_wakeups", 0, None),
        ("mark skew, callback - heard (ms)", "skew", 1,
         abs_target("p95 <= 10 ms", lambda m, p: abs(p) <= 10)),
        ("  skew of mark a (after full stop)", "skew_a", 1, None),
        ("  skew of mark b (after comma)", "skew_b", 1, None),
        ("  skew of mark c (after full stop)", "skew_c", 1, None),
        ("marks lost per message (of 3)", "marks_lost", 2,
         abs_target("0", lambda m, p: p == 0)),
        ("pause -> PAUSE callback (ms)", "pause_cb", 0, None),
        ("pause -> silence (ms)", "pause_silence", 0, None),
        ("resumed/uninterrupted heard", "resume_ratio", 3,
         abs_target("1.00", lambda m, p: abs(m - 1) <= 0.02)),
        ("spawn -> 299 (ms, direct)", "spawn", 1, None),
        ("peak RSS VmHWM (MiB)", "rss", 1, ratio_target(1.2)),
        ("private: anonymous pages (MiB)", "private", 1, ratio_target(1.0)),
        ("CPU s per audio s, module", "cpu_module", 4, ratio_target(1.0)),
        ("CPU s per audio s, module+server", "cpu_total", 4, ratio_target(1.0)),
        ("extra gaps >30 ms under load", "gaps", 0, abs_target("0", lambda m, p: p == 0)),
        ("added silence under load (ms)", "added_silence", 0, None),
        ("underruns in utter log under load", "underrun_log", 0,
         abs_target("0", lambda m, p: p == 0)),
    ]
    row = "%-36s %9s %9s %9s %9s %7s  %-20s %s"
    header(row % ("metric", "ours med", "ours p95", "thrs med", "thrs p95", "ratio", "target", "result"))
    for label, key, digits, target in rows:
        om, op, _ = summary(R[ours].get(key))
        tm, tp, _ = summary(R[theirs].get(key))
        ttext, ok = ("", None) if target is None else target(om, op, tm)
        verdict = "" if target is None else ("n/a" if ok is None else ("PASS" if ok else "MISS"))
        print(row % (label, fmt(om, digits), fmt(op, digits), fmt(tm, digits), fmt(tp, digits),
                     ratio(om, tm), ttext, verdict))
    for name in (ours, theirs):
        ns = {k: len(v) for k, v in R[name].items()}
        lost = sum(R[name].get("marks_lost", []))
        n_msgs = len(R[name].get("marks_lost", []))
        print("%s: samples per metric %s" % (name, ns))
        print("%s: marks lost: %d of %d" % (name, lost, 3 * n_msgs))
        lay = info[name].get("mark_layout")
        if lay:
            print("%s: mark pauses (uninterrupted) %s ms; longest other silence %s ms"
                  % (name, ", ".join("%.0f" % g for g in lay[1]),
                     "%.0f" % lay[2][0] if lay[2] else "none"))
        if "cuts" in info[name]:
            print("%s: STOP cuts (before, ms after heard: last-ms gain, last ms/10 ms; *: the speech ends there too): %s" % (
                name, "; ".join("%s +%d: %.2f, %.2f%s" % (c[:4] + ("*" if c[4] else "",)) for c in info[name]["cuts"])))
        if "pause_events" in info[name]:
            print("%s: pause/resume event sequences %s" % (name, info[name]["pause_events"]))
        if "load" in info[name]:
            r, l, nr, nl = info[name]["load"]
            print("%s: long text %.1f s unloaded (%d audible runs), %.1f s loaded (%d runs); CPU "
                  "text %.1f s" % (name, r, nr, l, nl, info[name].get("cpu_seconds", 0)))
        if "rss_parts" in info[name]:
            print("%s: module resident at the end: anonymous %.1f MiB, file-backed %.1f MiB, PSS %.1f MiB, "
                  "private %.1f MiB" % (name, info[name]["rss_parts"].get("RssAnon", 0),
                                        info[name]["rss_parts"].get("RssFile", 0),
                                        info[name]["rss_parts"].get("Pss", 0),
                                        info[name]["rss_parts"].get("Private", 0)))
        if "server_rss" in info[name]:
            print("%s: server VmHWM %.1f MiB" % (name, info[name]["server_rss"]))
    if failures:
        print("FAILURES:")
        for f in failures:
            print("  " + f)
