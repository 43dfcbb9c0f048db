"""The pieces of the load, fault and bad-input harnesses (bench/load.py, faults.py, badinput.py).

- procs: start the site the way the README does (bin/run: daphne, Celery worker, beat), or the
  bare consumer, and measure their processes with psutil;
- accounts: users, log-ins (session cookies) and tables, made through the site's own services;
- players: WebSocket clients that play legal moves chosen with the engine, and record latencies;
- frames: reading the HTML frames the table socket sends;
- stats: percentiles and the report.
"""
