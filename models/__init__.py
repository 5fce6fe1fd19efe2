"""One package per game; GAMES is the registry the CLI reads (add a game here and nowhere else)."""

from __future__ import annotations

from models import game_of_suspicion, six_suspects, suspeicao, three_of_a_crime
from solver.game import Game

GAMES: dict[str, Game] = {
    game.name: game
    for game in (three_of_a_crime.GAME, six_suspects.GAME, game_of_suspicion.GAME, suspeicao.GAME)
}
