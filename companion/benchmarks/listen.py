"""`companion bench listen`: how well and how fast spoken commands are understood, on voices and rooms the
listening settings were never chosen on.

Sentences, in English unless `--lang` says otherwise, are those written as players say them at the table
(the examples files, by default) or random paths of the game's grammar (`--sentences grammar`), each heard in
the dialogue state a game would be in when it is said (a move at a player's turn, a face when the die is
asked for, a yes to a read-back). Each sentence is said once by a voice the settings were tuned on
(espeak-ng) and once by a held-out voice (flite in English; see synthetic.HELD_OUT_ESPEAK_VOICES for French
and Spanish), then heard in every room condition (companion.benchmarks.rooms): clean, reverberant, slower or
faster, with table babble, with brown noise. It goes through the game's own path: WAV source, endpointer,
recogniser, `understand`, and the session's own decision to read back or not.

Per synthesiser and condition it prints: understood (the meaning said, read back or not), asked again (read
back, or "not understood"), questions answered wrongly (a question answered with another answer, without a
question back; out of the questions said) and misheard-and-applied (a wrong move, face, undo, yes or no,
sure enough to skip the read-back).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from companion.benchmarks import peak_memory_mb, percentile
from companion.benchmarks.rooms import CONDITIONS, Room
from companion.benchmarks.synthetic import (
    DEFAULT_SYNTHESISERS,
    SPEEDS,
    SYNTHESISERS,
    Command,
    SyntheticVoice,
    held_out,
    sample_commands,
    speak_to_wav,
    synthetic_voices,
)
from companion.dialogue.draftosaurus.advice import HAND_INTENT, hand_of
from companion.dialogue.draftosaurus.queries import QUERIES
from companion.dialogue.session import SHARED_INTENTS, doubtful, rival_margin, understand
from companion.errors import BadInput
from companion.language.grammar import ANY_STATE, examples
from companion.language.messages import LANGUAGES, catalog
from companion.speech.audio import WavFileSource
from companion.speech.base import ACTION_CONFIDENCE, RIVAL_MARGIN, Heard, Unavailable
from companion.speech.listener import SpeechListener
from companion.speech.recogniser import Meaning
from companion.speech.second_opinion import Settings, settings

GAME = "draftosaurus"
PLAYERS = ("Alice", "Bob")
# (dialogue state, intent) pairs of --sentences grammar, taken in turn: placements and die faces most often.
COMMANDS = (("turn", "place"), ("die", "die"), ("turn", "legal"), ("turn", "place"), ("die", "die"),
            ("turn", "score"), ("confirm", "yes"), ("turn", "zoo"), ("confirm", "no"), ("die", "current_die"),
            ("turn", "undo"), ("turn", "repeat"), ("turn", "whose_turn"), ("turn", "help"))
# Where a game is when an example marked for any state is said: its own question, else a player's turn.
GAME_STATES = {"place": "turn", "die": "die", "die_pen": "die", "yes": "confirm", "no": "confirm",
               "winter_place": "winter_turn", "winter_zoo": "winter_turn", "number": "board_value",
               "keep_value": "board_value", "no_pen": "board_value", "next": "turn", "previous": "turn"}
# What is answered without changing the game; a yes or no answers a read-back; quitting is always asked first.
QUESTIONS = frozenset(QUERIES.handlers) | SHARED_INTENTS | {"resume", "next", "previous", "stop"}
ANSWERS = frozenset({"yes", "no"})
ALWAYS_ASKED = frozenset({"quit"})
# The set-up reads every name back, whatever heard it (any line can be a name: companion/dialogue/setup_questions.py).
READ_BACK_IN_STATE = frozenset({("setup", "player")})
# A placement heard without its dinosaur or its pen (or pyramid place) is never applied: the table asks for the
# missing part (companion/dialogue/draftosaurus/table.py), whatever was said.
PLACEMENTS = frozenset({"place", "winter_place"})
QUICK_COUNT = 10
TARGETS = {"understood": 0.95, "misheard_and_applied": 0.005, "answered_wrongly": 0.02, "p95_ms_per_3s": 150.0,
           "peak_mb": 300.0, "tuned_advantage": 0.03}
# Whisper decodes once speech has ended, so its whole decode is a wait: its target is per command, not per 3 s.
WHISPER_TARGETS = {**TARGETS, "understood": 0.90, "decode_ms_p95": 800.0, "peak_mb": 600.0}
MEASURES = ("understood", "asked_again", "answered_wrongly", "misheard_and_applied")
# The floors of the confidence and of the rival margin for a move (speech.base.ACTION_CONFIDENCE, RIVAL_MARGIN)
# whose trade-off --tradeoff prints; no margin floor: rivals are not looked at.
CONFIDENCE_FLOORS = (0.5, 0.6, 0.65, 0.7, 0.75)
MARGIN_FLOORS = (None, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", default="en", choices=LANGUAGES,
                        help="language of the commands (default en; which voices say them: --voices)")
    parser.add_argument("--count", type=int, default=40,
                        help="sentences (default 40, at least 1); each is said by a tuned and a held-out voice "
                             "in every condition")
    parser.add_argument("--quick", action="store_true", help=f"a short run: {QUICK_COUNT} sentences")
    parser.add_argument("--conditions", default=",".join(CONDITIONS),
                        help=f"room conditions, comma separated (default {','.join(CONDITIONS)})")
    parser.add_argument("--engine", default="sphinx", choices=("sphinx", "vosk", "whisper"),
                        help="recogniser to measure")
    parser.add_argument("--model", type=Path, help="model folder (for --engine vosk or whisper)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random sentences and room conditions")
    parser.add_argument("--sentences", default="examples", choices=("examples", "grammar"),
                        help="the sentences written as players say them (default), or random paths of the grammar")
    parser.add_argument("--voices", default="default", choices=("default", "all", *SYNTHESISERS),
                        help="synthesisers that speak the commands: default (mbrola for whisper in French and "
                             "Spanish, else espeak-ng and flite), all (every one installed), or one")
    parser.add_argument("--repeats", type=int, default=1,
                        help="decodes per utterance for its decode time, the median is kept (default 1)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="keep the generated WAV files in DIR")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--verbose", action="store_true", help="list every utterance that was misheard")
    parser.add_argument("--no-rivals", dest="rivals", action="store_false",
                        help="sphinx without its second passes for the rivals of each word of meaning (to time them)")
    parser.add_argument("--tradeoff", action="store_true",
                        help="also print read-backs against misheard-and-applied for several rival margins")


@dataclass(frozen=True)
class Utterance:
    """One sentence as said by one voice in one room."""

    command: Command
    voice: SyntheticVoice
    condition: str
    path: Path

    @property
    def family(self) -> str:
        """The voice's synthesiser, marked when it is held out."""
        return f"{self.voice.synthesiser} (held out)" if held_out(self.voice) else self.voice.synthesiser


def _recogniser(args: argparse.Namespace):
    if args.engine == "vosk":
        from companion.speech.models import find_vosk_model
        from companion.speech.vosk_engine import VoskRecogniser

        path = find_vosk_model(args.lang, args.model)
        if path is None:
            raise BadInput(f"bench listen: no Vosk model for {args.lang} (give --model or set VOSK_MODEL_PATH)")
        return VoskRecogniser(args.lang, GAME, path)
    if args.engine == "whisper":
        from companion.speech.whisper import WhisperRecogniser

        # For the trade-off, every utterance gets the second opinion, so that each setting can be replayed.
        return WhisperRecogniser(args.lang, GAME, model=args.model, weigh="always" if args.tradeoff else "needed")
    from companion.speech.sphinx import SphinxRecogniser

    return SphinxRecogniser(args.lang, GAME, model=args.model, borrow=True, rivals=args.rivals)


def synthesisers(wanted: str, lang: str = "en", engine: str = "sphinx") -> tuple[str, ...]:
    """The synthesisers of --voices: by default mbrola for Whisper in French and Spanish (Whisper invents words on
    espeak-ng's robotic French: a third of the sentences understood), where it is installed; else espeak-ng and
    flite."""
    if wanted == "all":
        return SYNTHESISERS
    if wanted != "default":
        return (wanted,)
    if engine == "whisper" and lang in ("fr", "es") and synthetic_voices(lang, ("mbrola",)):
        return ("mbrola",)
    return DEFAULT_SYNTHESISERS


def bench_voices(wanted: str, lang: str = "en", engine: str = "sphinx") -> tuple[tuple[SyntheticVoice, ...],
                                                                                  tuple[SyntheticVoice, ...]]:
    """The voices tuned on and the held-out ones, of the wanted synthesisers."""
    voices = synthetic_voices(lang, synthesisers(wanted, lang, engine))
    if not voices:
        raise BadInput(f"bench listen: no speech synthesiser for --voices {wanted} in {lang} "
                       "(install espeak-ng, flite for English, or the mbrola voices: tests/install_voices.sh)")
    return tuple(v for v in voices if not held_out(v)), tuple(v for v in voices if held_out(v))


def conditions(text: str) -> tuple[str, ...]:
    wanted = tuple(part.strip() for part in text.split(",") if part.strip())
    if not wanted or any(c not in CONDITIONS for c in wanted):
        raise BadInput(f"bench listen: --conditions takes {', '.join(CONDITIONS)}, separated by commas, not '{text}'")
    return wanted


def game_state(state: str, intent: str) -> str:
    """The dialogue state a game is in when this is said."""
    return GAME_STATES.get(intent, "turn") if state == ANY_STATE else state


def spoken_commands(args: argparse.Namespace, count: int) -> tuple[list[Command], tuple[str, ...]]:
    """The sentences to say (spread over the whole examples file), and the player names they may use."""
    if args.sentences == "grammar":
        return sample_commands(GAME, args.lang, COMMANDS, count, random.Random(args.seed), PLAYERS), PLAYERS
    book = examples(GAME, args.lang)
    natural = [Command(game_state(e.state, e.intent), e.text, e.intent, dict(e.slots)) for e in book.understood
               if e.intent is not None]
    if count >= len(natural):
        return [natural[index % len(natural)] for index in range(count)], tuple(book.players)
    return [natural[index * len(natural) // count] for index in range(count)], tuple(book.players)


def bot_names(players: tuple[str, ...], lang: str) -> frozenset[str]:
    """The players named as the program names its bots ("Bot 2"): in a game they are bots, whose moves the
    table refuses to take from a player (companion/dialogue/draftosaurus/table.py)."""
    words = catalog(lang)
    labels = {words.say("solo.bot_alone")} | {words.say("solo.bot_name", number=n) for n in range(1, len(players) + 1)}
    return frozenset(p for p in players if p in labels)


def babble_texts(lang: str) -> list[str]:
    """The program's own sentences, for the talkers of the babble."""
    return [text for text in catalog(lang).messages.values()
            if isinstance(text, str) and "{" not in text and len(text) > 30]


def synthesise(commands: list[Command], folder: Path, voices: tuple[tuple[SyntheticVoice, ...], ...],
               rooms: tuple[str, ...], lang: str, seed: int) -> list[Utterance]:
    """Each command said by one voice of each group (voices and speeds taken in turn), in every room."""
    room = Room(folder, lang, babble_texts(lang))
    said: list[Utterance] = []
    for index, command in enumerate(commands):
        for group in (g for g in voices if g):
            voice = group[index % len(group)]
            speed = SPEEDS[(index // len(group)) % len(SPEEDS)]
            for condition in rooms:
                path = folder / f"{len(said):05d}-{condition}.wav"
                speak_to_wav(command.text, path, voice=voice, speed=speed)
                said.append(Utterance(command, voice, condition, room.apply(path, condition, seed * 7919 + len(said))))
    return said


def measure(args: argparse.Namespace, folder: Path) -> dict:
    count = QUICK_COUNT if args.quick else args.count
    commands, players = spoken_commands(args, count)
    tuned, held = bench_voices(args.voices, args.lang, args.engine)
    said = synthesise(commands, folder, (tuned, held), conditions(args.conditions), args.lang, args.seed)
    sources = (WavFileSource(u.path) for u in said)  # one at a time: 400 utterances' audio is 100 MB and more
    started = time.perf_counter()
    try:
        recogniser = _recogniser(args)
    except Unavailable as problem:
        raise BadInput(f"bench listen: {problem.explain('en')}") from None
    listener = SpeechListener(recogniser, sources, lang=args.lang, player_names=players, say=lambda _: None)
    bots = bot_names(players, args.lang)
    for state in sorted({c.state for c in commands}):
        recogniser.use_grammar(state, players)
    load_s = time.perf_counter() - started
    rows: list[dict[str, Any]] = []
    for utterance in said:
        command = utterance.command
        listener.expect_speaker(str(utterance.voice))  # as a game expects the player whose turn it is
        heard = listener.listen(command.state)
        assert heard is not None and isinstance(listener.current, WavFileSource)  # one file for each command
        source = listener.current
        meaning = understand(heard, game=GAME, lang=args.lang, state=command.state, player_names=players)
        row: dict[str, Any] = {
               "said": command.text, "state": command.state, "intent": command.intent, "heard": heard.text,
               "meant": meaning.intent, "slots": command.slots, "heard_slots": dict(meaning.slots),
               "seconds": source.seconds, "voice": str(utterance.voice),
               "family": utterance.family, "condition": utterance.condition, "decode_ms": [heard.decode_ms],
               "final_ms": listener.last_final_ms, "confidence": heard.confidence,
               "understood": same_meaning(meaning.intent, dict(meaning.slots),
                                          {"intent": command.intent, "slots": command.slots}),
               "rivals": [list(r) for r in heard.rivals], "unsure": heard.needs_confirmation,
               "rival_margin": rival_margin(heard, meaning, game=GAME, lang=args.lang, state=command.state,
                                            player_names=players)}
        row["read_back"] = {f"{confidence} {floor}": doubtful(heard, row["rival_margin"], floor, confidence)
                            for confidence in CONFIDENCE_FLOORS for floor in MARGIN_FLOORS}
        row["for_bot"] = meaning.intent in PLACEMENTS and meaning.slots.get("player") in bots
        row["evidence"] = dict(getattr(recogniser, "last_evidence", None) or {})
        row["outcome"] = outcome(row, doubtful(heard, row["rival_margin"]), heard.needs_confirmation)
        rows.append(row)
    for _ in range(args.repeats - 1):
        for utterance, row in zip(said, rows, strict=True):
            listener.expect_speaker(str(utterance.voice))
            recogniser.use_grammar(utterance.command.state, players)
            row["decode_ms"].append(listener.hear(WavFileSource(utterance.path)).decode_ms)
    for row in rows:
        row["decode_ms"] = statistics.median(row["decode_ms"])
    return report(rows, load_s, recogniser.describe(), args.engine, args.lang, bots, players)


def same_meaning(intent: str | None, slots: dict, said: dict) -> bool:
    """Whether what was heard means what was said (`said`: its intent and slots), as the game takes it. A player's
    name is compared without its capitals: a name said has none, and recognisers write words in small letters. A
    hand is the species it names, each as many times as said ("le T-Rex et le tricératops" is "un T-Rex et un
    tricératops")."""
    def spoken(values: dict) -> dict:
        return {k: v.casefold() if k == "player" and isinstance(v, str) else v for k, v in values.items()}

    if intent == said["intent"] == HAND_INTENT:
        return sorted(hand_of(slots)) == sorted(hand_of(said["slots"]))
    return intent == said["intent"] and spoken(slots) == spoken(said["slots"])


def changes_the_game(row: dict) -> bool:
    """Whether what was heard is a move, a die face, an undo... that is applied without a question when sure (not
    a question, an answer to a read-back, or what is always asked first)."""
    return (row["meant"] not in QUESTIONS | ANSWERS | ALWAYS_ASKED
            and (row.get("state"), row["meant"]) not in READ_BACK_IN_STATE)


def outcome(row: dict, doubtful_act: bool, unsure: bool) -> str:
    """What the game does with what it heard (`doubtful_act`: a move, face, undo, yes or no would be asked again;
    `unsure`: anything would): "understood" or "read back" (the meaning said, taken at once or after a yes),
    "asked" (not understood, a wrong meaning read back, or a part of a move missing: the game asks for it),
    "applied" (a wrong move, face, undo or answer taken
    without a question), "answered" (a question said, answered with something else without a question), or
    "ignored" (another wrong meaning taken, that changes nothing: a command heard as a question)."""
    if row["meant"] is None:
        return "asked"
    acts = row["meant"] not in QUESTIONS  # a yes or no answers a read-back: as sure as a move
    asked = (row["meant"] in ALWAYS_ASKED or (row.get("state"), row["meant"]) in READ_BACK_IN_STATE
             or (doubtful_act if acts else unsure))
    if row["understood"]:
        return "read back" if asked else "understood"
    heard = row["heard_slots"]
    part_missing = row["meant"] == row["intent"] and heard.items() < row["slots"].items()
    half_placement = row["meant"] in PLACEMENTS and not (heard.get("species")
                                                         and (heard.get("pen") or heard.get("position")))
    if asked or part_missing or half_placement or row.get("for_bot"):
        return "asked"  # a part missing (the species, the pen) is asked for, a missing player is the one asked,
        # a bot's move is refused
    if row["meant"] not in QUESTIONS:
        return "applied"
    return "answered" if row["intent"] in QUESTIONS else "ignored"


def shares(rows: list[dict]) -> dict:
    """The four measures of a group of utterances (answered wrongly: out of the questions said), and its decode
    times."""
    questions = [r for r in rows if r["intent"] in QUESTIONS]
    decode = [r["decode_ms"] for r in rows if "decode_ms" in r]
    return {"utterances": len(rows), "questions": len(questions),
            "decode_ms_p50": percentile(decode, 0.5), "decode_ms_p95": percentile(decode, 0.95),
            "understood": sum(r["outcome"] in ("understood", "read back") for r in rows) / len(rows),
            "asked_again": sum(r["outcome"] in ("asked", "read back") for r in rows) / len(rows),
            "answered_wrongly": (sum(r["outcome"] == "answered" for r in questions) / len(questions)
                                 if questions else None),
            "misheard_and_applied": sum(r["outcome"] == "applied" for r in rows) / len(rows)}


def report(rows: list[dict], load_s: float, model: str, engine: str, lang: str = "en",
           bots: frozenset[str] = frozenset(), players: tuple[str, ...] = ()) -> dict:
    decode = [r["decode_ms"] for r in rows]
    per_3s = [r["decode_ms"] * 3.0 / r["seconds"] for r in rows]
    families = list(dict.fromkeys(r["family"] for r in rows))
    rooms = list(dict.fromkeys(r["condition"] for r in rows))
    groups = [{"family": family, "condition": room, **shares(cell)}
              for family in families for room in [*rooms, "all"]
              for cell in [[r for r in rows if r["family"] == family and room in ("all", r["condition"])]] if cell]
    tuned = [g for g in groups if g["condition"] == "all" and "held out" not in g["family"]]
    held = [g for g in groups if g["condition"] == "all" and "held out" in g["family"]]
    return {
        "engine": engine, "model": model, "lang": lang, "utterances": len(rows),
        "tuned_on": [g["family"] for g in tuned], "held_out": [g["family"] for g in held],
        "groups": groups, **shares(rows),
        "tuned_advantage": tuned[0]["understood"] - held[0]["understood"] if tuned and held else None,
        "decode_ms_p50": percentile(decode, 0.5), "decode_ms_p95": percentile(decode, 0.95),
        "p95_ms_per_3s": percentile(per_3s, 0.95), "p50_ms_per_3s": percentile(per_3s, 0.5),
        "after_speech_ms_p95": percentile([r["final_ms"] for r in rows], 0.95),
        "real_time_factor": sum(decode) / 1000 / sum(r["seconds"] for r in rows),
        "audio_seconds_mean": sum(r["seconds"] for r in rows) / len(rows),
        "load_s": load_s, "peak_mb": peak_memory_mb(), "said": list(dict.fromkeys(r["said"] for r in rows)),
        "misheard": [r for r in rows if not r["understood"]], "tradeoff": tradeoff(rows),
        "whisper_tradeoff": whisper_tradeoff(rows, lang, bots, players) if engine == "whisper" else [],
        "rows": rows,
    }


def tradeoff(rows: list[dict]) -> list[dict]:
    """For each floor of the rival margin (MARGIN_FLOORS), on the tuned and the held-out voices: the moves,
    faces and undos heard right that are read back, and the misheard ones applied."""
    found = []
    for key in (f"{c} {m}" for c in CONFIDENCE_FLOORS for m in MARGIN_FLOORS):
        for held in (False, True):
            group = [r for r in rows if ("held out" in r["family"]) == held]
            if not group:
                continue
            judged = [dict(r, outcome=outcome(r, r["read_back"][key], r["unsure"])) for r in group]
            acts = [r for r in judged if r["understood"] and changes_the_game(r)]
            found.append({"confidence": float(key.split()[0]), "margin": key.split()[1], "held_out": held,
                          "acts_heard_right": len(acts),
                          "acts_read_back": sum(r["outcome"] == "read back" for r in acts) / max(1, len(acts)),
                          "misheard_and_applied": shares(judged)["misheard_and_applied"],
                          "asked_again": shares(judged)["asked_again"]})
    return found


# The settings of Whisper's second opinion (companion.speech.second_opinion.Settings) that --tradeoff replays, each
# grid around the settings in use: the sound match's confidence from which its sentence is not weighed (above 1:
# always weighed), the margin over every sentence of another meaning and the gap below Whisper's own transcript
# (nats); the gap allowed when no sentence of another meaning was found; and the check of a sure sound match
# (no margin: not checked).
SOUND_FLOORS = (ACTION_CONFIDENCE, 0.9, 0.97, 1.01)
WHISPER_MARGINS = (0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 15.0)
WHISPER_GAPS = (4.0, 6.0, 8.0, 10.0, float("inf"))
ALONE_GAPS = (float("inf"), 8.0, 6.0, 4.0, 3.0, 2.0, 1.0)
SURE_MARGINS: tuple[float | None, ...] = (None, 0.0, 2.0, 4.0, 6.0, 8.0)
SURE_GAPS = (4.0, 6.0, 8.0, 10.0, float("inf"))
SOUND_CLOSE: tuple[float | None, ...] = (None, 0.5, 0.6, 0.7, 0.8, 0.85)


def whisper_settings(lang: str) -> list[Settings]:
    """The settings --tradeoff replays: the one in use first, then each grid around it."""
    used = settings(lang)
    grids = [replace(used, sound_sure=f, margin=m, gap=g) for f in SOUND_FLOORS for m in WHISPER_MARGINS
             for g in WHISPER_GAPS]
    grids += [replace(used, alone_gap=a) for a in ALONE_GAPS]
    grids += [replace(used, sure_margin=m, sure_gap=g) for m in SURE_MARGINS for g in SURE_GAPS
              if m is not None or g == SURE_GAPS[-1]]
    grids += [replace(used, sound_close=c, margin=m) for c in SOUND_CLOSE for m in WHISPER_MARGINS]
    return list(dict.fromkeys([used, *grids]))


def _meaning(kept: list[Any]) -> Meaning | None:
    """A meaning kept with the evidence ([intent, [[slot, value]...]], as JSON writes it), or None."""
    if not kept or not isinstance(kept[0], list) or len(kept[0]) != 2:
        return None
    intent, slots = kept[0]
    return intent, tuple((slot, value) for slot, value in slots)


def whisper_tradeoff(rows: list[dict], lang: str, bots: frozenset[str], players: tuple[str, ...]) -> list[dict]:
    """Each setting of Whisper's second opinion replayed on the evidence kept for every utterance (heard with
    the second opinion always asked: `bench listen --engine whisper --tradeoff`), per voice group: moves heard
    right and read back, understood, asked again, misheard and applied, questions answered wrongly."""
    from companion.speech.recogniser import Recognition
    from companion.speech.second_opinion import Opinion, SecondOpinion, verdict

    if not rows or any("candidates" not in r["evidence"] and r["evidence"].get("sound", [""])[0] for r in rows):
        return []  # not every utterance was weighed: nothing to replay
    judge = SecondOpinion(GAME, lang)
    meanings: dict[tuple[str, str], tuple[str | None, dict]] = {}

    def meaning(text: str, state: str) -> tuple[str | None, dict]:
        if (text, state) not in meanings:
            result = understand(Heard(text, 1.0, "whisper"), game=GAME, lang=lang, state=state, player_names=players)
            meanings[text, state] = (result.intent, dict(result.slots))
        return meanings[text, state]

    # The sound match's meaning as it was heard (evidence kept before it was written down: read from its words).
    weighed = [(r, Recognition(r["evidence"]["sound"][0], r["evidence"]["sound"][1],
                               meaning=_meaning(r["evidence"]["sound"][2:3])
                               or judge.meaning(r["evidence"]["sound"][0], r["state"], players)),
                Opinion.from_evidence(lang, r["evidence"]) if "candidates" in r["evidence"] else None) for r in rows]
    found = []
    for given in whisper_settings(lang):
        for held in (False, True):
            judged = []
            for r, sound, opinion in (w for w in weighed if ("held out" in w[0]["family"]) == held):
                heard = verdict(sound, opinion, given)
                intent, slots = (heard.meaning[0], dict(heard.meaning[1])) if heard.meaning else \
                    meaning(heard.text, r["state"])
                replayed = dict(r, meant=intent, heard_slots=slots, understood=same_meaning(intent, slots, r),
                                for_bot=intent in PLACEMENTS and slots.get("player") in bots)
                as_heard = Heard(heard.text, heard.confidence, "whisper")
                replayed["outcome"] = outcome(replayed, doubtful(as_heard, None), as_heard.needs_confirmation)
                judged.append(replayed)
            if not judged:
                continue
            acts = [r for r in judged if r["understood"] and changes_the_game(r)]
            found.append({"sound_floor": given.sound_sure, "margin": given.margin, "gap": given.gap,
                          "alone_gap": given.alone_gap, "sure_margin": given.sure_margin, "sure_gap": given.sure_gap,
                          "sound_close": given.sound_close,
                          "held_out": held, "acts_heard_right": len(acts),
                          "acts_read_back": sum(r["outcome"] == "read back" for r in acts) / max(1, len(acts)),
                          **shares(judged)})
    return found


def _verdict(name: str, value: float | None, engine: str = "sphinx") -> str:
    targets = WHISPER_TARGETS if engine == "whisper" else TARGETS
    if value is None or name not in targets:
        return ""
    lower_is_better = name != "understood"
    met = value <= targets[name] if lower_is_better else value >= targets[name]
    return f"target {'<=' if lower_is_better else '>='} {targets[name]:g}: {'met' if met else 'MISSED'}"


def _setting(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def _cell(value: float | None) -> str:
    return "     -" if value is None else f"{value:6.1%}"


def _print(report: dict, verbose: bool, tradeoff: bool = False) -> None:
    language = catalog("en").say(f"speech.languages.{report['lang']}")
    print(f"listen benchmark: {report['utterances']} {language} utterances, engine {report['engine']} "
          f"({report['model']}), mean length {report['audio_seconds_mean']:.2f} s")
    print(f"  settings tuned on: {', '.join(report['tuned_on']) or 'none here'}; held out (never used to choose "
          f"a setting): {', '.join(report['held_out']) or 'none here'}")
    print(f"  {'synthesiser':<22} {'condition':<9} {'n':>4}  understood  asked again  answered wrongly  "
          f"misheard-and-applied  decode p50 / p95 ms")
    for g in report["groups"]:
        print(f"  {g['family']:<22} {g['condition']:<9} {g['utterances']:>4}  {_cell(g['understood'])}      "
              f"{_cell(g['asked_again'])}       {_cell(g['answered_wrongly'])} of {g['questions']:<3}     "
              f"{_cell(g['misheard_and_applied'])}  {g['decode_ms_p50']:6.0f} / {g['decode_ms_p95']:.0f}")
    held = [g for g in report["groups"] if g["condition"] == "all" and "held out" in g["family"]]
    engine = report["engine"]
    if held:
        g = held[0]
        print(f"  held out: understood {g['understood']:.1%} ({_verdict('understood', g['understood'], engine)}), "
              f"misheard and applied {g['misheard_and_applied']:.1%} "
              f"({_verdict('misheard_and_applied', g['misheard_and_applied'], engine)}), answered wrongly "
              f"{_cell(g['answered_wrongly']).strip()} "
              f"({_verdict('answered_wrongly', g['answered_wrongly'], engine)})")
    if report["tuned_advantage"] is not None:
        print(f"  tuned minus held out, understood: {report['tuned_advantage']:+.1%} "
              f"({_verdict('tuned_advantage', report['tuned_advantage'], engine)})")
    print(f"  decode time p50 / p95        {report['decode_ms_p50']:.0f} / {report['decode_ms_p95']:.0f} ms  "
          f"{_verdict('decode_ms_p95', report['decode_ms_p95'], engine)}")
    print(f"  decode time p95 per 3 s      {report['p95_ms_per_3s']:.0f} ms  "
          f"{_verdict('p95_ms_per_3s', report['p95_ms_per_3s']) if engine != 'whisper' else ''}")
    print(f"  decode time p50 per 3 s      {report['p50_ms_per_3s']:.0f} ms")
    print(f"  wait after the end of speech {report['after_speech_ms_p95']:.0f} ms p95 (with a microphone, the rest "
          "is decoded while the player speaks)")
    print(f"  real-time factor             {report['real_time_factor']:.3f}")
    print(f"  peak memory                  {report['peak_mb']:.0f} MB  "
          f"{_verdict('peak_mb', report['peak_mb'], engine)}")
    print(f"  model and grammars loaded in {report['load_s']:.2f} s")
    if tradeoff and report["whisper_tradeoff"]:
        used = settings(report["lang"])
        print(f"  Whisper's second opinion (in use, first: sound floor {used.sound_sure:g}, margin {used.margin:g}, "
              f"gap {used.gap:g}, alone {used.alone_gap:g}, sure check {_setting(used.sure_margin)} / "
              f"{used.sure_gap:g}, no gap from a sound match of {_setting(used.sound_close)}):")
        print("  sound floor  margin   gap  alone  sure check  no gap  voices     right moves read back  understood  "
              "asked again  answered wrongly  misheard-and-applied")
        for t in report["whisper_tradeoff"]:
            print(f"  {t['sound_floor']:>11g}  {t['margin']:>6g}  {t['gap']:>4g}  {t['alone_gap']:>5g}  "
                  f"{_setting(t['sure_margin']):>4} / {t['sure_gap']:<4g} {_setting(t['sound_close']):>6}  "
                  f"{'held out' if t['held_out'] else 'tuned':<9}  "
                  f"{t['acts_read_back']:>10.1%} of {t['acts_heard_right']:<4}      {t['understood']:6.1%}      "
                  f"{t['asked_again']:6.1%}       {_cell(t['answered_wrongly'])}            "
                  f"{t['misheard_and_applied']:6.1%}")
    elif tradeoff:
        print(f"  confidence  margin  voices     right moves read back  asked again  misheard-and-applied "
              f"(in use: {ACTION_CONFIDENCE:g}, {RIVAL_MARGIN:g})")
        for t in report["tradeoff"]:
            print(f"  {t['confidence']:>10g}  {t['margin']:>6}  {'held out' if t['held_out'] else 'tuned':<9}  "
                  f"{t['acts_read_back']:>10.1%} of {t['acts_heard_right']:<4}      {t['asked_again']:6.1%}       "
                  f"{t['misheard_and_applied']:6.1%}")
    if verbose:
        for row in report["misheard"]:
            print(f"    said '{row['said']}' ({row['voice']}, {row['condition']}), heard '{row['heard']}' "
                  f"(confidence {row['confidence']:.2f}): {row['outcome']}")


def run(args: argparse.Namespace) -> int:
    if args.count < 1:
        raise BadInput("bench listen: --count must be at least 1")
    if args.repeats < 1:
        raise BadInput("bench listen: --repeats must be at least 1")
    conditions(args.conditions)
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        result = measure(args, args.keep)
    else:
        with tempfile.TemporaryDirectory(prefix="companion-bench-listen-") as folder:
            result = measure(args, Path(folder))
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        _print(result, args.verbose, args.tradeoff)
    return 0
