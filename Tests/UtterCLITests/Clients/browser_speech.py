#!/usr/bin/python3
"""Speak text through a headless browser's Web Speech API and report what happened.

Usage: browser_speech.py BROWSER_PATH SECONDS LANG TEXT [LANG TEXT ...]

BROWSER_PATH is Chromium (/usr/bin/chromium) or Firefox (/usr/bin/firefox-esr);
the kind is told by the program's name.  A local HTTP server on 127.0.0.1
serves a page that waits for speechSynthesis.getVoices(), then for each
LANG TEXT pair speaks a SpeechSynthesisUtterance(TEXT) with only `lang` set,
one after another, and POSTs each event back.  Prints one JSON object per
line: first the voices the browser lists, then one line per utterance.
Exit 0 when every utterance fired `end`; 1 on an error, a timeout (SECONDS,
counted from the browser's start) or a browser that quit; 2 on bad usage.
The browser runs headless with a throw-away profile in a temporary folder
and is ended, with its helpers, on every way out (a speech-dispatcher it
started, and that server's modules, are left running: they are the user's).
"""

import ctypes
import http.server
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>speech</title></head><body>
<script id="cfg" type="application/json">%(cfg)s</script>
<script>
"use strict";
const cfg = JSON.parse(document.getElementById("cfg").textContent);
function report(obj) {
  return fetch("/report", {method: "POST", body: JSON.stringify(obj),
                           headers: {"Content-Type": "application/json"}});
}
window.addEventListener("error", e => report({page_error: String(e.message)}));
function describe(v) {
  return v ? {name: v.name, lang: v.lang, voiceURI: v.voiceURI,
              default: v.default, localService: v.localService} : null;
}
function norm(tag) { return String(tag || "").replace("_", "-").toLowerCase(); }
function pause(ms) { return new Promise(r => setTimeout(r, ms)); }
function voicesChanged(ms) {
  return new Promise(r => {
    const t = setTimeout(r, ms);
    speechSynthesis.addEventListener("voiceschanged",
                                     () => { clearTimeout(t); r(); }, {once: true});
  });
}
// Wait until the list is non-empty and has stopped growing for a moment.
async function settledVoices(limitMs) {
  const t0 = performance.now();
  let list = speechSynthesis.getVoices();
  while (list.length === 0 && performance.now() - t0 < limitMs) {
    await voicesChanged(250);
    list = speechSynthesis.getVoices();
  }
  while (list.length > 0 && performance.now() - t0 < limitMs) {
    await pause(400);
    const again = speechSynthesis.getVoices();
    if (again.length === list.length) break;
    list = again;
  }
  return list;
}
function speakOne(i, lang, text) {
  return new Promise(resolve => {
    const u = new SpeechSynthesisUtterance(text);
    u.lang = lang;
    const t0 = performance.now();
    const ms = () => Math.round(performance.now() - t0);
    // On a device that plays faster than real time, end follows start within milliseconds: the
    // start's report is awaited before the end's goes, or the script may end with it in flight.
    let started = Promise.resolve();
    const after = event => started.then(() => report(event), () => report(event));
    u.onstart = () => { started = report({i, event: "start", ms: ms()}); };
    u.onend = () => after({i, event: "end", ms: ms(), voice: describe(u.voice)}).then(resolve, resolve);
    u.onerror = e => after({i, event: "error", ms: ms(), error: e.error,
                            voice: describe(u.voice)}).then(resolve, resolve);
    speechSynthesis.speak(u);
    report({i, event: "queued", ms: ms()});
  });
}
async function main() {
  const list = await settledVoices(cfg.voices_ms);
  const forLang = {};
  for (const [lang] of cfg.pairs) {
    const exact = list.filter(v => norm(v.lang) === norm(lang));
    const base = list.filter(v => norm(v.lang).split("-")[0] === norm(lang).split("-")[0]);
    forLang[lang] = (exact.length ? exact : base).slice(0, 4).map(v => v.name);
  }
  await report({voices: list.length, sample: list.slice(0, 6).map(describe),
                defaults: list.filter(v => v.default).map(v => v.name),
                matching: forLang, agent: navigator.userAgent});
  for (let i = 0; i < cfg.pairs.length; i++) {
    await speakOne(i, cfg.pairs[i][0], cfg.pairs[i][1]);
  }
  await report({done: true});
}
main().catch(e => report({page_error: String(e)}));
</script></body></html>
"""

FIREFOX_PREFS = {
    "media.webspeech.synth.enabled": True,
    "media.autoplay.default": 0,
    "media.autoplay.blocking_policy": 0,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.aboutwelcome.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.normandy.enabled": False,
    "app.update.auto": False,
    "extensions.update.enabled": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
}


def browser_command(path, profile, url):
    name = os.path.basename(os.path.realpath(path)).lower()
    if "firefox" in name or "iceweasel" in name:
        os.makedirs(profile)
        with open(os.path.join(profile, "user.js"), "w") as f:
            for key, value in FIREFOX_PREFS.items():
                f.write("user_pref(%s, %s);\n" % (json.dumps(key), json.dumps(value)))
        return [path, "--headless", "--no-remote", "--profile", profile, url]
    return [path, "--headless=new", "--enable-speech-dispatcher",
            "--no-sandbox",  # root in CI, and containers often lack user namespaces
            "--user-data-dir=" + profile, "--no-first-run", "--no-default-browser-check",
            "--autoplay-policy=no-user-gesture-required", "--disable-gpu",
            "--disable-extensions", "--disable-background-networking", "--disable-sync",
            "--disable-component-update", "--password-store=basic", url]


def die_with_parent():
    """In the child: get SIGTERM if this script dies, even by SIGKILL (Linux prctl)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def serve(page, reports):
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = page if self.path.split("?")[0] == "/" else None
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body or b"")))
            self.end_headers()
            self.wfile.write(body or b"")

        def do_POST(self):
            data = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            try:
                reports.put(json.loads(data))
            except ValueError:
                reports.put({"page_error": "bad report: %r" % data[:200]})
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def group_members(pgid):
    """Live processes of process group pgid, less speech-dispatcher's.

    A speech-dispatcher that the browser's libspeechd autospawns forks its
    output modules (sd_*) before it daemonizes, so the modules, and what they
    run (an ALSA pipe's sh/cat), stay in the browser's process group.  They
    belong to the user's speech-dispatcher, which outlives this run, so they
    are left alone."""
    procs = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry, "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            with open("/proc/%s/cmdline" % entry, "rb") as f:
                argv0 = f.read().split(b"\0", 1)[0].decode("utf-8", "replace")
        except (OSError, IndexError):
            continue
        state, ppid, pgrp = fields[0], int(fields[1]), int(fields[2])
        if pgrp == pgid and state not in (b"Z", b"X"):
            procs[int(entry)] = (ppid, os.path.basename(argv0))
    speech = {pid for pid, (_, name) in procs.items()
              if name == "speech-dispatcher" or name.startswith("sd_")}
    grown = True
    while grown:
        more = {pid for pid, (ppid, _) in procs.items() if ppid in speech} - speech
        speech |= more
        grown = bool(more)
    return [pid for pid in procs if pid not in speech]


def stop(proc):
    """Ends the browser and its helpers: TERM, a grace period, then KILL."""
    if proc is None:
        return
    for sig, grace in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 2.0)):
        for pid in group_members(proc.pid):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        end = time.monotonic() + grace
        while time.monotonic() < end:
            proc.poll()
            if proc.returncode is not None and not group_members(proc.pid):
                return
            time.sleep(0.1)
    proc.wait()


def emit(obj):
    print(json.dumps(obj, ensure_ascii=False), flush=True)


def collect(proc, reports, records, seconds):
    """Prints the page's reports as they come; True when every utterance ended."""
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            emit({"timeout": seconds, "unfinished": [r for r in records
                  if not {"end", "error"} & set(r["events"])]})
            return False
        try:
            msg = reports.get(timeout=min(left, 0.5))
        except queue.Empty:
            if proc.poll() is not None:
                emit({"browser_exited": proc.returncode})
                return False
            continue
        if "page_error" in msg:
            emit(msg)
            return False
        if "voices" in msg:
            emit(msg)
        elif msg.get("done"):
            return all("end" in r["events"] and "error" not in r["events"] for r in records)
        elif "i" in msg:
            rec = records[msg["i"]]
            if msg["event"] != "queued":
                rec["events"].append(msg["event"])
            if msg["event"] == "start":
                rec["ms_to_start"] = msg["ms"]
            if msg["event"] in ("end", "error"):
                rec["ms_total"] = msg["ms"]
                rec["voice"] = msg.get("voice")
                if msg.get("error"):
                    rec["error"] = msg["error"]
                emit(rec)


def run(browser, seconds, pairs, work):
    page = PAGE % {"cfg": json.dumps({"pairs": pairs, "voices_ms": min(10000, seconds * 500)})
                   .replace("</", "<\\/")}
    reports = queue.Queue()
    server = serve(page.encode(), reports)
    url = "http://127.0.0.1:%d/" % server.server_address[1]
    log_path = os.path.join(work, "browser.log")
    records = [{"lang": lang, "text": text, "events": []} for lang, text in pairs]
    proc = None
    try:
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(browser_command(browser, os.path.join(work, "profile"), url),
                                    stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                    start_new_session=True, preexec_fn=die_with_parent)
        ok = collect(proc, reports, records, seconds)
    except OSError as e:
        emit({"error": "cannot start %s: %s" % (browser, e)})
        ok = False
    finally:
        stop(proc)
        server.shutdown()
        server.server_close()
    if not ok:
        try:
            with open(log_path, "rb") as f:
                tail = f.read()[-3000:].decode("utf-8", "replace")
            sys.stderr.write("--- browser output (tail) ---\n" + tail + "\n")
        except OSError:
            pass
    return 0 if ok else 1


def main(argv):
    try:
        browser, seconds = argv[1], float(argv[2])
        if len(argv) < 5 or len(argv) % 2 == 0 or not seconds > 0:
            raise ValueError
    except (IndexError, ValueError):
        sys.stderr.write(__doc__)
        return 2
    pairs = [[argv[i], argv[i + 1]] for i in range(3, len(argv), 2)]

    def interrupted(signum, frame):
        raise SystemExit(1)  # unwinds through run()'s finally, which kills the browser

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, interrupted)
    work = tempfile.mkdtemp(prefix="browser-speech-")
    try:
        return run(browser, seconds, pairs, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
