"""litellm's disk cache for benchmark runs: a re-run with the same prompts is free.

`use_disk_cache(folder)` points litellm's response cache at `folder` (type `disk`); every
completion of this process is then looked up there first (the key covers the model, the
messages, temperature, seed and the other call parameters), so a second run of the same
suite with the same model makes no model requests at all. Each worker process of a
parallel run enables it again (the cache is a process setting; the folder is shared).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["use_disk_cache", "with_noise_suffix"]

_ACTIVE: dict[str, str] = {}


def use_disk_cache(folder: Path | str | None) -> None:
    """Cache every litellm completion of this process under `folder` (None: no cache)."""
    from ..model import import_litellm

    litellm = import_litellm()
    if folder is None:
        litellm.cache = None
        _ACTIVE.clear()
        return
    path = str(Path(folder).resolve())
    if _ACTIVE.get("dir") == path and litellm.cache is not None:
        return
    Path(path).mkdir(parents=True, exist_ok=True)
    from litellm.caching.caching import Cache

    litellm.cache = Cache(type="disk", disk_cache_dir=path)
    _ACTIVE["dir"] = path


def with_noise_suffix(model: str, noise: float | None, option: str = "--noise") -> str:
    """`model` with the built-in noise suffix for `noise` (a rate in [0, 1]); only the
    built-in `dgrr/<policy>` models take one.

    >>> with_noise_suffix("dgrr/reference-b", 0.1)
    'dgrr/reference-b/noise=0.1'
    >>> with_noise_suffix("openai/x", None)
    'openai/x'
    """
    from .._errors import DgrrError

    if noise is None:
        return model
    if not 0.0 <= noise <= 1.0:
        raise DgrrError(f"{option}: must be a rate in [0, 1], got {noise}")
    if not model.startswith("dgrr/"):
        raise DgrrError(f"{option}: only the built-in dgrr/<policy> models take a noise rate, "
                        f"not {model!r}")
    if "/noise=" in model:
        raise DgrrError(f"{option}: {model!r} already names a noise rate")
    return f"{model}/noise={noise:g}"
