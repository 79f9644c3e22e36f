"""Listening with a speech recogniser: audio source → endpointer → recogniser → Heard.

The microphone and WAV files go through exactly the same steps. The microphone is muted while the program
speaks or plays an earcon and for a guard time after (what it catches then is dropped as it comes in), so the
program never hears itself, and a player who answers at once is heard even if the program is still busy. Before
listening, the listener lets the program finish what it is saying (Enter, or a line typed, on the terminal cuts
it off). With push-to-talk, it listens after each Enter. If the microphone fails, it says so once and goes on
with typed lines.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import IO

from companion.language.messages import catalog
from companion.speech import activity
from companion.speech.audio import AudioSource
from companion.speech.base import Heard, Listener, Speaker, TextListener, Unavailable
from companion.speech.endpoint import Endpointer, EndpointSettings
from companion.speech.keyboard import typed_line
from companion.speech.recogniser import Recogniser

ANY_STATE = "any"


class _Typed(Exception):
    """A line typed on the keyboard while listening: it stands for what the player would have said."""

    def __init__(self, text: str, cut: bool = False):
        super().__init__(text)
        self.text = text
        self.cut = cut  # it cut the program's speech off


class SpeechListener(Listener):
    """Hears one utterance per `listen` with a recogniser, from the microphone or from WAV files."""

    def __init__(self, recogniser: Recogniser, sources: Iterator[AudioSource], *, lang: str,
                 player_names: Sequence[str] = (), speaker: Speaker | None = None, guard_s: float = 0.3,
                 push_to_talk: bool = False, barge_in: bool = False, keys: IO[str] | None = None,
                 say: Callable[[str], None] = print, endpoint: EndpointSettings | None = None):
        self.recogniser = recogniser
        self.name = recogniser.name
        self.sources = sources
        self.lang = lang
        self.player_names = tuple(player_names)
        self.speaker = speaker
        self.guard_s = guard_s
        self.push_to_talk = push_to_talk
        self.barge_in = barge_in  # the microphone stays open while the program speaks; speech cuts it off
        self.keys = keys if keys is not None else sys.stdin
        self.say = say
        self.endpoint = endpoint or EndpointSettings()
        self.fallback: Listener | None = None
        self.current: AudioSource | None = None
        self.last_final_ms = 0.0  # time taken once the end of the last utterance was found
        self.hinted = False
        self.reported_words: set[str] = set()
        self._sound_at = float("-inf")  # when the program was first seen quiet after making a sound
        self._sounding = False
        self.speech_ended: Callable[[], None] | None = None  # called when the end of speech is found
        self.grammar: tuple[str, tuple[str, ...]] = (ANY_STATE, ())  # the grammar listened with last

    def listen(self, state: str | None = None) -> Heard | None:
        if self.fallback is not None:
            return self.fallback.listen(state)
        source = next(self.sources, None)
        if source is None:
            return None
        self.current = source
        if source.live:
            source.muted = self.muted  # type: ignore[attr-defined]
        self.grammar = (state or ANY_STATE, tuple(self.player_names))
        self.recogniser.use_grammar(*self.grammar)
        self._report_unknown_words()
        if self.push_to_talk and not self._wait_for_key():
            return None
        try:
            if not (self.barge_in and source.live):
                self._wait_until_quiet(source)
            return self.hear(source)
        except _Typed as typed:
            return Heard(typed.text, None, "text", barge_in=typed.cut)
        except Unavailable as problem:
            return self._fall_back(problem, state)

    def hear(self, source: AudioSource) -> Heard:
        """One utterance from `source`; an empty Heard when the source ends without speech.

        `decode_ms` is the recogniser's whole time on the utterance; with a microphone most of it is spent
        while the player is still speaking."""
        decode_s = 0.0
        started = cut = False
        for frame in Endpointer(self.endpoint).speech(self._unmuted(source)):
            begin = time.perf_counter()
            if not started:
                cut = self.barge_in and source.live and self._cut_speech()
                self.recogniser.start()
                started = True
            self.recogniser.accept(frame)
            decode_s += time.perf_counter() - begin
        if not started:
            return Heard("", 0.0, self.name, 0.0)
        if self.speech_ended is not None:
            self.speech_ended()
        begin = time.perf_counter()
        result = self.recogniser.finish()
        self.last_final_ms = (time.perf_counter() - begin) * 1000
        decode_s += self.last_final_ms / 1000
        return Heard(result.text, result.confidence, self.name, round(decode_s * 1000, 1), result.rivals,
                     barge_in=cut, meaning=result.meaning, grammar=self.grammar)

    def _report_unknown_words(self) -> None:
        """Say once which grammar words the model cannot hear: never dropped without a word."""
        unknown = self.recogniser.unknown_words() - self.reported_words
        if unknown:
            self.reported_words |= unknown
            self.say(catalog(self.lang).say("speech.unknown_words", model=self.recogniser.describe(),
                                            words=", ".join(sorted(unknown))))

    def _busy(self) -> bool:
        return activity.playing() or (self.speaker is not None and self.speaker.is_speaking())

    def _cut_speech(self) -> bool:
        """Silence the program if it is speaking (the player spoke or typed over it); whether it was."""
        if self.speaker is None or not self.speaker.is_speaking():
            return False
        self.speaker.stop()
        return True

    def muted(self) -> bool:
        """Whether the microphone is muted now (asked as each piece of sound comes in): the program is making a
        sound, or made one less than the guard time ago. Never with barge-in: the player may speak over it."""
        if self.barge_in:
            return False
        now = time.monotonic()
        if self._busy():
            self._sounding = True
            return True
        if self._sounding:  # first seen quiet: the guard counts from here, never from before the sound ended
            self._sounding = False
            self._sound_at = now
        return now - self._sound_at < self.guard_s

    def _wait_until_quiet(self, source: AudioSource) -> None:
        """Let the program finish speaking (Enter, or a line typed, on the terminal cuts it off)."""
        while self.speaker is not None and self.speaker.is_speaking():
            line = typed_line(self.keys)
            if line is None:
                time.sleep(0.05)
                continue
            self.speaker.stop()
            if line.strip():
                raise _Typed(line.strip(), cut=True)
        activity.wait_until_quiet()

    def _unmuted(self, source: AudioSource) -> Iterator[bytes]:
        """The source's frames (a live source drops what it hears while muted); a line typed meanwhile on
        the terminal stands for what the player would have said."""
        for frame in source.frames():
            if source.live:
                line = typed_line(self.keys)
                if line is not None:
                    cut = self._cut_speech()  # with barge-in the program may still be speaking: Enter cuts it off
                    if line.strip():
                        raise _Typed(line.strip(), cut=cut)
            yield frame

    def _wait_for_key(self) -> bool:
        """Push-to-talk: wait for Enter, which also cuts off what the program is saying; False when the
        keyboard input has ended. How it works is said once, after the program has finished speaking."""
        if not self.hinted:
            if self.speaker is not None:
                self.speaker.wait()
            self.say(catalog(self.lang).say("speech.push_to_talk"))
            self.hinted = True
        if not self.keys.readline():
            return False
        if self.speaker is not None:
            self.speaker.stop()
        return True

    def _fall_back(self, problem: Unavailable, state: str | None) -> Heard | None:
        self.say(catalog(self.lang).say("speech.engine_skipped", engine=self.name,
                                        reason=problem.explain(self.lang)))
        self.say(catalog(self.lang).say("speech.listening_with.text"))
        self.fallback = TextListener(self.keys, self.speaker)
        return self.fallback.listen(state)

    def set_player_names(self, names: Sequence[str]) -> None:
        self.player_names = tuple(names)

    def expect_speaker(self, name: str | None) -> None:
        self.recogniser.expect_speaker(name)

    def close(self) -> None:
        if self.current is not None:
            self.current.close()
