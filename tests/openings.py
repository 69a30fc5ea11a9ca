"""Move sequences several tests play."""

# Wali: 22 placements, after the 20th of which second has no legal square left and passes,
# so first places twice (``*d3``, ``*e1``). The stones then stand so that first's ``c3b3``
# and, after second's reply, ``e5d5`` make a line of three (tests mark the capture).
WALI_PLACEMENTS = [
    "*d1", "*c2", "*a2", "*c3", "*e5", "*e2", "*a5", "*e3", "*a4", "*a3", "*f5",
    "*f3", "*d4", "*f2", "*b2", "*c5", "*b4", "*b5", "*b1", "*a1", "*d3", "*e1",
]  # fmt: skip
