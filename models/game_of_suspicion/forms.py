"""Game of Suspicion's tap forms (`sleuth serve`): every event a player enters by tapping, as
choices that become the short line `parse_line` reads (solver/entry.py), so tapping and typing
cannot disagree. The few outcomes that stay typed are listed in docs/game-of-suspicion.md.

The forms follow the round as the log tells it: the players still in (one who is out has no
buttons) and whether it is the advanced game. Their number and order depend on the header only
(but for card 10's, last, which the first deal that sets a card aside adds), so the index a tap
posts means the same form before and after another event.

Some outcomes are lists of values in which 0 and 1 may repeat (a guess, a hand card 7 shows).
Such a list is tapped as three parts: its 0s, its 1s, and which of the values that exist once it
holds. Each part is written after a comma, so the word always reads as a list (`,5` is the list
[5], where `5` alone would read as a count).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from models.game_of_suspicion import rules
from models.game_of_suspicion.log import parse
from models.game_of_suspicion.rules import TEN, Deck
from solver.entry import EntryForm, Part, seats
from solver.errors import SleuthError
from solver.logfile import Document

GUESSES = 3  # card 3 makes up to three guesses at one hand
OUT_AT_ONCE = 2  # players put out by one card 7 that its form offers (more are typed)
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th")

Word = str | Part | list[str | Part]  # a list is one word: its pieces written without spaces


def ordinal(n: int) -> str:
    return ORDINALS[n - 1] if n <= len(ORDINALS) else f"{n}th"


def tapped(label: str, words: list[Word]) -> EntryForm:
    """A form from its line: literal words and parts, in the order the line has them."""
    parts: list[Part] = []
    template = []
    for word in words:
        text = ""
        for piece in word if isinstance(word, list) else [word]:
            if isinstance(piece, Part):
                parts.append(piece)
                text += "{" + piece.name + "}"
            else:
                text += piece.replace("{", "{{").replace("}", "}}")
        template.append(text)
    return EntryForm(label, " ".join(template), parts)


@dataclass
class Table:
    """What the forms depend on: the seats, who is still in the round, and the deck."""

    players: list[str]  # in seat order
    active: list[str]  # in the current round (everyone before a deal, or once a round is over)
    me: str | None
    deck: Deck
    advanced: bool
    maybe_advanced: bool  # the header does not say, and no deal has set a card aside yet

    @property
    def cards(self) -> Counter:
        return self.deck.cards(self.advanced)

    @property
    def others(self) -> list[str]:
        return [p for p in self.active if p != self.me]

    def values(self, ten: bool | None = None) -> list[str]:
        """Every value of the deck (the 10 only in the advanced game, or when `ten`)."""
        cards = self.deck.cards(self.advanced if ten is None else ten)
        return [str(v) for v in sorted(cards)]

    def runs(self, value: int, most: int) -> list[str]:
        """`value` once, twice, ... `most` times, as list words: "0", "0,0", ..."""
        return [",".join([str(value)] * n) for n in range(1, most + 1)]

    def singles(self, ten: bool) -> list[str]:
        """The values other than 0 and 1 (one card each), the 10 included when `ten`."""
        return [str(v) for v in sorted(self.cards) if v not in (0, 1) and (ten or v != TEN)]

    def seat(self, player: str) -> int:
        return self.players.index(player)


def table_of(doc: Document) -> Table:
    """The seats and the deck, and who is in the current round as the log tells it (all the
    players when the log cannot be read: the page says what is wrong)."""
    players, _, me = seats(doc)
    header = doc.data.get("advanced")
    try:
        log = parse(doc, None, doc.events_key)
    except SleuthError:
        deck = rules.load_deck(doc.deck_path())
        return Table(players, players, me, deck, header is True, header is None)
    rnd = log.round
    active = rnd.active if rnd is not None and not rnd.over else players
    return Table(players, active, me, log.deck, log.advanced, header is None and not log.advanced)


def guess_parts(table: Table, name: str, label: str) -> list[str | Part]:
    """A guess as one list word: its 0s, its 1s (the 10 is guessed as a 0 and a 1, so each may
    come once more than the deck has) and the values 2-9 it names."""
    most = {v: table.cards[v] + table.cards[TEN] for v in (0, 1)}
    parts = [
        Part(f"{name}_0s", f"{label}: its 0s", table.runs(0, most[0]), optional=True, prefix=","),
        Part(f"{name}_1s", f"{label}: its 1s", table.runs(1, most[1]), optional=True, prefix=","),
        Part(f"{name}_2_9", f"{label}: 2-9", table.singles(False), 0, prefix=",", joiner=","),
    ]
    return [p for p in parts if p.choices]


def out_parts(table: Table, n: int) -> list[str | Part]:
    """A player card 7 puts out, and the hand they show (exactly two 0s, the 10 counting as
    one: "0,0", or "0" and the 10 among the other cards), as one word `NAME=0,0,1,5`."""
    what = f"{ordinal(n)} player out"
    zeros = ["0,0", "0"] if table.cards[TEN] else ["0,0"]
    return [
        Part(f"out{n}", what, table.active, optional=True),
        Part(
            f"out{n}_0s",
            f"{what}: their 0s" + (" ('0' with the 10)" if table.cards[TEN] else ""),
            zeros,
            optional=True,
            prefix="=",
        ),
        Part(
            f"out{n}_1s",
            f"{what}: their 1s",
            table.runs(1, table.cards[1]),
            optional=True,
            prefix=",",
        ),
        Part(
            f"out{n}_more",
            f"{what}: their other cards",
            table.singles(True),
            pick=0,
            prefix=",",
            joiner=",",
        ),
    ]


def seen_by_me(table: Table, player: str, values: list[str]) -> list[str | Part]:
    """The cards `player` showed me, as one word that is always a list: `Ben=5,7,`, `Ben=5,`,
    and `Ben=,` for none."""
    name = f"shown{table.seat(player)}"
    return [f"{player}=", Part(name, f"{player}'s cards", values, pick=0, joiner=","), ","]


def deal_form(table: Table) -> EntryForm:
    """My hand, one part per card; the face-up shadow hand with 3 players; the card set aside
    in the advanced game (offered, optional, while the header does not say which game)."""
    values = table.values(table.advanced or table.maybe_advanced)
    size = table.deck.hand_size
    words: list[Word] = ["deal"]
    if table.me:
        words += [
            Part(f"card{i}", f"{ordinal(i)} card of my hand", values) for i in range(1, 1 + size)
        ]
    if len(table.players) == 3:
        words += [
            Part(
                f"shadow{i}",
                f"{ordinal(i)} card of the shadow hand",
                values,
                prefix="shadow " if i == 1 else "",
            )
            for i in range(1, 1 + size)
        ]
    if table.advanced or table.maybe_advanced:
        label = "the card set aside" + (" (advanced game only)" if table.maybe_advanced else "")
        words.append(Part("aside", label, values, optional=table.maybe_advanced, prefix="aside "))
    return tapped("The deal (a new round)", words)


def look_forms(table: Table) -> list[EntryForm]:
    values = table.values()
    slot = Part("slot", "which middle card", ["left", "right"])
    saw = Part("saw", "the card I saw", values)
    mine = [
        tapped("My middle look, kept", ["look", slot, "saw", saw]),
        tapped(
            "My middle look, exchanged",
            ["look", slot, "saw", saw, "put", Part("put", "the card I put back", values)],
        ),
    ]
    theirs = tapped(
        "Another player's middle look",
        [
            "look",
            Part("player", "who looked", table.others),
            slot,
            Part("said", "announced", ["exchanged", "kept"]),
        ],
    )
    return [*(mine if table.me else []), theirs]


def card_forms(table: Table) -> list[EntryForm]:
    """One form per card 0-9 (cards 4 and 5 share theirs, and my own 4 or 5 has one)."""
    values, active, me = table.values(), table.active, table.me

    def played(card: Word, *words: Word) -> list[Word]:
        return ["play", Part("player", "who played it", active), card, *words]

    def mine(*parts: Part) -> list[Part]:
        """Details only `me` sees: offered when the log has a `me`, and optional (they are
        given when I am involved; the reader says which one is missing)."""
        return list(parts) if me else []

    def given(name: str, label: str, key: str) -> Part:
        return Part(name, label, values, optional=True, prefix=f"{key} ")

    counts = [str(n) for n in range(len(rules.GREATER_THAN_FOUR) + 1)]
    forms = [
        tapped(
            "Card 0 played",
            played(
                "0",
                "between",
                Part("between", "the two players", active, pick=2),
                *mine(
                    given("gave", "I am one of the two: the card I gave", "gave"),
                    given("got", "I am one of the two: the card I got", "got"),
                ),
            ),
        ),
        tapped(
            "Card 1 played",
            played(
                "1",
                Part(
                    "named",
                    "the card named",
                    [str(v) for v in rules.NAMEABLE if v in table.cards],
                    prefix="named ",
                ),
                Part("holder", "who held it", [*active, "none"], prefix="holder "),
                *mine(
                    given("gave", "I played it: the card I gave back", "gave"),
                    given("got", "My card was named: the card I got back", "got"),
                ),
            ),
        ),
        tapped(
            "Card 2 played",
            played("2", "showed", Part("showed", "who showed their hand", active, pick=0)),
        ),
        tapped(
            "Card 3 played",
            played(
                "3",
                Part("target", "whose hand", active, prefix="target "),
                "guesses",
                *(
                    guess_parts(table, f"guess{n}", f"{ordinal(n)} guess")
                    for n in range(1, GUESSES + 1)
                ),
                Part("correct", "the last guess was", ["right", "wrong"], prefix="correct "),
            ),
        ),
        tapped(
            "Card 4 or 5 played: how many each showed",
            played(
                Part("card", "which card", ["4", "5"]),
                "shown",
                *(
                    Part(
                        f"shown{table.seat(p)}",
                        f"{p} showed",
                        counts,
                        optional=True,
                        prefix=f"{p}=",
                    )
                    for p in active
                ),
            ),
        ),
    ]
    if me:
        shown = [
            str(v) for v in sorted(rules.GREATER_THAN_FOUR | rules.EVEN_NONZERO) if v in table.cards
        ]
        forms.append(
            tapped(
                "My card 4 or 5: the cards shown to me",
                [
                    "play",
                    me,
                    Part("card", "which card", ["4", "5"]),
                    "shown",
                    *(seen_by_me(table, p, shown) for p in table.others),
                ],
            )
        )
    forms += [
        tapped(
            "Card 6 played",
            played(
                "6",
                "face_up",
                *(
                    Part(
                        f"face_up{table.seat(p)}",
                        f"{p}'s card put face up",
                        values,
                        optional=True,
                        prefix=f"{p}=",
                    )
                    for p in active
                ),
            ),
        ),
        tapped(
            "Card 7 played",
            played("7", "out", *(out_parts(table, n) for n in range(1, OUT_AT_ONCE + 1))),
        ),
        tapped(
            "Card 8 played",
            played(
                "8",
                *mine(
                    given("saw1", "My 8: the left middle card I took", "saw"),
                    Part("saw2", "My 8: the right middle card I took", values, optional=True),
                    given("put", "My 8: the card I put down", "put"),
                ),
            ),
        ),
        tapped("Card 9 played", played("9")),
    ]
    return forms


def entry_forms(doc: Document) -> list[EntryForm]:
    """Every kind of event of a Game of Suspicion log that a player taps in."""
    table = table_of(doc)
    if not table.players:
        return []
    forms = [*look_forms(table), deal_form(table), *card_forms(table)]
    forms.append(
        tapped(
            "A whole-hand guess",
            [
                "guess",
                Part("player", "who guessed", table.active),
                Part("target", "whose hand", table.active),
                Part("result", "the guess was", ["right", "wrong"]),
                guess_parts(table, "guess", "the guess"),
            ],
        )
    )
    forms.append(  # a turn let pass (a house rule, or a missed turn made explicit)
        tapped("A turn let pass", ["skip", Part("player", "whose turn passed", table.active)])
    )
    if table.cards[TEN]:  # last: a deal that sets a card aside may make the game advanced
        forms.append(
            tapped("Card 10 played", ["play", Part("player", "who played it", table.active), "10"])
        )
    return forms
