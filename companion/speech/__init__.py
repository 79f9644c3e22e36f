"""Speech: audio out (the voice, earcons) and in (listeners), behind small interfaces.

Entry points: `engines.open_speaker`, `engines.open_listener`, `engines.open_earcons` (base.py holds the
Speaker and Listener interfaces, config.py the settings the user can change).
"""
