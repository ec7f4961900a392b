"""Tests of the web game: sentences and snapshots, storage, tables, the HTTP API, the WebSocket protocol and
end-to-end play in Debian's Chromium."""
