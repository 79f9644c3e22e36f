"""Speech: audio out (speakers, earcons) and in (listeners), behind small interfaces."""
