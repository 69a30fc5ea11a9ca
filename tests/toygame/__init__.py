"""The tests' sixth game, Col (tests/toygame/col.py), added the way a real game is: its
engine module and its table entry, registered at test time (engine.variants.register).

A stone game needs no pictures of its own; its names come from its entry, and it has no
blurb or rules page text (the pages fall back to its entry's names).

A server forked by tests/zygote.py registers it when its environment has ``TOY_GAME``
(``register_from``); an in-process app test uses ``registered()``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping

import engine
from engine.variants import Stones, Variant

ENV = "KODAMA_TEST_TOY_GAME"
TOY = Variant(
    id="col",
    names={"en": "Col", "fr": "Col", "home": "Col"},
    home_lang="en",
    board=(3, 3),
    pools=((1, 0),),
    evaluator=None,
    notation="squares",
    stones=Stones(steps=()),
    module="tests.toygame.col",
)
POOL = "col-1+0"


def register() -> None:
    engine.variants.register(TOY)


def unregister() -> None:
    engine.variants.unregister(TOY.id)
    engine.registry.forget(TOY.id)


@contextlib.contextmanager
def registered() -> Iterator[Variant]:
    """The toy game in the table for the block's length."""
    register()
    try:
        yield TOY
    finally:
        unregister()


def register_from(env: Mapping[str, str]) -> None:
    """In a forked test server: add the toy game if the test asked for it."""
    if env.get(ENV):
        register()
