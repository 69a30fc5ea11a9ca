"""A Swiss's standings and sheets from its pairings (pure): points (a win or a bye 1, a draw
1/2, an aborted game nothing), the tiebreaks (Buchholz: the points of the opponents met;
Sonneborn-Berger: the points of the opponents beaten plus half of those drawn; a bye adds to
neither), the entrants of the next round's pairing, and the FIDE TRF export."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from app.tournaments.swisspairing import FIRST, SECOND, Entrant


@dataclass(frozen=True)
class Played:
    """A pairing as the standings read it (a bye: ``second_id`` None)."""

    round: int
    board: int
    first_id: str
    second_id: str | None
    status: str  # started, finished, void
    winner: str | None


@dataclass(frozen=True)
class Joined:
    player_id: str
    name: str
    rating: int
    joined_round: int
    withdrawn: bool


@dataclass
class Standing:
    player_id: str
    name: str
    rating: int
    withdrawn: bool
    points: float = 0.0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    performance: int = 0
    rank: int = 0
    # round -> (opponent or None, colour "w"/"b" or None, TRF result code)
    sheet: dict[int, tuple[str | None, str | None, str]] = field(default_factory=dict)


def _result(p: Played, me: str) -> float | None:
    """My points from a played pairing (None: not counted)."""
    if p.second_id is None:
        return 1.0
    if p.status != "finished":
        return None
    if p.winner is None:
        return 0.5
    return 1.0 if (p.winner == FIRST) == (p.first_id == me) else 0.0


def standings(players: Sequence[Joined], played: Sequence[Played], rounds: int) -> list[Standing]:
    """Everyone ranked: points, Sonneborn-Berger (lichess's tieBreak), Buchholz, rating, id;
    ``rounds``: those started so far (sheets cover them)."""
    table = {j.player_id: Standing(j.player_id, j.name, j.rating, j.withdrawn) for j in players}
    ratings = {j.player_id: j.rating for j in players}
    games: dict[str, list[tuple[str, float]]] = {pid: [] for pid in table}
    for p in played:
        for me, other, colour in ((p.first_id, p.second_id, "w"), (p.second_id, p.first_id, "b")):
            if me is None or me not in table:
                continue
            points = _result(p, me)
            if points is not None:
                table[me].points += points
            if other is None:
                table[me].sheet[p.round] = (None, None, "U")
            elif p.status == "void":
                table[me].sheet[p.round] = (None, None, "Z")
            else:
                code = {None: " ", 1.0: "1", 0.5: "=", 0.0: "0"}[points]
                table[me].sheet[p.round] = (other, colour, code)
                if points is not None:
                    games[me].append((other, points))
    for s in table.values():
        for r in range(1, rounds + 1):
            s.sheet.setdefault(r, (None, None, "Z"))  # not paired: absent, or joined later
        met = [(table[o].points, pts) for o, pts in games[s.player_id] if o in table]
        s.buchholz = sum(theirs for theirs, _ in met)
        s.sonneborn_berger = sum(theirs * mine for theirs, mine in met)
        if games[s.player_id]:
            n = len(games[s.player_id])
            score = sum(pts for _, pts in games[s.player_id])
            average = sum(ratings.get(o, 0) for o, _ in games[s.player_id]) / n
            s.performance = round(average + 800 * (score / n - 0.5))
        else:
            s.performance = s.rating
    ranked = sorted(
        table.values(),
        key=lambda s: (-s.points, -s.sonneborn_berger, -s.buchholz, -s.rating, s.player_id),
    )
    for rank, s in enumerate(ranked, start=1):
        s.rank = rank
    return ranked


def entrants(table: Sequence[Standing], played: Sequence[Played]) -> list[Entrant]:
    """Who the next round pairs (not withdrawn), with their history: opponents of the games
    not void, colours in round order, byes."""
    opponents: dict[str, set[str]] = {s.player_id: set() for s in table}
    colours: dict[str, list[str]] = {s.player_id: [] for s in table}
    byes: set[str] = set()
    for p in sorted(played, key=lambda p: p.round):
        if p.second_id is None:
            byes.add(p.first_id)
        elif p.status != "void":
            for me, other, colour in (
                (p.first_id, p.second_id, FIRST),
                (p.second_id, p.first_id, SECOND),
            ):
                if me in opponents:
                    opponents[me].add(other)
                    colours[me].append(colour)
    return [
        Entrant(
            s.player_id,
            s.points,
            s.rating,
            frozenset(opponents[s.player_id]),
            tuple(colours[s.player_id]),
            s.player_id in byes,
        )
        for s in table
        if not s.withdrawn
    ]


def _line(fields: list[tuple[int, str]]) -> str:
    """TRF columns: each text ends at its (1-based) column."""
    out = ""
    for end, text in fields:
        out += " " * max(end - len(text) - len(out), 0) + text
    return out.rstrip()


def trf(header: dict[str, str], table: Sequence[Standing], nb_rounds: int, rounds: int) -> str:
    """FIDE's Tournament Report File (TRF-16) as lichess exports it: the header lines, then
    a player a line numbered by rating (the starting rank), with each round's opponent,
    colour and result (1, =, 0; U the bye; Z not paired; blank still on)."""
    start = sorted(table, key=lambda s: (-s.rating, s.player_id))
    numbers = {s.player_id: n for n, s in enumerate(start, start=1)}
    lines = [f"{code} {value}" for code, value in header.items()]
    lines.append(f"XXR {nb_rounds}")
    for s in start:
        fields = [
            (3, "001"),
            (8, str(numbers[s.player_id])),
            (14 + len(s.name[:33]), s.name[:33]),
            (52, str(s.rating)),
            (84, f"{s.points:.1f}"),
            (89, str(s.rank)),
        ]
        for r in range(1, rounds + 1):
            opponent, colour, code = s.sheet[r]
            base = (r - 1) * 10
            fields += [
                (95 + base, f"{numbers[opponent]:04d}" if opponent in numbers else "0000"),
                (97 + base, colour or "-"),
                (99 + base, code),
            ]
        lines.append(_line(fields))
    return "\n".join(lines) + "\n"
