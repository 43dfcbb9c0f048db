"""A server that accepts and never answers: the outside service that hangs (tests of timeouts)."""

import socket
import threading
import time


class SilentServer:
    """Accepts TCP connections on 127.0.0.1 and never sends a byte: no greeting, no answer, as a
    hung mail relay or a paused database does (the kernel still accepts). Records, for each
    connection, when it was accepted and when the client hung up."""

    def __init__(self):
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.connections: list[list[float]] = []  # [accepted, hung up or 0.0]
        self.lock = threading.Lock()
        self.open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _addr = self.server.accept()
            except OSError:
                return  # closed
            record = [time.monotonic(), 0.0]
            with self.lock:
                self.connections.append(record)
                self.open.append(conn)
            threading.Thread(target=self._hold, args=(conn, record), daemon=True).start()

    @staticmethod
    def _hold(conn, record):
        try:
            while conn.recv(4096):  # whatever the client says, no answer
                pass
        except OSError:
            pass
        record[1] = time.monotonic()

    def close(self):
        self.server.close()
        with self.lock:
            for conn in self.open:
                conn.close()
