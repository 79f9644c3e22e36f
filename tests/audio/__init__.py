"""Helpers for the speech tests: sound environments made of ALSA configuration, hidden modules, CLI runs."""
