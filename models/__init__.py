"""One package per game; GAMES is the registry the CLI reads (add a game here and nowhere else),
and `game_of` finds the game of a log or puzzle (the command line, the web app and batch jobs)."""

from __future__ import annotations

from models import game_of_suspicion, six_suspects, suspeicao, three_of_a_crime
from solver.errors import InputError
from solver.game import Game
from solver.logfile import Document
from solver.names import NameSet

GAMES: dict[str, Game] = {
    game.name: game
    for game in (three_of_a_crime.GAME, six_suspects.GAME, game_of_suspicion.GAME, suspeicao.GAME)
}
GAME_NAMES = NameSet("game", GAMES)


def game_named(name: str) -> Game:
    """The game a name (or an unambiguous prefix, in any case) means; else a "did you mean"."""
    return GAMES[GAME_NAMES.resolve(name)]


def game_of(doc: Document) -> Game:
    """The game a log or puzzle names; its name is made canonical for the game's reader."""
    name = doc.data.get("game")
    if name is None:
        raise InputError(
            f"{doc.path} does not say which game it is: add 'game: {next(iter(GAMES))}'"
        )
    game = game_named(str(name))
    doc.data["game"] = game.name
    return game


def with_deck(doc: Document, game: Game, deck: str) -> None:
    """`--deck`: the deck file `deck` replaces the document's (for games that have one)."""
    if not getattr(game, "has_deck_file", True):
        raise InputError(f"--deck means nothing in {game.title}: it has no deck file")
    doc.data["deck"] = deck
