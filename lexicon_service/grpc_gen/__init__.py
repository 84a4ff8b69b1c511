"""gRPC stubs generated from proto/ by `make proto` (`python -m tools.gen_proto`) and committed; never edit them.

    from lexicon_service.grpc_gen import lexicon_pb2, lexicon_pb2_grpc, game_pb2, game_pb2_grpc
"""
