"""Jurassic Snack: the pure rules engine (no I/O, no speech)."""
