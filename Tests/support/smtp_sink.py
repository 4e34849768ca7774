#!/usr/bin/env python3
"""A local SMTP server for tests: accepts mail and writes it to a directory.

    python3 Tests/support/smtp_sink.py --port N --maildir DIR \
        [--user U --password P] [--starttls --cert CERT --key KEY]

For every message accepted it writes, in this order:
    DIR/<n>.eml   the raw message bytes exactly as received (after SMTP dot-unstuffing)
    DIR/<n>.json  {"mail_from", "rcpt_tos", "authenticated_user", "tls"}
n counts up from 1 (continuing after any <n>.eml already in DIR). Both files
are written to a temp name and renamed, and the .json comes last, so a test
that sees <n>.json can read both files complete.

--user/--password: AUTH PLAIN and LOGIN are required before MAIL FROM; wrong
    credentials get 535. Without them, any AUTH attempt is rejected with 535 and
    mail is accepted unauthenticated.
--starttls: STARTTLS is offered with --cert/--key, and AUTH is only accepted
    after it (auth_require_tls). Without --starttls, AUTH works in plain text.

Once listening it prints "READY <port>" on stdout (flushed); --port 0 picks a
free port, which READY reports. Exits cleanly on SIGTERM or SIGINT.
"""

import argparse
import asyncio
import json
import logging
import os
import re
import signal
import ssl
import sys
import warnings

try:
    from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword
except ImportError:  # pragma: no cover - message for humans
    sys.exit("smtp_sink.py needs aiosmtpd: python3 -m pip install aiosmtpd")


def _to_str(value):
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value


class Maildir:
    """Numbered .eml/.json pairs in one directory."""

    def __init__(self, path):
        self.path = path
        os.makedirs(path, exist_ok=True)
        existing = [
            int(m.group(1))
            for m in (re.fullmatch(r"(\d+)\.eml", name) for name in os.listdir(path))
            if m
        ]
        self.next = max(existing, default=0) + 1

    def _write_atomic(self, name, data):
        final = os.path.join(self.path, name)
        tmp = os.path.join(self.path, "." + name + ".tmp")
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, final)

    def store(self, raw, meta):
        n = self.next
        self.next += 1
        self._write_atomic(f"{n}.eml", raw)
        self._write_atomic(f"{n}.json", (json.dumps(meta, indent=2) + "\n").encode())
        return n


class Handler:
    def __init__(self, maildir):
        self.maildir = maildir

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content
        if raw is None:  # only with decode_data=True, which we don't use
            raw = envelope.content if isinstance(envelope.content, bytes) else envelope.content.encode()
        user = session.auth_data if session.authenticated else None
        meta = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": list(envelope.rcpt_tos),
            "authenticated_user": _to_str(user),
            "tls": session.ssl is not None,
        }
        n = self.maildir.store(raw, meta)
        return f"250 2.0.0 OK stored as {n}"


class Authenticator:
    """PLAIN and LOGIN both hand us a LoginPassword (bytes, bytes)."""

    def __init__(self, user, password):
        self.user = user.encode() if user is not None else None
        self.password = password.encode() if password is not None else None

    def __call__(self, server, session, envelope, mechanism, auth_data):
        if (
            self.user is not None
            and isinstance(auth_data, LoginPassword)
            and auth_data.login == self.user
            and auth_data.password == self.password
        ):
            # This becomes session.auth_data, i.e. the recorded authenticated_user.
            return AuthResult(success=True, auth_data=self.user.decode())
        return AuthResult(success=False, handled=False)  # -> 535 5.7.8


def parse_args(argv):
    p = argparse.ArgumentParser(description="SMTP sink for tests")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True, help="0 picks a free port")
    p.add_argument("--maildir", required=True)
    p.add_argument("--user")
    p.add_argument("--password")
    p.add_argument("--starttls", action="store_true")
    p.add_argument("--cert")
    p.add_argument("--key")
    p.add_argument("--verbose", action="store_true", help="log SMTP sessions to stderr")
    args = p.parse_args(argv)
    if (args.user is None) != (args.password is None):
        p.error("--user and --password go together")
    if args.starttls and not (args.cert and args.key):
        p.error("--starttls needs --cert and --key")
    return args


async def serve(args):
    loop = asyncio.get_running_loop()
    maildir = Maildir(args.maildir)
    handler = Handler(maildir)

    tls_context = None
    if args.starttls:
        tls_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls_context.load_cert_chain(args.cert, args.key)

    auth_required = args.user is not None

    def factory():
        return SMTP(
            handler,
            # A fixed name: the default (socket.getfqdn()) can stall on DNS.
            hostname="localhost",
            tls_context=tls_context,
            require_starttls=False,
            auth_required=auth_required,
            # Plain-text AUTH is fine on loopback without STARTTLS; with it, behave
            # like a real server and only accept credentials over TLS.
            auth_require_tls=bool(args.starttls),
            authenticator=Authenticator(args.user, args.password),
            loop=loop,
        )

    server = await loop.create_server(factory, host=args.host, port=args.port)
    port = server.sockets[0].getsockname()[1]

    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)

    print(f"READY {port}", flush=True)
    try:
        await stop.wait()
    finally:
        server.close()
        # Bounded: on newer Pythons wait_closed() also waits for open client connections.
        try:
            await asyncio.wait_for(server.wait_closed(), timeout=2)
        except asyncio.TimeoutError:
            pass


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.ERROR,
        format="smtp_sink: %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    # aiosmtpd warns about AUTH without TLS; that is intended here.
    warnings.filterwarnings("ignore", message="Requiring AUTH while not requiring TLS")
    asyncio.run(serve(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
