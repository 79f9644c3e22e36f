"""Benchmarks for `companion bench NAME`, registered in BENCHMARKS: each module defines configure(parser) and
run(args), and is imported only when its benchmark is chosen."""

from __future__ import annotations

import resource
import sys

# Each benchmark's name (its module's name) and what `companion bench --help` says of it.
BENCHMARKS: dict[str, str] = {
    "bots": "Bots: the strong bot's win rate against random and greedy bots, and the time to advise (p50, p95).",
    "engine": ("Draftosaurus engine: random full games per second on the summer and winter boards (2 to 5 players, "
               "scoring included) and peak memory."),
    "listen": ("Speech recognition on tuned and held-out voices in room conditions: understood, asked again, "
               "answered wrongly, misheard and applied; decode time and peak memory."),
    "parse": ("Parser: milliseconds per utterance (p50, p95, max) over the example sentences of each language, "
              "grammar load time, recogniser grammar sizes, peak memory."),
    "play": "Time from the end of a spoken command to the answer, and start-up time to the first question.",
    "start": ("Start-up as a whole process: 'companion --version', and a game with the text engine to its first "
              "question (French Draftosaurus, Spanish Dino), wall and processor time against their targets."),
    "voice": ("The voice loop through a private PulseAudio server: speech heard against speech printed, lines lost "
              "or out of order, first sound, barge-in silence, own voice taken for a command."),
}


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of `values` lie (nearest rank)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[rank]


def peak_memory_mb() -> float:
    """Peak resident memory of this process so far, in MB.

    On Linux the high-water mark of the process's own memory (VmHWM): ru_maxrss is kept across fork and exec,
    so a bench started by a large process (a test runner at 1.1 GB) reported that process's peak as its own."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024
