"""companion: an offline, voice-first companion for dinosaur board games, played eyes-free."""

__version__ = "0.1.0"
