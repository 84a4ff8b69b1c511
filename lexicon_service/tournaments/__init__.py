"""Tournaments: divisions of players, pairings, results, standings, ratings and the files directors
exchange (TSH `.t`, CSV). Transport-free: the store, gRPC, HTTP and the CLI are adapters over it."""
