"""Several server processes: who owns which table and the messages between them
(:mod:`~ohhell.server.processes.hub`), and a socket relayed to the process that owns its table
(:mod:`~ohhell.server.processes.relay`).
"""
