"""Run every benchmark and print its figures beside their baselines."""

import sys

from bench import (
    batch,
    explain,
    game_of_suspicion,
    lookahead,
    puzzles,
    six_suspects,
    suspeicao,
    tablebase,
    three_of_a_crime,
    web,
)

BENCHES = {
    "three-of-a-crime": three_of_a_crime.main,
    "six-suspects": six_suspects.main,
    "six-suspects-policy": tablebase.main,
    "game-of-suspicion": game_of_suspicion.main,
    "suspeicao": suspeicao.main,
    "lookahead": lookahead.main,
    "web": web.main,
    "explain": explain.main,
    "batch": batch.main,
    "puzzles": puzzles.main,
}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(BENCHES):  # `python -m bench six-suspects` runs one
        BENCHES[name]()
