"""`dgrr keys generate|list|trust`: reviewers' Ed25519 signing keys and the trust file
that says which public key belongs to which reviewer (docs/approvals.md)."""

from __future__ import annotations

import argparse
import base64
import sys
from typing import TYPE_CHECKING

from .._errors import DgrrError

if TYPE_CHECKING:
    from ..approvals import TrustFile


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("keys", help="reviewers' signing keys and the trust file",
                       description="Reviewers sign their decisions and checkpoints with "
                                   "Ed25519 keys. Private keys live outside the repository "
                                   "(mode 0600); public keys are listed in a trust file kept "
                                   "apart from the approvals database. See docs/approvals.md.")
    ksub = p.add_subparsers(dest="keys_command", metavar="ACTION", required=True)
    g = ksub.add_parser("generate", help="create a reviewer's key and trust its public key")
    g.add_argument("--reviewer", required=True, help="whose key")
    g.add_argument("--replace", action="store_true",
                   help="replace the reviewer's existing private key")
    g.add_argument("--no-trust", action="store_true",
                   help="do not add the public key to the trust file (print it for whoever "
                        "keeps the trust file)")
    g.add_argument("--admin", action="store_true",
                   help="trust the key as an administrator's (may change the review rule)")
    _common(g)
    g.set_defaults(func=run_generate)
    t = ksub.add_parser("trust", help="trust a reviewer's public key (from `keys generate "
                                      "--no-trust`)")
    t.add_argument("--reviewer", required=True, help="whose key")
    t.add_argument("--public-key", required=True, help="base64 of the 32-byte public key")
    t.add_argument("--admin", action="store_true",
                   help="trust the key as an administrator's (may change the review rule)")
    _common(t)
    t.set_defaults(func=run_trust)
    ls = ksub.add_parser("list", help="list trusted public keys and the private keys here")
    _common(ls)
    ls.set_defaults(func=run_list)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--keys", default=None, metavar="DIR",
                   help="private key folder (default: $DGRR_KEYS, else ~/.dgrr/keys)")
    p.add_argument("--trust", default=None, metavar="FILE",
                   help="trust file (default: $DGRR_TRUST, else ~/.dgrr/trusted_keys.json)")


def _trust_file(path: str | None) -> TrustFile:
    from ..approvals import TrustFile, trust_path

    found = TrustFile.load(path, missing_ok=True)
    return found if found is not None else TrustFile(trust_path(path), [])


def _printable(value: str) -> str:
    from .._text import printable

    return printable(value)


def run_generate(args: argparse.Namespace) -> int:
    from ..approvals import generate_key

    signer, path = generate_key(args.reviewer, args.keys, replace=args.replace)
    public = base64.b64encode(signer.public_raw).decode("ascii")
    print(f"private key of {_printable(signer.reviewer)!r}: {path} (mode 0600; keep it secret)")
    print(f"public key {signer.key_id}: {public}")
    if args.no_trust:
        print("not added to a trust file; whoever keeps it runs: dgrr keys trust "
              f"--reviewer NAME --public-key {public}")
        return 0
    trust = _trust_file(args.trust)
    trust.add(signer.reviewer, signer.public_raw, admin=args.admin)
    print(f"trusted{' as an administrator' if args.admin else ''} in {trust.path}")
    return 0


def run_trust(args: argparse.Namespace) -> int:
    try:
        raw = base64.b64decode(args.public_key.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError):
        raise DgrrError("--public-key: not base64") from None
    if len(raw) != 32:
        raise DgrrError(f"--public-key: expected 32 bytes, got {len(raw)}")
    name = args.reviewer.strip()
    if not name or any(not c.isprintable() for c in name) or len(name) > 200:
        raise DgrrError("--reviewer: a printable name of at most 200 characters is required")
    trust = _trust_file(args.trust)
    added = trust.add(name, raw, admin=args.admin)
    print(("trusted" if added else "already trusted") + f" in {trust.path}")
    return 0


def run_list(args: argparse.Namespace) -> int:
    import json

    from ..approvals import TrustFile, key_dir, trust_path

    trust = TrustFile.load(args.trust, missing_ok=True)
    out = sys.stdout
    if trust is None:
        out.write(f"no trust file at {trust_path(args.trust)}\n")
    else:
        out.write(f"trusted keys ({trust.path}):\n")
        for k in trust.keys:
            out.write(f"  {_printable(k.reviewer)[:40]:<40}  {k.key_id}  {k.added_at}"
                      + ("  admin" if k.admin else "") + "\n")
    folder = key_dir(args.keys)
    out.write(f"private keys here ({folder}):\n")
    if folder.is_dir():
        for path in sorted(folder.glob("*.key.json")):
            if path.is_symlink() or not path.is_file():  # a FIFO here must not hang `list`
                out.write(f"  (not a regular file: {path.name})\n")
                continue
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                who, kid = str(data["reviewer"]), str(data["key_id"])
            except (OSError, ValueError, KeyError, TypeError):
                out.write(f"  (unreadable: {path.name})\n")
                continue
            out.write(f"  {_printable(who)[:40]:<40}  {kid}\n")
    return 0
