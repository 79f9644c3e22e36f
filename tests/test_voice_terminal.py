"""The terminal the voice benchmark types on (companion.benchmarks.voice.Terminal) keeps what a failed cut needs
to show: every line printed and every line typed, in the order they came, each with its second."""

from __future__ import annotations

import os
import sys

from companion.benchmarks.voice import Terminal

ASKS = "print('Which die face?', flush=True); print('heard', input(), flush=True)"


def test_the_transcript_gives_printed_and_typed_lines_in_order_with_their_seconds():
    terminal = Terminal([sys.executable, "-c", ASKS], dict(os.environ))
    try:
        assert terminal.wait_until(lambda: any(line == "Which die face?" for _, line in terminal.lines), 30)
        terminal.type("forest")
        assert terminal.wait_until(lambda: any(line == "heard forest" for _, line in terminal.lines), 30)
        transcript = terminal.transcript()
    finally:
        terminal.close()
    seconds = [float(entry[:6]) for entry in transcript]  # "  0.00 Which die face?"
    said = [entry[7:] for entry in transcript]
    assert seconds == sorted(seconds) and seconds[0] == 0.0
    # the question, then what was typed (marked), its echo by the terminal, and the answer
    assert said == ["Which die face?", "> forest", "forest", "heard forest"], transcript
