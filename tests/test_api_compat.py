"""Wire and JSON compatibility with the last release, field by field (the protos at commit e8f9399,
proto/releases/v1-e8f9399.binpb). `make buf-breaking` runs buf's WIRE_JSON check against the same
image with two rules waived (buf.yaml); this test holds those two changes to exactly what was meant:
the RPC messages renamed with every field kept, and word_count int64 -> int32."""

from __future__ import annotations

from pathlib import Path

from google.protobuf import descriptor_pb2
from google.protobuf.descriptor import FieldDescriptor

from lexicon_service.grpc_gen import game_pb2, lexicon_pb2

RELEASE = Path(__file__).resolve().parent.parent / "proto" / "releases" / "v1-e8f9399.binpb"
# Old message -> the messages that replace it (each must keep every field of the old one).
RENAMED = {
    "lexicon.v1.MoveRequest": ("lexicon.v1.ValidateMoveRequest", "lexicon.v1.ScoreMoveRequest"),
    "lexicon.v1.MoveResponse": ("lexicon.v1.ValidateMoveResponse", "lexicon.v1.ScoreMoveResponse"),
}
# (message, field) -> (old type, new type): varints with the same bytes for every value in range.
RETYPED = {("lexicon.v1.LexiconInfo", "word_count"): (FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_INT32)}
FILES = {"lexicon/v1/lexicon.proto": lexicon_pb2.DESCRIPTOR, "lexicon/v1/game.proto": game_pb2.DESCRIPTOR}


def release_files():
    # A buf image is a FileDescriptorSet with extra fields (kept as unknown fields here).
    files = descriptor_pb2.FileDescriptorSet.FromString(RELEASE.read_bytes()).file
    return [f for f in files if f.name in FILES]


def _messages(proto, prefix):
    nested = proto.message_type if isinstance(proto, descriptor_pb2.FileDescriptorProto) else proto.nested_type
    for message in nested:
        name = f"{prefix}.{message.name}"
        yield name, message
        yield from _messages(message, name)


def new_message(full_name):
    pool = game_pb2.DESCRIPTOR.pool
    return pool.FindMessageTypeByName(full_name)


def test_the_release_image_holds_both_files():
    assert sorted(f.name for f in release_files()) == sorted(FILES)


def test_every_released_field_is_kept_with_its_number_name_type_and_json_name():
    checked = 0
    for old_file in release_files():
        for old_name, old in _messages(old_file, "." + old_file.package):
            old_name = old_name[1:]
            for new_name in RENAMED.get(old_name, (old_name,)):
                new = new_message(new_name)
                for old_field in old.field:
                    field = new.fields_by_number.get(old_field.number)
                    assert field is not None, f"{new_name}: field {old_field.number} gone"
                    assert field.name == old_field.name and field.json_name == old_field.json_name
                    old_type = old_field.type
                    if (old_name, old_field.name) in RETYPED:
                        assert (old_type, field.type) == RETYPED[(old_name, old_field.name)]
                    else:
                        assert field.type == old_type, f"{new_name}.{field.name} changed type"
                    if old_field.type_name:
                        target = old_field.type_name[1:]
                        assert field.message_type is None or field.message_type.full_name in RENAMED.get(
                            target, (target,))
                        assert field.enum_type is None or field.enum_type.full_name == target
                    assert field.is_repeated == (old_field.label == descriptor_pb2.FieldDescriptorProto.LABEL_REPEATED)
                    checked += 1
    assert checked > 100


def test_every_released_enum_value_and_rpc_is_kept():
    for old_file in release_files():
        new_file = FILES[old_file.name]
        for old_enum in old_file.enum_type:
            new_enum = new_file.enum_types_by_name[old_enum.name]
            assert {v.name: v.number for v in old_enum.value}.items() <= {
                v.name: v.number for v in new_enum.values}.items()
        for old_service in old_file.service:
            new_service = new_file.services_by_name[old_service.name]
            for old_method in old_service.method:
                method = new_service.methods_by_name[old_method.name]
                assert method.input_type.full_name in RENAMED.get(old_method.input_type[1:], (old_method.input_type[1:],))
                assert method.output_type.full_name in RENAMED.get(old_method.output_type[1:],
                                                                   (old_method.output_type[1:],))


def test_a_new_request_reads_as_the_old_one_and_back():
    # What an old client sends, a new server reads; what a new server answers, an old client reads.
    pool = descriptor_pb2.FileDescriptorSet.FromString(RELEASE.read_bytes())
    from google.protobuf import descriptor_pool, message_factory

    old_pool = descriptor_pool.DescriptorPool()
    for f in pool.file:
        old_pool.Add(f)
    old_move = message_factory.GetMessageClass(old_pool.FindMessageTypeByName("lexicon.v1.MoveRequest"))
    old_info = message_factory.GetMessageClass(old_pool.FindMessageTypeByName("lexicon.v1.LexiconInfo"))
    sent = old_move(lexicon="pl-scrabble", rack="KOT", board=["..."], play={"position": "8H", "word": "KOT"})
    read = game_pb2.ScoreMoveRequest.FromString(sent.SerializeToString())
    assert (read.lexicon, read.rack, list(read.board), read.play.word) == ("pl-scrabble", "KOT", ["..."], "KOT")
    answered = lexicon_pb2.LexiconInfo(name="x", word_count=2_000_000_000)
    assert old_info.FromString(answered.SerializeToString()).word_count == 2_000_000_000
