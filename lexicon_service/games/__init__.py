"""Server-held games: typed events (events.py), the state as their fold (state.py), the flow rules of a
game (rules.py), the event-log store (store.py) and the service deciding commands (service.py).
Independent of gRPC: lexicon_service/server/game_session_servicer.py maps it onto GameSessionService."""
