"""Reviewer keys: Ed25519 private keys kept outside the repository, public keys in a
trust file outside the approvals database (docs/approvals.md).

A private key file holds one reviewer's key (JSON, file mode 0600, folder 0700)::

    {"format": "dgrr.key/v1", "reviewer": "ana", "key_id": "ed25519:…",
     "private_key": "<base64 of the 32-byte Ed25519 seed>"}

Its file name is derived from a hash of the reviewer's name (reviewer text never becomes
a file name). The trust file lists the public keys each reviewer may sign with::

    {"format": "dgrr.trust/v1",
     "keys": [{"reviewer": "ana", "key_id": "ed25519:…", "public_key": "<base64>",
               "admin": true}]}

`admin: true` names an administrator: only rows signed with such a key may change the
review rule (how many reviewers a repair needs).

`key_id` is `ed25519:` and the first 32 hex digits of the sha256 of the raw public key.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .._errors import DgrrError
from .._io import atomic_open, check_secret_file
from .._text import printable

__all__ = ["DEFAULT_KEY_DIR", "DEFAULT_TRUST", "Signer", "TrustedKey", "TrustFile",
           "generate_key", "key_dir", "key_id", "load_signer", "trust_path"]

DEFAULT_KEY_DIR = "~/.dgrr/keys"
DEFAULT_TRUST = "~/.dgrr/trusted_keys.json"
KEY_FORMAT = "dgrr.key/v1"
TRUST_FORMAT = "dgrr.trust/v1"
MAX_FILE = 4 * 1024 * 1024


def key_dir(value: str | os.PathLike[str] | None = None) -> Path:
    """Where private keys live: `value`, else `$DGRR_KEYS`, else `~/.dgrr/keys`."""
    return Path(value or os.environ.get("DGRR_KEYS") or DEFAULT_KEY_DIR).expanduser()


def trust_path(value: str | os.PathLike[str] | None = None) -> Path:
    """The trust file: `value`, else `$DGRR_TRUST`, else `~/.dgrr/trusted_keys.json`."""
    return Path(value or os.environ.get("DGRR_TRUST") or DEFAULT_TRUST).expanduser()


def key_id(public_raw: bytes) -> str:
    """`ed25519:` and 32 hex digits of the sha256 of the raw public key."""
    return "ed25519:" + hashlib.sha256(public_raw).hexdigest()[:32]


def _key_file(directory: Path, reviewer: str) -> Path:
    digest = hashlib.sha256(reviewer.strip().encode("utf-8")).hexdigest()[:32]
    return directory / f"{digest}.key.json"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(text: Any, what: str, size: int | None = None) -> bytes:
    if not isinstance(text, str):
        raise DgrrError(f"{what}: expected base64 text, got {type(text).__name__}")
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError):
        raise DgrrError(f"{what}: not base64: {text[:40]!r}") from None
    if size is not None and len(raw) != size:
        raise DgrrError(f"{what}: expected {size} bytes, got {len(raw)}")
    return raw


def check_key_folder(folder: Path) -> None:
    """Refuse a key folder that group or other users can write (they could put their own
    key in a reviewer's place), warn (stderr) when they can read or list it (rule
    `keys.folder-private`). A missing folder is left to the caller."""
    try:
        info = folder.stat()
    except OSError:
        return
    mode = stat.S_IMODE(info.st_mode)
    if mode & 0o022:
        raise DgrrError(f"key folder {folder}: writable by group or other users (mode "
                        f"{mode:04o}); chmod 700 it; nothing signed")
    if mode & 0o055:
        print(f"dgrr: warning: key folder {printable(str(folder))}: readable by other users "
              f"(mode {mode:04o}); chmod 700 it", file=sys.stderr)


def _check_trust_mode(path: Path, mode: int) -> None:
    """Refuse a trust file that group or other users can write: whoever can write it can
    trust their own key for any reviewer (rule `keys.trust-file-not-writable`). It holds
    public keys only, so others may read it."""
    mode = stat.S_IMODE(mode)
    if mode & 0o022:
        raise DgrrError(f"trust file {path}: writable by group or other users (mode "
                        f"{mode:04o}); chmod 644 it")


def _read_small_json(path: Path, what: str,
                     check: Callable[[Path, int], None] | None = None) -> Any:
    """JSON from a regular file of at most MAX_FILE bytes (FIFOs and devices refused);
    `check(path, mode)` may refuse the opened file by its mode."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise DgrrError(f"{what} {path}: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise DgrrError(f"{what} {path}: not a regular file")
        if check is not None:
            check(path, info.st_mode)
        if info.st_size > MAX_FILE:
            raise DgrrError(f"{what} {path}: larger than {MAX_FILE} bytes")
        data = fh.read(MAX_FILE + 1)
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise DgrrError(f"{what} {path}: not JSON ({exc})") from None


class Signer:
    """One reviewer's private key."""

    def __init__(self, reviewer: str, seed: bytes) -> None:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        self.reviewer = reviewer
        self._key = Ed25519PrivateKey.from_private_bytes(seed)
        self.public_raw = _public_raw(self._key.public_key())
        self.key_id = key_id(self.public_raw)

    def sign(self, message: bytes) -> str:
        """The base64 Ed25519 signature of `message`."""
        return _b64(self._key.sign(message))


def _public_raw(public: Any) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return bytes(public.public_bytes(serialization.Encoding.Raw,
                                     serialization.PublicFormat.Raw))


def load_signer(reviewer: str, directory: str | os.PathLike[str] | None = None
                ) -> Signer | None:
    """`reviewer`'s private key from the key folder, None when there is none. A key file
    that other users can read, or that names another reviewer, is refused."""
    path = _key_file(key_dir(directory), reviewer)
    if not path.exists() and not path.is_symlink():
        return None
    check_key_folder(path.parent)
    check_secret_file(path, "private key")
    data = _read_small_json(path, "private key")
    if not isinstance(data, dict) or data.get("format") != KEY_FORMAT:
        raise DgrrError(f"private key {path}: not a {KEY_FORMAT} file")
    if data.get("reviewer") != reviewer.strip():
        raise DgrrError(f"private key {path}: made for another reviewer")
    return Signer(reviewer.strip(), _unb64(data.get("private_key"), f"private key {path}", 32))


def generate_key(reviewer: str, directory: str | os.PathLike[str] | None = None,
                 *, replace: bool = False) -> tuple[Signer, Path]:
    """Create `reviewer`'s key (mode 0600 in a 0700 folder); refuses to replace one
    unless `replace`."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    name = reviewer.strip()
    if not name or any(not c.isprintable() for c in name) or len(name) > 200:
        raise DgrrError("--reviewer: a printable name of at most 200 characters is required")
    folder = key_dir(directory)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    check_key_folder(folder)
    path = _key_file(folder, name)
    if (path.exists() or path.is_symlink()) and not replace:
        raise DgrrError(f"reviewer {name!r} already has a key ({path}); keep it, or pass "
                        "--replace (rows it signed stay verifiable while its public key "
                        "stays in the trust file)")
    key = Ed25519PrivateKey.generate()
    seed = key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                             serialization.NoEncryption())
    signer = Signer(name, seed)
    text = json.dumps({"format": KEY_FORMAT, "reviewer": name, "key_id": signer.key_id,
                       "private_key": _b64(seed)}, ensure_ascii=True) + "\n"
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return signer, path


class TrustedKey:
    """One public key the trust file accepts for one reviewer."""

    def __init__(self, reviewer: str, public_raw: bytes, added_at: str = "",
                 admin: bool = False) -> None:
        self.reviewer = reviewer
        self.public_raw = public_raw
        self.key_id = key_id(public_raw)
        self.added_at = added_at
        self.admin = admin

    def verifies(self, message: bytes, signature: Any) -> bool:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

        if not isinstance(signature, str):
            return False
        try:
            raw = base64.b64decode(signature.encode("ascii"), validate=True)
            Ed25519PublicKey.from_public_bytes(self.public_raw).verify(raw, message)
        except (InvalidSignature, ValueError, UnicodeEncodeError):
            return False
        return True


class TrustFile:
    """The public keys trusted per reviewer (see the module docstring for the format)."""

    def __init__(self, path: Path, keys: list[TrustedKey]) -> None:
        self.path = path
        self.keys = keys

    @classmethod
    def load(cls, path: str | os.PathLike[str] | None = None, *, missing_ok: bool = False
             ) -> TrustFile | None:
        """The trust file at :func:`trust_path`; None when it does not exist and
        `missing_ok`."""
        where = trust_path(path)
        if not where.exists():
            if missing_ok:
                return None
            raise DgrrError(f"trust file {where}: does not exist (dgrr keys generate "
                            "--reviewer NAME creates it)")
        data = _read_small_json(where, "trust file", check=_check_trust_mode)
        if not isinstance(data, dict) or data.get("format") != TRUST_FORMAT:
            raise DgrrError(f"trust file {where}: not a {TRUST_FORMAT} file (field 'format')")
        entries = data.get("keys")
        if not isinstance(entries, list):
            raise DgrrError(f"trust file {where}: field 'keys' must be a list")
        keys = []
        for i, e in enumerate(entries):
            if not isinstance(e, dict) or not isinstance(e.get("reviewer"), str):
                raise DgrrError(f"trust file {where}: keys[{i}].reviewer must be text")
            raw = _unb64(e.get("public_key"), f"trust file {where}: keys[{i}].public_key", 32)
            if e.get("admin", False) not in (True, False):
                raise DgrrError(f"trust file {where}: keys[{i}].admin must be true or false")
            tk = TrustedKey(e["reviewer"], raw, str(e.get("added_at", "")),
                            admin=e.get("admin") is True)
            if e.get("key_id") not in (None, tk.key_id):
                raise DgrrError(f"trust file {where}: keys[{i}].key_id does not match its "
                                "public key")
            keys.append(tk)
        return cls(where, keys)

    def for_reviewer(self, reviewer: str) -> Iterator[TrustedKey]:
        return (k for k in self.keys if k.reviewer == reviewer)

    def check(self, reviewer: str, key: Any, message: bytes, signature: Any) -> str | None:
        """None when `signature` over `message` is by a key trusted for `reviewer`, else
        why not."""
        if not key or not signature:
            return "not signed"
        match = [k for k in self.for_reviewer(reviewer) if k.key_id == key]
        if not match:
            return (f"signed with key {str(key)[:48]!r}, which the trust file does not "
                    f"trust for reviewer {reviewer[:60]!r}")
        if not match[0].verifies(message, signature):
            return "its signature does not match its content (forged or re-chained)"
        return None

    def fingerprint(self) -> bytes:
        """sha256 of everything :meth:`check` and :meth:`is_admin` read (each key's
        reviewer, id, public key and administrator flag, in order): two trust files with
        the same fingerprint give every row the same verdict."""
        return hashlib.sha256(repr([(k.reviewer, k.key_id, k.public_raw, k.admin)
                                    for k in self.keys]).encode("utf-8")).digest()

    def trusts(self, reviewer: str, key: Any) -> bool:
        """Whether `key` (a key id) is trusted for `reviewer`."""
        return any(k.key_id == key for k in self.for_reviewer(reviewer))

    def is_admin(self, reviewer: str, key: Any) -> bool:
        """Whether `key` is an administrator's key trusted for `reviewer`."""
        return any(k.key_id == key and k.admin for k in self.for_reviewer(reviewer))

    def add(self, reviewer: str, public_raw: bytes, *, admin: bool = False) -> bool:
        """Trust `public_raw` for `reviewer` (as an administrator's key with `admin`) and
        save; False when it already was (an existing key is made an administrator's)."""
        kid = key_id(public_raw)
        known = [k for k in self.keys if k.key_id == kid and k.reviewer == reviewer]
        if known:
            if admin and not known[0].admin:
                known[0].admin = True
                self.save()
                return True
            return False
        self.keys.append(TrustedKey(reviewer, public_raw,
                                    datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
                                    admin=admin))
        self.save()
        return True

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = {"format": TRUST_FORMAT, "keys": [
            {"reviewer": k.reviewer, "key_id": k.key_id, "public_key": _b64(k.public_raw),
             "added_at": k.added_at, **({"admin": True} if k.admin else {})}
            for k in self.keys]}
        with atomic_open(self.path, "--trust") as fh:
            # never group- or other-writable, whatever the umask (see _check_trust_mode)
            os.fchmod(fh.fileno(), stat.S_IMODE(os.fstat(fh.fileno()).st_mode) & 0o755)
            fh.write(json.dumps(data, indent=1, ensure_ascii=True) + "\n")
