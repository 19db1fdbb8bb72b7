"""Test data transcribed by hand from the game rules (the project never reads the rules at run
or test time)."""
