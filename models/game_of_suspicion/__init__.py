"""Game of Suspicion (RULINGS.md §3): whose hand is what, while cards move between hidden hands."""

from models.game_of_suspicion.game import GameOfSuspicion

GAME = GameOfSuspicion()
