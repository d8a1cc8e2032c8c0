"""litellm's response cache on disk for benchmark runs: a re-run with the same prompts is
free.

`use_disk_cache(folder)` sets `litellm.cache` to a `litellm.Cache` whose backend stores
each entry as one JSON file under `folder` (litellm 1.110 removed its own `disk` type, but
its `Cache` takes any `BaseCache` backend; this is a small one, `JsonFileCache`). Every
completion of this process is then looked up there first: litellm's key covers the model,
the messages, temperature, seed and the other call parameters, so a second run of the
same suite with the same model makes no model requests at all. Each worker process of a
parallel run enables it again (the cache is a process setting; the folder is shared and
every write is atomic). Entries never expire; delete the folder to start afresh.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["use_disk_cache", "with_noise_suffix"]

_ACTIVE: dict[str, str] = {}


def _backend_class() -> type:
    import hashlib
    import json

    from litellm.caching.base_cache import BaseCache

    from .._io import atomic_write_text

    class JsonFileCache(BaseCache):  # type: ignore[misc]
        """litellm cache backend: one JSON file per key (a hash of litellm's key)."""

        def __init__(self, folder: str) -> None:
            super().__init__()
            self.folder = Path(folder)

        def _path(self, key: str) -> Path:
            digest = hashlib.sha256(str(key).encode()).hexdigest()
            return self.folder / digest[:2] / f"{digest}.json"

        def set_cache(self, key: str, value: object, **kwargs: object) -> None:
            p = self._path(key)
            p.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(p, json.dumps({"key": str(key), "value": value}, default=str))

        def get_cache(self, key: str, **kwargs: object) -> object:
            try:
                data = json.loads(self._path(key).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return None
            return data.get("value") if data.get("key") == str(key) else None

        async def async_set_cache(self, key: str, value: object, **kwargs: object) -> None:
            self.set_cache(key, value, **kwargs)

        async def async_get_cache(self, key: str, **kwargs: object) -> object:
            return self.get_cache(key, **kwargs)

        async def async_set_cache_pipeline(self, cache_list: list, **kwargs: object) -> None:
            for key, value in cache_list:
                self.set_cache(key, value, **kwargs)

        def batch_get_cache(self, keys: list, **kwargs: object) -> list:
            return [self.get_cache(k) for k in keys]

        async def async_batch_get_cache(self, keys: list, **kwargs: object) -> list:
            return self.batch_get_cache(keys)

        def flush_cache(self) -> None:
            pass

        async def disconnect(self) -> None:
            pass

        def delete_cache(self, key: str) -> None:
            self._path(key).unlink(missing_ok=True)

    return JsonFileCache  # a class built on first use: litellm is imported lazily


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

    _tolerate_missing_proxy_extras()
    litellm.cache = Cache(_backend=_backend_class()(path))
    _ACTIVE["dir"] = path


def _tolerate_missing_proxy_extras() -> None:
    """Work around litellm issue #42195 (fix proposed in PR #42198, not released): on a
    cache hit, litellm imports its proxy modules (fastapi, soundfile, ...) only to ask
    whether the cached result is an Anthropic stream, so without the `proxy` extras the
    first hit crashes. Where that import fails, the answer is the one the PR gives: a
    plain (non-stream) cached result is not deferred. Our calls never stream."""
    from litellm.caching import caching_handler

    original = caching_handler._should_defer_streaming_cache_hit_callbacks
    if getattr(original, "_dgrr_tolerant", False):
        return

    def tolerant(*, cached_result: object) -> bool:
        try:
            return bool(original(cached_result=cached_result))
        except ImportError:
            from litellm.litellm_core_utils.streaming_handler import CustomStreamWrapper

            return isinstance(cached_result, CustomStreamWrapper)

    tolerant._dgrr_tolerant = True  # type: ignore[attr-defined]
    caching_handler._should_defer_streaming_cache_hit_callbacks = tolerant


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
