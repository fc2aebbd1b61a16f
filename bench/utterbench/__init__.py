"""What the scripts in bench/ share: each script there is a thin entry point into one module here.

Shared parts:
  processes   start, stop and find processes (every one started is ended by PID at the end)
  procfs      what /proc says of a process: CPU time, wakeups, resident memory
  soundserver private PulseAudio or PipeWire daemons with a paced null sink
  capture     recording a sink's monitor in real time; reading sound files
  analysis    audible runs, silences, steps and STOP cuts in recorded samples
  protocol    an output module driven directly over its stdin/stdout, as speech-dispatcher does
  rig         one module behind a private speech-dispatcher on a private sound server
  statistics  the one median and percentile
  report      table cells and rows
One module per script: run, long, server, clips, render, mandarin, neural, neural_server, symbol_order.
"""

import os

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(BENCH)  # the repository
ESPEAK = "/usr/lib/speech-dispatcher-modules/sd_espeak-ng"
