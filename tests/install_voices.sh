#!/usr/bin/env bash
# The test voices (Debian's mbrola voices, spoken through espeak-ng), for the listening tests and benches only:
# a player's machine never needs them. They are in Debian's contrib and non-free sections, enabled here by a
# sources entry of their own that this script writes, so the system's own entries are left as they are. Also
# speech-dispatcher with its espeak-ng module, the speech server of screen readers, for the test of speaking
# through it (a player who uses Orca has it already). Safe to run again; does nothing where all is installed or
# the system is no Debian.
set -euo pipefail

voices=(mbrola-fr1 mbrola-fr4 mbrola-es1 mbrola-es2 mbrola-us1)
missing=()
for voice in "${voices[@]}"; do
  [ -d "/usr/share/mbrola/${voice#mbrola-}" ] || missing+=("$voice")
done
command -v mbrola >/dev/null 2>&1 || missing+=(mbrola)
command -v speech-dispatcher >/dev/null 2>&1 || missing+=(speech-dispatcher speech-dispatcher-espeak-ng)
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1 || [ ! -r /etc/os-release ]; then
  echo "install_voices: no apt-get here; the tests that need mbrola voices will say they are skipped" >&2
  exit 0
fi
. /etc/os-release
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
entry=/etc/apt/sources.list.d/companion-test-voices.sources
# The system's own Debian mirror (its first entry for this release), with the two other sections.
mirror=$( (grep -hs -A3 '^URIs:' /etc/apt/sources.list.d/*.sources || true) | awk -v rel="${VERSION_CODENAME:-}" '
  $1 == "URIs:" { uri = $2 } $1 == "Suites:" && uri != "" { for (i = 2; i <= NF; i++) if ($i == rel) { print uri; exit } }')
[ -n "$mirror" ] || mirror=$(awk -v rel="${VERSION_CODENAME:-}" '$1 == "deb" && $3 == rel { print $2; exit }' \
  /etc/apt/sources.list 2>/dev/null || true)
if [ "${ID:-}" = debian ] && [ -n "$mirror" ] && [ ! -e "$entry" ]; then
  printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: contrib non-free\nSigned-By: %s\n' \
    "$mirror" "$VERSION_CODENAME" /usr/share/keyrings/debian-archive-keyring.gpg | $sudo tee "$entry" >/dev/null
fi
echo "Installing test voices: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
