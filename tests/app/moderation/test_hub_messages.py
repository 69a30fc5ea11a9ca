"""What moderation tells across server instances: a line kept for its author only, and a
line hidden, cross the PostgreSQL hub as they were (the other instances' pages filter and
remove them the same)."""

from __future__ import annotations

from app.domain.enums import ChatRoom
from app.domain.events import ChatHidden, ChatPosted
from app.realtime.messages import HubCodec


def test_an_author_only_line_and_a_hidden_line_cross_the_hub_whole():
    posted = ChatPosted("g1", 3, ChatRoom.SPECTATOR, "bob", "bob", "hi", 17, True)
    hidden = ChatHidden("g1", 4, 17)
    for message in (posted, hidden):
        back = HubCodec.decode(HubCodec.encode(message))
        assert back == message and type(back) is type(message)
    back = HubCodec.decode(HubCodec.encode(posted))
    assert isinstance(back, ChatPosted) and back.author_only is True
