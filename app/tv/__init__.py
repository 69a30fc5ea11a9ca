"""TV: each game's featured live game (and the best of all), chosen on every instance alike,
its page and lichess's TV API (``/api/tv/...``)."""
