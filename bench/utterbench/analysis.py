"""Reading recorded speech (16-bit samples at the sink's rate): audible runs, the silences between
them, steps, and how a STOPped sound ends. Pure functions: no processes, no files."""

RATE = 22050  # the null sink's and the recordings' sample rate
LOUD = 300  # |sample| at or above this is audible (-40 dBFS)
SILENT = 30  # |sample| below this is silence where a stopped sound ends (-60 dBFS)


def loud_runs(s, min_gap):
    """Audible runs [start, end) in s, separated by silences of at least min_gap samples."""
    runs = []
    start = None
    last = None
    for i, v in enumerate(s):
        if v >= LOUD or v <= -LOUD:
            if start is None:
                start = i
            elif i - last - 1 >= min_gap:
                runs.append((start, last + 1))
                start = i
            last = i
    if start is not None:
        runs.append((start, last + 1))
    return runs


def heard_samples(s, min_gap):
    """How many samples of s are inside audible runs (silences of min_gap or more left out)."""
    return sum(b - a for a, b in loud_runs(s, min_gap))


def largest_step(samples):
    """The largest difference between neighbouring samples."""
    return max((abs(samples[i] - samples[i - 1]) for i in range(1, len(samples))), default=0)


def local_shift(a, r, start, end, offset):
    """How many samples (-12..12) the unstopped speech r must move to match a[start:end] best, from
    where r[i + offset] matches a[i]; 0 when no shift matches well (correlation under 0.8). A few
    samples lost at a stream's start move the speech after them; matched over the fade itself (which
    scales the sound: correlation does not mind), the gain compares the fade with what it fades."""
    import numpy
    v = a[start:end]
    best = (0.8, 0)
    for d in range(-12, 13):
        j = start + offset + d
        if j < 0 or j + len(v) > len(r):
            continue
        q = r[j:j + len(v)]
        c = float(numpy.dot(q, v)) / max((float(numpy.dot(q, q)) * float(numpy.dot(v, v))) ** 0.5, 1)
        if c > best[0]:
            best = (c, d)
    return best[1]


def judge_cut(s, onset, reference, ref_onset):
    """One STOP's cut in s (the sound starts at s[onset]), against the unstopped message
    (reference, audible from ref_onset). Returns (gain, last_ms): gain = RMS of the last
    millisecond before silence over the RMS of the unstopped speech at the same place (matched
    just before the cut: a resampler and a gap move it); last_ms = the peak of that millisecond
    over the largest peak of the 10 ms before it (issue 25's measure); natural = the unstopped
    speech falls silent within a millisecond of there too (the sound ended with a word, nothing was
    cut). None if it never ends."""
    import numpy  # python3-numpy: only the STOP cuts need it
    a = numpy.asarray(s, dtype=numpy.float64)
    r = numpy.asarray(reference, dtype=numpy.float64)
    ms = RATE // 1000
    quiet = int(0.15 * RATE)
    loud = numpy.nonzero(numpy.abs(a[onset:]) >= SILENT)[0] + onset
    if len(loud) == 0:
        return None
    gaps = numpy.nonzero(numpy.diff(loud) >= quiet)[0]
    last = int(loud[gaps[0]]) if len(gaps) else int(loud[-1])
    if not len(gaps) and len(a) - last <= quiet:
        return None
    peak = lambda x: float(numpy.max(numpy.abs(x))) if len(x) else 0.0
    last_ms = peak(a[last + 1 - ms:last + 1]) / max(peak(a[max(0, last + 1 - 11 * ms):last + 1 - ms]), 1)
    # match up to 60 ms ending 6 ms before the end (before any 4 ms fade) with the reference, from
    # 100 ms earlier than the onsets say to 150 ms later (over 24 ms a voiced sound matched itself a
    # pitch period away about as well)
    nominal = last - onset + ref_onset
    shift = 0
    # (from the onset at the earliest, where PulseAudio's monitor may have missed the start; a short
    # sound's 24 ms window starts up to 10 ms before it)
    w0 = max(last - 66 * ms, min(onset, max(last - 30 * ms, onset - 10 * ms)), 0)
    w1 = last - 6 * ms
    if w1 - onset >= 8 * ms:
        w = a[w0:w1]
        lo = max(0, w0 - last + nominal - 100 * ms)
        hi = min(len(r) - len(w), w0 - last + nominal + 150 * ms)
        if hi > lo:
            seg = r[lo:hi + len(w)]
            dots = numpy.correlate(seg, w, "valid")
            c = numpy.concatenate(([0.0], numpy.cumsum(seg * seg)))
            energy = c[len(w):] - c[:-len(w)]
            corr = dots / numpy.maximum(numpy.sqrt(energy * numpy.dot(w, w)), 1)
            shift = lo + int(numpy.argmax(corr)) - (w0 - last + nominal)
            shift += local_shift(a, r, last - 5 * ms, last - ms, nominal - last + shift)
    at = nominal + shift
    gain = 0.0
    for length in (ms, 2 * ms):
        idx = numpy.arange(last + 1 - length, last + 1)
        pos = idx - last + at
        ok = (pos >= 0) & (pos < len(r))
        spoken = float(numpy.sum(r[pos[ok]] ** 2))
        gain = (float(numpy.sum(a[idx] ** 2)) / max(spoken, 1)) ** 0.5
        if spoken >= length * 40 * 40:
            break
    # (a millisecond after the end: espeak-ng ends a word into digital silence at once)
    idx = numpy.arange(last + 1 + ms, last + 1 + 2 * ms) - last + at
    after = r[idx[(idx >= 0) & (idx < len(r))]]
    natural = float(numpy.sum(after ** 2)) < ms * SILENT * SILENT
    # (sound heard where the unstopped speech is all but silent: shown as 10 at most)
    return min(gain, 10.0), last_ms, natural
