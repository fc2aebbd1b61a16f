"""What /proc says of a running process: CPU time, wakeups, resident memory."""

import os
import threading
import time

from .processes import BenchError, children_of


def cpu_ticks(pid):
    """utime + stime of pid (clock ticks), threads that exited included."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)


def cpu_seconds(pid):
    """CPU time of all live threads of pid in ns resolution (/proc/PID/task/*/schedstat), plus
    utime+stime of threads that already exited (ticks, from /proc/PID/stat minus live threads)."""
    total_ns = 0
    live_ticks = 0
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                total_ns += int(f.read().split()[0])
            with open("/proc/%d/task/%s/stat" % (pid, tid)) as f:
                fields = f.read().rsplit(")", 1)[1].split()
                live_ticks += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    dead_ticks = max(0, cpu_ticks(pid) - live_ticks)
    return total_ns / 1e9 + dead_ticks / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid):
    """CPU of pid's threads plus that of its reaped children (cutime + cstime)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return cpu_seconds(pid) + (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def wakeups(pid):
    """For each live thread of pid, how many times it was scheduled in (the third field of
    /proc/PID/task/TID/schedstat): each is a wakeup of a sleeping or preempted thread."""
    counts = {}
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                counts[tid] = int(f.read().split()[2])
        except (OSError, IndexError, ValueError):
            pass
    return counts


def wakeups_between(before, after):
    """The wakeups from `before` to `after` (two readings of wakeups()): a thread started in between
    counts whole; one that ended in between is missed (a thread's count leaves with it)."""
    return sum(n - before.get(tid, 0) for tid, n in after.items())


def private_kib(smaps_text):
    """Memory only this process holds (KiB), from the text of /proc/PID/smaps: the anonymous pages
    of every mapping, which are those of the heap, stacks and anonymous memory and the pages of a
    file mapping the process wrote (relocated data, written globals), copied for it alone. Clean
    file pages are left out: they are shared with every other process mapping the file and the
    kernel can drop them at any time. (Not `Private_Dirty`: a file page the page cache has not
    written back yet, such as a just-copied binary's code, counts as dirty there.)"""
    total = 0
    for line in smaps_text.splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[0] == "Anonymous:":
            total += int(fields[1])
    return total


def memory_parts_mib(pid):
    """Resident memory now, by kind (MiB): anonymous (the process's own), file-backed (code and
    data of the binary and its libraries, shared with any other process mapping them), PSS, and
    private (anonymous pages, see private_kib)."""
    parts = {}
    with open("/proc/%d/smaps" % pid) as f:
        parts["Private"] = private_kib(f.read()) / 1024.0
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            key = line.split(":")[0]
            if key in ("RssAnon", "RssFile"):
                parts[key] = int(line.split()[1]) / 1024.0
    with open("/proc/%d/smaps_rollup" % pid) as f:
        for line in f:
            if line.startswith("Pss:"):
                parts["Pss"] = int(line.split()[1]) / 1024.0
    return parts


def vm_hwm_kib(pid):
    """Peak resident memory (VmHWM) of pid, KiB."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise BenchError("no VmHWM for %d" % pid)


def rss_kib(pid):
    """Resident memory (VmRSS) of pid now, KiB; 0 once it is gone."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def print_mappings(pid, name, out, top=14, segments=False):
    """Where the resident memory is, per mapped file (kB), largest first (segments: per mapping's
    permissions too)."""
    sizes = {}
    current = None
    with open("/proc/%d/smaps" % pid) as f:
        for line in f:
            fields = line.split()
            if "-" in fields[0] and len(fields) >= 5 and ":" in fields[3]:
                current = fields[5] if len(fields) > 5 else "[anonymous]"
                if segments:
                    current += " " + fields[1]
            elif fields[0] == "Rss:" and current is not None:
                sizes[current] = sizes.get(current, 0) + int(fields[1])
    total = sum(sizes.values())
    print("%s resident now: %d kB" % (name, total), file=out)
    for path, kb in sorted(sizes.items(), key=lambda item: -item[1])[:top]:
        print("  %6d kB  %s" % (kb, path), file=out)


class TreeRSS:
    """The largest sum of VmRSS over a process and its descendants, sampled every 50 ms."""

    def __init__(self, pid):
        self.pid, self.peak, self.running = pid, 0, True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while self.running:
            total = rss_kib(self.pid) + sum(rss_kib(p) for p in children_of(self.pid))
            self.peak = max(self.peak, total)
            time.sleep(0.05)

    def stop(self):
        self.running = False
        self.thread.join()
        return self.peak / 1024.0
