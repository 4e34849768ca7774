"""What the browser tests' stand-ins for other servers share (the map tiles, the geocoder): an HTTP
server on a loopback port, in a thread, that remembers what it was asked. A subclass says how to
answer with `answer(handler)`, which returns (status, content type, body) and may call
`self.record(...)`."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class LoopbackServer:
    """start() listens on a free port (the same one again after stop()); asked() lists what
    `record` was given since the last clear()."""

    name = "stand-in"

    def __init__(self):
        self.port = 0
        self.requests = []
        self._lock = threading.Lock()
        self._server = None
        self._thread = None

    def answer(self, handler: BaseHTTPRequestHandler):
        raise NotImplementedError

    def record(self, what):
        with self._lock:
            self.requests.append(what)

    def start(self):
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                answered = owner.answer(self)
                if answered is None:
                    self.send_error(404)
                    return
                status, content_type, body = answered
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        ThreadingHTTPServer.allow_reuse_address = True
        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, name=self.name, daemon=True)
        self._thread.start()
        return self

    def stop(self):
        if self._server:
            self._server.shutdown()
            self._server.server_close()
            self._thread.join(5)
            self._server = None

    def asked(self) -> list:
        with self._lock:
            return list(self.requests)

    def clear(self):
        with self._lock:
            self.requests.clear()
