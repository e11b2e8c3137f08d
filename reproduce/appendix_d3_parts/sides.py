"""Where Appendix D.3's sub-claims stand on their intervals, and how they combine: the
helpers shared by :mod:`~reproduce.appendix_d3_parts.rules` and
:mod:`~reproduce.appendix_d3_parts.q_rules`."""

from __future__ import annotations

from reproduce.harness import settings as S

__all__ = ["T_MAX", "REF_LAYER", "T5", "EARLY", "TAIL", "rounded", "side", "combine",
           "interval_text", "count_text"]

T_MAX, REF_LAYER = S.T_MAX, S.D3_REF_LAYER
#: index of layer 5 ("after 4 or 5 layers"), reported as the ``*_t5`` evidence
T5 = S.D3_COLLAPSE_LAYERS[0] - 1
#: side flips between rounds 1 .. L of the GCNN's trained depth, and from the reference layer on
EARLY = slice(0, S.D3_GCNN_DEPTH - 1)
TAIL = slice(REF_LAYER - 1, None)


def rounded(x, nd=3):
    """``x`` rounded for the evidence (``None`` stays ``None``)."""
    return None if x is None else round(float(x), nd)


def side(iv: dict, bound: float, strict: bool) -> str:
    """Where a sub-claim "value >= bound" (``>`` when ``strict``) stands on its interval:
    ``holds`` (the whole interval on the claimed side), ``fails`` (the whole interval on the
    other side) or ``undecided``."""
    if (iv["low"] > bound) if strict else (iv["low"] >= bound):
        return "holds"
    if (iv["high"] <= bound) if strict else (iv["high"] < bound):
        return "fails"
    return "undecided"


def combine(sides: list[str]) -> str:
    """All sub-claims hold: confirmed; all fail: refuted; some of each (none undecided):
    qualified; any undecided: inconclusive."""
    if "undecided" in sides:
        return "inconclusive"
    if all(x == "holds" for x in sides):
        return "confirmed"
    return "refuted" if all(x == "fails" for x in sides) else "qualified"


def interval_text(iv: dict) -> str:
    """``estimate [low, high]`` of an interval record, for the evidence."""
    return f"{iv['estimate']:.2f} [{iv['low']:.2f}, {iv['high']:.2f}]"


def count_text(sides: dict, word: str) -> str:
    """``k of n``: how many of the ``sides`` are ``word``."""
    return f"{sum(x == word for x in sides.values())} of {len(sides)}"
