"""The approximation-hardness constants quoted in Section 5 of arXiv:1802.04948, checked.

Section 5 says: MVC "cannot be approximated better than 1.3606 unless P = NP"; max cut "can be
approximated within a factor 1.1383 of optimal, but not within 1.0684 unless P = NP"; MIS "is
hard to approximate within n^(1 - eps) for any eps > 0".  Ratios are written >= 1 (the paper's
convention, also :func:`g2s.problems.approximation_ratio`).

Sources and closed forms (values computed here with sympy / mpmath, not typed in):

* MVC: Dinur & Safra, "On the hardness of approximating minimum vertex cover", Ann. Math. 162
  (2005): NP-hard within ``10 sqrt(5) - 21 - eps ~ 1.36068``.  (Superseded by Khot, Minzer &
  Safra, FOCS 2018: ``sqrt(2) - eps``; under the Unique Games Conjecture ``2 - eps``.)
* Max cut, algorithm: Goemans & Williamson, J. ACM 42 (1995):
  ``alpha_GW = min_{0 < t <= pi} (2/pi) t / (1 - cos t) ~ 0.878567``; as a ratio >= 1,
  ``1/alpha_GW ~ 1.138223``.  No closed form; ``t*`` solves ``t sin t + cos t - 1 = 0``.
* Max cut, hardness: Hastad, "Some optimal inapproximability results", J. ACM 48 (2001), with
  the gadget of Trevisan, Sorkin, Sudan & Williamson (SICOMP 2000): NP-hard within
  ``16/17 + eps``, i.e. ratio ``17/16 = 1.0625``.  Under the Unique Games Conjecture
  (Khot, Kindler, Mossel & O'Donnell, SICOMP 2007) the hardness is ``1/alpha_GW``.
* MIS: Hastad, "Clique is hard to approximate within n^(1-eps)", Acta Math. 182 (1999),
  assuming NP != ZPP; Zuckerman, Theory of Computing 3 (2007) derandomised it to P != NP.
  (Clique and independent set are the same problem on the complement graph.)
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Decimal

import mpmath
import sympy as sp

__all__ = [
    "dinur_safra_mvc_hardness",
    "khot_minzer_safra_mvc_hardness",
    "goemans_williamson_angle",
    "goemans_williamson_alpha",
    "goemans_williamson_ratio",
    "hastad_maxcut_hardness",
    "HardnessCheck",
    "how_paper_rounds",
    "section5_checks",
]


def dinur_safra_mvc_hardness() -> sp.Expr:
    """``10 sqrt(5) - 21`` (exact), Dinur & Safra (2005)."""
    return 10 * sp.sqrt(5) - 21


def khot_minzer_safra_mvc_hardness() -> sp.Expr:
    """``sqrt(2)`` (exact), Khot, Minzer & Safra (2018): the later, stronger NP-hardness."""
    return sp.sqrt(2)


def goemans_williamson_angle(digits: int = 40) -> mpmath.mpf:
    """The minimiser ``t*`` of ``t/(1 - cos t)`` on ``(0, pi]``: root of
    ``t sin t + cos t - 1 = 0`` in ``(2, 3)``."""
    t = sp.symbols("t", positive=True)
    with mpmath.workdps(digits + 10):
        return sp.nsolve(t * sp.sin(t) + sp.cos(t) - 1, t, 2.33, prec=digits + 10)


def goemans_williamson_alpha(digits: int = 40) -> sp.Float:
    """``alpha_GW = (2/pi) t* / (1 - cos t*)``."""
    ts = goemans_williamson_angle(digits)
    return sp.N(2 * ts / (sp.pi * (1 - sp.cos(ts))), digits)


def goemans_williamson_ratio(digits: int = 40) -> sp.Float:
    """``1 / alpha_GW``, the Goemans-Williamson guarantee written as a ratio >= 1."""
    return sp.N(1 / goemans_williamson_alpha(digits + 5), digits)


def hastad_maxcut_hardness() -> sp.Rational:
    """``17/16``: Hastad's ``16/17 + eps`` NP-hardness for max cut as a ratio >= 1."""
    return sp.Rational(17, 16)


def how_paper_rounds(value: sp.Expr, paper: str) -> str:
    """How the paper's decimal ``paper`` relates to ``value`` at the same number of decimals:
    ``rounded``, ``truncated`` (rounded down), ``rounded up`` (ceiling), or ``mismatch``.
    Several labels can apply; the first in that order is returned."""
    places = Decimal(paper)
    exp = places.as_tuple().exponent
    exact = Decimal(str(sp.N(value, 30)))
    q = Decimal(1).scaleb(exp)
    for label, mode in (("rounded", ROUND_HALF_EVEN), ("truncated", ROUND_FLOOR),
                        ("rounded up", ROUND_CEILING)):
        if exact.quantize(q, rounding=mode) == places:
            return label
    return "mismatch"


@dataclass(frozen=True)
class HardnessCheck:
    """One Section 5 constant against its source."""

    claim: str          # what the paper says
    paper_value: str    # the number as printed
    source_value: float  # the sourced constant, as a ratio >= 1
    source: str         # citation
    relation: str       # output of :func:`how_paper_rounds`
    implied: bool       # does the sourced result imply the paper's sentence as written?


def section5_checks() -> dict[str, HardnessCheck]:
    """The three Section 5 statements checked against their sources.

    ``implied`` is direction-aware: a hardness threshold ``h`` implies hardness for every
    smaller ratio, so the paper's hardness number must be ``<= h``; an algorithmic guarantee
    ``a`` implies "approximable within r" for every ``r >= a``.
    """
    ds = dinur_safra_mvc_hardness()
    gw = goemans_williamson_ratio(30)
    hs = hastad_maxcut_hardness()
    return {
        "mvc": HardnessCheck(
            "MVC cannot be approximated better than 1.3606 unless P=NP", "1.3606",
            float(ds), "Dinur & Safra (2005): 10*sqrt(5)-21",
            how_paper_rounds(ds, "1.3606"), float(sp.Rational("1.3606")) <= float(ds)),
        "maxcut-algorithm": HardnessCheck(
            "max cut can be approximated within a factor 1.1383", "1.1383",
            float(gw), "Goemans & Williamson (1995): 1/alpha_GW",
            how_paper_rounds(gw, "1.1383"), float(sp.Rational("1.1383")) >= float(gw)),
        "maxcut-hardness": HardnessCheck(
            "max cut cannot be approximated within 1.0684 unless P=NP", "1.0684",
            float(hs), "Hastad (2001) / TSSW (2000): 17/16",
            how_paper_rounds(hs, "1.0684"), float(sp.Rational("1.0684")) <= float(hs)),
    }
