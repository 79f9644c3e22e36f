"""Dino (Reinhold Wittig): the pure rules engine (no I/O, no speech) and its board data."""
