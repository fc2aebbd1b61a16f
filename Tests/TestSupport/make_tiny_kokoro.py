#!/usr/bin/python3
"""Builds a tiny Kokoro-shaped voice pack for the tests (Debian's python3-onnx and numpy; no weights).

Kokoro's inputs (tokens int64 [1, n], style float [1, 256], speed float [1]) and output (audio,
24 kHz); each token lasts Clip(Round(((id mod 4) + 2) / speed), 1, 50) frames of 600 samples, the
Clip node named /encoder/Clip as in Kokoro's graph, and the audio is a sine of that many samples
whose amplitude is 0.25 + style[0] (so the style row given can be heard).

Usage: make_tiny_kokoro.py FOLDER [--rename-input NAME] [--no-clip] [--silent-end]
  (--silent-end: each inference's last 20 frames, 0.5 s, are silent)
  writes FOLDER/kokoro.onnx and
  FOLDER/voices/{jf_alpha,jm_kumo,af_heart}.npy: style row r of each voice is all r / 10000.
Or: make_tiny_kokoro.py --pypi SITE NAME PARTS VOCAB [--corrupt]
  lays out a pip-installed pack: SITE/NAME_/data/{model.sha256,vocab.json,voices.npz} and the model
  cut into PARTS packages SITE/NAME__model_K/part.bin (--corrupt: one byte of a part changed).
"""
import hashlib
import os
import sys

import numpy
import onnx
from onnx import TensorProto, helper

VOICES = ("jf_alpha", "jm_kumo", "af_heart")


def model(input_name="tokens", clip=True, silent_end=False):
    const = lambda name, dtype, values, dims: helper.make_node(
        "Constant", [], [name], value=helper.make_tensor(name + "_v", dtype, dims, values))
    nodes = [
        const("four", TensorProto.INT64, [4], []),
        const("two", TensorProto.FLOAT, [2.0], []),
        const("lowest", TensorProto.FLOAT, [1.0], []),
        const("highest", TensorProto.FLOAT, [50.0], []),
        const("hop", TensorProto.FLOAT, [600.0], []),
        const("zero", TensorProto.FLOAT, [0.0], []),
        const("step", TensorProto.FLOAT, [1.0], []),
        const("freq", TensorProto.FLOAT, [0.0627], []),
        const("quarter", TensorProto.FLOAT, [0.25], []),
        const("first", TensorProto.INT64, [0], [1]),
        helper.make_node("Mod", [input_name, "four"], ["rest"]),
        helper.make_node("Cast", ["rest"], ["rest_f"], to=TensorProto.FLOAT),
        helper.make_node("Add", ["rest_f", "two"], ["length"]),
        helper.make_node("Div", ["length", "speed"], ["paced"]),
        helper.make_node("Round", ["paced"], ["rounded"], name="/encoder/Round"),
    ]
    if clip:
        nodes.append(helper.make_node("Clip", ["rounded", "lowest", "highest"], ["frames"], name="/encoder/Clip"))
    else:
        nodes.append(helper.make_node("Max", ["rounded", "lowest"], ["frames"], name="/encoder/Max"))
    nodes += [
        helper.make_node("ReduceSum", ["frames"], ["total_frames"], keepdims=0),
        helper.make_node("Mul", ["total_frames", "hop"], ["total"]),
        helper.make_node("Range", ["zero", "total", "step"], ["t"]),
        helper.make_node("Mul", ["t", "freq"], ["phase"]),
        helper.make_node("Sin", ["phase"], ["wave"]),
        helper.make_node("Flatten", ["style"], ["style_flat"], axis=0),
        helper.make_node("Gather", ["style_flat", "first"], ["style_first"], axis=1),
        helper.make_node("ReduceSum", ["style_first"], ["style_value"], keepdims=0),
        helper.make_node("Add", ["style_value", "quarter"], ["amplitude"]),
    ]
    if silent_end:
        # The last 20 frames (0.5 s) silent, as a real voice's sentence ends in silence.
        nodes += [
            const("quiet_frames", TensorProto.FLOAT, [20.0], []),
            helper.make_node("Sub", ["total_frames", "quiet_frames"], ["loud_frames"]),
            helper.make_node("Mul", ["loud_frames", "hop"], ["loud_samples"]),
            helper.make_node("Less", ["t", "loud_samples"], ["loud"]),
            helper.make_node("Cast", ["loud"], ["mask"], to=TensorProto.FLOAT),
            helper.make_node("Mul", ["wave", "mask"], ["masked"]),
            helper.make_node("Mul", ["masked", "amplitude"], ["audio"]),
        ]
    else:
        nodes.append(helper.make_node("Mul", ["wave", "amplitude"], ["audio"]))
    graph = helper.make_graph(
        nodes, "tiny_kokoro",
        [helper.make_tensor_value_info(input_name, TensorProto.INT64, [1, "tokens"]),
         helper.make_tensor_value_info("style", TensorProto.FLOAT, [1, 256]),
         helper.make_tensor_value_info("speed", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("audio", TensorProto.FLOAT, ["samples"])])
    built = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    built.ir_version = 7
    onnx.checker.check_model(built)
    return built.SerializeToString()


def styles():
    rows = numpy.arange(510, dtype=numpy.float32).reshape(510, 1, 1) / 10000
    return {name: numpy.repeat(rows, 256, axis=2).astype(numpy.float32) for name in VOICES}


if sys.argv[1] == "--pypi":
    site, name, parts, vocab = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
    module = name.replace("-", "_")
    data = os.path.join(site, module, "data")
    os.makedirs(data, exist_ok=True)
    bytes_ = model()
    with open(os.path.join(data, "model.sha256"), "w") as out:
        out.write(hashlib.sha256(bytes_).hexdigest() + "\n")
    if "--corrupt" in sys.argv:
        bytes_ = bytes_[:10] + bytes([bytes_[10] ^ 1]) + bytes_[11:]
    with open(vocab, "rb") as source, open(os.path.join(data, "vocab.json"), "wb") as out:
        out.write(source.read())
    numpy.savez(os.path.join(data, "voices_tiny.npz"), **styles())
    size = (len(bytes_) + parts - 1) // parts
    for index in range(parts):
        folder = os.path.join(site, f"{module}_model_{index + 1}")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "part.bin"), "wb") as out:
            out.write(bytes_[index * size:(index + 1) * size])
else:
    folder = sys.argv[1]
    input_name = sys.argv[sys.argv.index("--rename-input") + 1] if "--rename-input" in sys.argv else "tokens"
    os.makedirs(os.path.join(folder, "voices"), exist_ok=True)
    with open(os.path.join(folder, "kokoro.onnx"), "wb") as out:
        out.write(model(input_name, clip="--no-clip" not in sys.argv, silent_end="--silent-end" in sys.argv))
    for name, array in styles().items():
        numpy.save(os.path.join(folder, "voices", name + ".npy"), array)
