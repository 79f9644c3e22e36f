"""Finding speech models, listing them, and fetching a Vosk model (which fails clearly when offline)."""

from __future__ import annotations

import http.server
import json
import threading
from pathlib import Path

import numpy as np
import pytest

from companion.language.messages import catalog
from companion.speech.audio import write_wav
from companion.speech.base import Unavailable
from companion.speech.config import SpeechConfig
from companion.speech.models import download_vosk_model, find_vosk_model, remote_model, vosk_cache_dir
from tests.conftest import run_companion

UNREACHABLE = "http://127.0.0.1:9/model-list.json"  # the discard port: nothing answers there


def fake_model(folder: Path) -> Path:
    (folder / "am").mkdir(parents=True)
    (folder / "conf").mkdir()
    (folder / "conf" / "model.conf").write_text("--sample-frequency=16000\n")
    return folder


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("VOSK_MODEL_PATH", raising=False)
    return tmp_path


def test_small_models_of_the_right_language_are_found_in_vosks_cache(home):
    cache = vosk_cache_dir()
    fake_model(cache / "vosk-model-fr-0.6-linto-2.2.0")
    small = fake_model(cache / "vosk-model-small-fr-0.22")
    english = fake_model(cache / "vosk-model-small-en-us-0.15")
    (cache / "vosk-model-small-es-0.42").mkdir()  # an unpacked download that broke halfway
    assert find_vosk_model("fr") == small
    assert find_vosk_model("en") == english
    assert find_vosk_model("es") is None


def test_vosk_model_path_and_remembered_models_come_first(home, monkeypatch):
    fake_model(vosk_cache_dir() / "vosk-model-small-fr-0.22")
    mine = fake_model(home / "models" / "my-french-model")
    monkeypatch.setenv("VOSK_MODEL_PATH", str(mine))
    assert find_vosk_model("fr") == mine
    monkeypatch.setenv("VOSK_MODEL_PATH", str(fake_model(home / "vosk-model-small-en-us-0.15")))
    remembered = fake_model(home / "elsewhere")
    assert find_vosk_model("fr", config=SpeechConfig(vosk_models={"fr": str(remembered)})) == remembered
    with pytest.raises(Unavailable) as problem:
        find_vosk_model("fr", home / "models")
    assert problem.value.problem == "vosk_model_broken"


def test_a_broken_model_folder_is_a_clear_error(tmp_path):
    model = fake_model(tmp_path / "model")
    audio = write_wav(tmp_path / "x.wav", np.zeros(16000, dtype=np.float32), 16000)
    result = run_companion("listen", "--engine", "vosk", "--lang", "fr", "--model", str(model), "--file", str(audio))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert Unavailable("vosk_model_broken", path=str(model)).explain("fr") in result.stderr


def test_downloading_offline_says_so(tmp_path):
    result = run_companion("models", "download", "fr", env={"HOME": str(tmp_path),
                                                             "COMPANION_VOSK_MODEL_LIST": UNREACHABLE})
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert Unavailable("offline").explain("fr") in result.stderr


@pytest.fixture
def model_list(monkeypatch):
    """A local server that publishes a list of Vosk models, like Vosk's own site."""
    entries = [{"lang": "fr", "type": "small", "obsolete": "false", "name": "vosk-model-small-fr-9.9",
                "size_text": "41M"},
               {"lang": "fr", "type": "big", "obsolete": "false", "name": "vosk-model-fr-9.9", "size_text": "1.4G"}]

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # the standard library's name
            body = json.dumps(entries).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("COMPANION_VOSK_MODEL_LIST", f"http://127.0.0.1:{server.server_port}/model-list.json")
    yield entries
    server.shutdown()


def test_the_user_is_asked_before_downloading(home, model_list):
    asked = []
    assert remote_model("fr").name == "vosk-model-small-fr-9.9"
    with pytest.raises(Unavailable) as problem:
        download_vosk_model("fr", confirm=lambda remote: asked.append(remote) or False, say=lambda _: None)
    assert problem.value.problem == "download_declined"
    assert [(r.name, r.size) for r in asked] == [("vosk-model-small-fr-9.9", "41M")]
    with pytest.raises(Unavailable) as problem:
        remote_model("es")
    assert problem.value.problem == "unknown_model"


def test_a_failed_download_leaves_nothing_behind(home, model_list):
    said = []
    with pytest.raises(Unavailable) as problem:  # this model does not exist on Vosk's site, if reachable
        download_vosk_model("fr", confirm=lambda remote: True, say=said.append)
    assert problem.value.problem in ("offline", "download_failed")
    assert said == [catalog("fr").say("speech.download.start", name="vosk-model-small-fr-9.9")]
    assert not list(vosk_cache_dir().glob("*.zip"))


def test_models_lists_every_language(tmp_path):
    result = run_companion("models", "--json", env={"HOME": str(tmp_path), "VOSK_MODEL_PATH": ""})
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert set(report["languages"]) == {"fr", "en", "es"}
    assert Path(report["languages"]["en"]["sphinx"]).is_dir()
    assert report["languages"]["fr"]["sphinx"] is None and report["languages"]["fr"]["vosk"] is None
    assert {"name"} <= set(report["microphone"]) and {"name"} <= set(report["output"])
    spoken = run_companion("models", "--lang", "es", env={"HOME": str(tmp_path), "VOSK_MODEL_PATH": ""})
    assert catalog("es").say("speech.models.text") in spoken.stdout.splitlines()
