"""What the scripts of ``reproduce/`` (and their parts packages) import from the harness: the
script contract of :mod:`reproduce.harness.contract`, where each name is defined and documented.

One import point for the script layer, so a script reads ``from reproduce.common import Run,
script_main, verdict`` whatever module of the harness holds them; the harness itself imports
:mod:`reproduce.harness.contract` directly, never this module (dependencies point from the
scripts to the harness).
"""

from reproduce.harness.contract import (
    DEFAULT_OUT,
    PROFILES,
    REPO_ROOT,
    VERDICTS,
    OneLineParser,
    Run,
    UnitCache,
    git_commit,
    make_parser,
    package_version,
    reference_beaten,
    script_main,
    use_agg_backend,
    verdict,
)

__all__ = ["DEFAULT_OUT", "PROFILES", "REPO_ROOT", "VERDICTS", "OneLineParser", "Run",
           "UnitCache", "git_commit", "make_parser", "package_version", "reference_beaten",
           "script_main", "use_agg_backend", "verdict"]
