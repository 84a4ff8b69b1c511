"""Server reflection under both names, v1 and v1alpha, serving the protos with their comments.

grpcio-reflection (1.85) implements only `grpc.reflection.v1alpha.ServerReflection`, and serves each
file through `FileDescriptor.CopyToProto`, which carries no comments (the Python stubs hold none).
`grpc.reflection.v1.ServerReflection` is the same protocol under a new name (grpcurl asks for it
first), so the same servicer answers both. Our own files are served from the descriptor set that
`make proto` writes with source info (tools/gen_descriptors.py), so a reflection client sees
every doc comment; a file missing from the set, or one that no longer matches the loaded stubs, is
served as before, without comments.
"""

from __future__ import annotations

import logging
from pathlib import Path

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection
from grpc_reflection.v1alpha import reflection_pb2 as reflection_pb2
from grpc_reflection.v1alpha import reflection_pb2_grpc

log = logging.getLogger("lexicon_service.server")

V1ALPHA_SERVICE_NAME = reflection.SERVICE_NAME
V1_SERVICE_NAME = "grpc.reflection.v1.ServerReflection"
DESCRIPTOR_SET = Path(__file__).resolve().parent.parent / "grpc_gen" / "api_descriptors.binpb"


def _v1_file() -> descriptor_pb2.FileDescriptorProto:
    """grpc/reflection/v1/reflection.proto: the v1alpha file under the v1 package (the same messages)."""
    proto = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(proto)
    old, new = ".grpc.reflection.v1alpha.", ".grpc.reflection.v1."
    proto.name = proto.name.replace("v1alpha", "v1")
    proto.package = "grpc.reflection.v1"
    proto.options.Clear()
    for message in proto.message_type:
        for f in message.field:
            if f.type_name:
                f.type_name = f.type_name.replace(old, new)
    for service in proto.service:
        for method in service.method:
            method.input_type = method.input_type.replace(old, new)
            method.output_type = method.output_type.replace(old, new)
    return proto


class _File:
    """A FileDescriptor whose CopyToProto gives the file with its source info when we have it."""

    def __init__(self, descriptor, pool: _Pool) -> None:
        self._descriptor = descriptor
        self._pool = pool
        self.name = descriptor.name

    @property
    def dependencies(self):
        return [_File(d, self._pool) for d in self._descriptor.dependencies]

    def CopyToProto(self, proto) -> None:  # noqa: N802 - the FileDescriptor interface
        stored = self._pool.with_source_info.get(self.name)
        if stored is not None:
            proto.CopyFrom(stored)
        else:
            self._descriptor.CopyToProto(proto)


class _Pool:
    """The descriptor-pool interface grpcio-reflection uses: the default pool (our stubs), the v1
    reflection file, and our files' source info."""

    def __init__(self, descriptor_set: Path | None) -> None:
        self._default = descriptor_pool.Default()
        self._extra = descriptor_pool.DescriptorPool()
        self._extra.Add(_v1_file())
        self.with_source_info: dict[str, descriptor_pb2.FileDescriptorProto] = {}
        if descriptor_set is not None and descriptor_set.exists():
            files = descriptor_pb2.FileDescriptorSet.FromString(descriptor_set.read_bytes()).file
            for stored in files:
                self._keep_if_current(stored)

    def _keep_if_current(self, stored) -> None:
        try:
            loaded = self._default.FindFileByName(stored.name)
        except KeyError:
            return
        current = descriptor_pb2.FileDescriptorProto()
        loaded.CopyToProto(current)
        bare = descriptor_pb2.FileDescriptorProto()
        bare.CopyFrom(stored)
        bare.ClearField("source_code_info")
        _clear_json_names(bare)
        if bare.SerializeToString(deterministic=True) != current.SerializeToString(deterministic=True):
            log.warning("reflection: %s differs from the loaded stubs (run make proto); served without comments",
                        stored.name)
            return
        self.with_source_info[stored.name] = stored

    def _find(self, method: str, name):
        for pool in (self._default, self._extra):
            try:
                return getattr(pool, method)(name)
            except KeyError:
                continue
        raise KeyError(name)

    def FindFileByName(self, name):  # noqa: N802
        return _File(self._find("FindFileByName", name), self)

    def FindFileContainingSymbol(self, symbol):  # noqa: N802
        return _File(self._find("FindFileContainingSymbol", symbol), self)

    def __getattr__(self, name):  # FindMessageTypeByName, FindExtensionByNumber, FindAllExtensions
        return getattr(self._default, name)


def _clear_json_names(proto) -> None:
    """protoc writes json_name into descriptor sets; CopyToProto of a loaded file does not."""
    def clear(message) -> None:
        for f in message.field:
            f.ClearField("json_name")
        for nested in message.nested_type:
            clear(nested)

    for message in proto.message_type:
        clear(message)


def enable_reflection(service_names, server: grpc.Server, descriptor_set: Path | None = DESCRIPTOR_SET) -> None:
    """Serve reflection (v1 and v1alpha) for `service_names` and both reflection services."""
    names = (*service_names, V1_SERVICE_NAME, V1ALPHA_SERVICE_NAME)
    servicer = reflection.ReflectionServicer(names, pool=_Pool(descriptor_set))
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(servicer, server)
    v1 = grpc.method_handlers_generic_handler(V1_SERVICE_NAME, {
        "ServerReflectionInfo": grpc.stream_stream_rpc_method_handler(
            servicer.ServerReflectionInfo,
            request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
            response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString),
    })
    server.add_generic_rpc_handlers((v1,))
