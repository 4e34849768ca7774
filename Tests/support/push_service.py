#!/usr/bin/env python3
"""A stand-in push service on loopback, for the Web Push tests (docs/push.md).

    python3 Tests/support/push_service.py --dir DIR --devices a,b,c [--script JSON]

It plays both sides a real push service joins: it makes each fake device's subscription keys
(a P-256 key pair and a 16-byte auth secret, as a browser would), and it accepts the server's
messages for them at POST /push/<device>. Everything is checked with implementations other than
Kith's: the VAPID Authorization header (RFC 8292) with py-vapid (the JWT's ES256 signature against
the k= key, `aud` the origin the message was sent to, `exp` in the future and at most 24 h ahead,
`sub` present), and the body is decrypted with http_ece (RFC 8291 aes128gcm) using the device's
private key and auth secret.

Files in DIR:
    devices.json     written before READY: {"<device>": {"endpoint", "p256dh", "auth"}}
    messages.jsonl   one JSON line per message received, appended once it is answered:
                     {"device", "status" (the answer given), "ttl", "topic", "urgency",
                      "contentEncoding", "contentType", "claims", "payload" (the decrypted JSON),
                      "error" (why it could not be checked; absent when it could)}

--script: answers per device, in order, as JSON: {"b": [{"status": 410}],
    "c": [{"status": 429, "retryAfter": "30"}], "d": [{"status": 500}]}. Once a device's list
    is used up it answers 201. A message that fails a check is answered 400 with the reason.

Once listening it prints "READY <port>" on stdout (flushed); the port is picked by the system.
Exits on SIGTERM or SIGINT.
"""

import argparse
import base64
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

try:
    import http_ece
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from py_vapid import jwt as vapid_jwt
except ImportError as error:  # pragma: no cover - message for humans
    sys.exit(f"push_service.py needs http-ece and py-vapid: python3 -m pip install http-ece py-vapid ({error})")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Device:
    def __init__(self, name: str):
        self.name = name
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.public_bytes = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        self.auth = os.urandom(16)


class Service:
    def __init__(self, directory: str, names: list, script: dict):
        self.directory = directory
        self.devices = {name: Device(name) for name in names}
        self.script = {name: list(answers) for name, answers in script.items()}
        self.lock = threading.Lock()

    def next_answer(self, device: str) -> dict:
        with self.lock:
            answers = self.script.get(device) or []
            return answers.pop(0) if answers else {"status": 201}

    def record(self, entry: dict):
        line = json.dumps(entry, sort_keys=True)
        with self.lock:
            with open(os.path.join(self.directory, "messages.jsonl"), "a") as messages:
                messages.write(line + "\n")


def authorization_fields(header: str) -> dict:
    """`vapid t=…, k=…` as RFC 8292 §3 writes it (auth-params, spaces after commas allowed)."""
    scheme, _, rest = header.partition(" ")
    if scheme.lower() != "vapid":
        raise ValueError(f"the Authorization scheme is {scheme!r}, not vapid")
    fields = {}
    for part in rest.split(","):
        name, _, value = part.strip().partition("=")
        fields[name.strip().lower()] = value.strip()
    if "t" not in fields or "k" not in fields:
        raise ValueError("the Authorization header lacks t= or k=")
    return fields


def make_handler(service: Service):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):  # quiet: the test reads messages.jsonl
            pass

        def answer(self, status: int, body: str = "", headers: dict = None):
            data = body.encode()
            self.send_response(status)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            parts = self.path.strip("/").split("/")
            if len(parts) != 2 or parts[0] != "push" or parts[1] not in service.devices:
                self.answer(404, "no such subscription")
                return
            device = service.devices[parts[1]]
            entry = {
                "device": device.name,
                "ttl": self.headers.get("TTL"),
                "topic": self.headers.get("Topic"),
                "urgency": self.headers.get("Urgency"),
                "contentEncoding": self.headers.get("Content-Encoding"),
                "contentType": self.headers.get("Content-Type"),
                "bytes": len(body),
            }
            try:
                fields = authorization_fields(self.headers.get("Authorization") or "")
                claims = vapid_jwt.decode(fields["t"], fields["k"])
                entry["claims"] = claims
                host, port = self.server.server_address[:2]
                audience = f"http://{host}:{port}"
                if claims.get("aud") != audience:
                    raise ValueError(f"aud is {claims.get('aud')!r}, not {audience!r}")
                now = time.time()
                if not isinstance(claims.get("exp"), int) or not now < claims["exp"] <= now + 24 * 3600:
                    raise ValueError(f"exp {claims.get('exp')!r} is not within the next 24 hours")
                if not claims.get("sub"):
                    raise ValueError("sub is missing")
                if entry["contentEncoding"] != "aes128gcm":
                    raise ValueError(f"Content-Encoding is {entry['contentEncoding']!r}")
                plaintext = http_ece.decrypt(
                    body, private_key=device.private_key, auth_secret=device.auth, version="aes128gcm")
                entry["payload"] = json.loads(plaintext)
            except Exception as error:  # every failed check is the test's business
                entry["error"] = f"{type(error).__name__}: {error}"
                entry["status"] = 400
                service.record(entry)
                self.answer(400, entry["error"])
                return
            scripted = service.next_answer(device.name)
            entry["status"] = scripted["status"]
            headers = {"Retry-After": scripted["retryAfter"]} if "retryAfter" in scripted else {}
            if scripted["status"] in (200, 201, 202):
                headers["Location"] = f"/message/{time.monotonic_ns()}"
            service.record(entry)
            self.answer(scripted["status"], "", headers)

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--devices", required=True, help="comma-separated device names")
    parser.add_argument("--script", default="{}")
    options = parser.parse_args()
    os.makedirs(options.dir, exist_ok=True)
    service = Service(options.dir, [name for name in options.devices.split(",") if name], json.loads(options.script))
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(service))
    port = server.server_address[1]
    devices = {
        name: {"endpoint": f"http://127.0.0.1:{port}/push/{name}", "p256dh": b64url(device.public_bytes),
               "auth": b64url(device.auth)}
        for name, device in service.devices.items()
    }
    temporary = os.path.join(options.dir, ".devices.json")
    with open(temporary, "w") as file:
        json.dump(devices, file)
    os.replace(temporary, os.path.join(options.dir, "devices.json"))
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    print("READY", port, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
