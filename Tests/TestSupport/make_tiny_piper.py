#!/usr/bin/python3
"""Builds a tiny Piper-shaped ONNX model for the tests (Debian's python3-onnx; no weights).

Piper's inputs and output; each phoneme id lasts ceil(id * 0.5 * length_scale + 0.1) frames of
256 samples (a Ceil node gives them, as in Piper's VITS models), and the output is a sine wave of
that many samples. Usage: make_tiny_piper.py OUT.onnx [--no-ceil] [--rename-input NAME] [--slow]
[--padding MEGABYTES]: --padding adds that many megabytes of weights (used, so that they are kept),
which a model must read and ONNX Runtime must take in: a model that is slow to load, as a real
voice is on a slow disk or a busy machine.
"""
import sys

import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
no_ceil = "--no-ceil" in sys.argv
input_name = sys.argv[sys.argv.index("--rename-input") + 1] if "--rename-input" in sys.argv else "input"
slow = "--slow" in sys.argv
padding = int(sys.argv[sys.argv.index("--padding") + 1]) if "--padding" in sys.argv else 0

const = lambda name, dtype, values, dims: helper.make_node(
    "Constant", [], [name], value=helper.make_tensor(name + "_v", dtype, dims, values))
nodes = [
    const("half", TensorProto.FLOAT, [0.5], []),
    const("tenth", TensorProto.FLOAT, [0.1], []),
    const("one_index", TensorProto.INT64, [1], [1]),
    const("hop", TensorProto.FLOAT, [256.0], []),
    const("zero", TensorProto.FLOAT, [0.0], []),
    const("step", TensorProto.FLOAT, [1.0], []),
    const("freq", TensorProto.FLOAT, [0.0627], []),
    const("amp", TensorProto.FLOAT, [0.5], []),
    const("shape4", TensorProto.INT64, [1, 1, 1, -1], [4]),
    helper.make_node("Cast", [input_name], ["ids_f"], to=TensorProto.FLOAT),
    helper.make_node("Gather", ["scales", "one_index"], ["length_scale"], axis=0),
    helper.make_node("Mul", ["ids_f", "half"], ["w0"]),
    helper.make_node("Mul", ["w0", "length_scale"], ["w1"]),
    helper.make_node("Add", ["w1", "tenth"], ["w"]),
]
if no_ceil:
    nodes.append(helper.make_node("Floor", ["w"], ["wf"]))
    nodes.append(helper.make_node("Add", ["wf", "step"], ["frames"]))  # = ceil for non-integers
else:
    nodes.append(helper.make_node("Ceil", ["w"], ["frames"], name="/Ceil"))
nodes += [
    helper.make_node("ReduceSum", ["frames"], ["total_frames"], keepdims=0),
    helper.make_node("Mul", ["total_frames", "hop"], ["total"]),
    helper.make_node("Range", ["zero", "total", "step"], ["t"]),
    helper.make_node("Mul", ["t", "freq"], ["phase"]),
    helper.make_node("Sin", ["phase"], ["wave"]),
    helper.make_node("Mul", ["wave", "amp"], ["scaled"]),
]
initializers = []
if padding:
    # Weights that reach the output (times zero), so that the model cannot be loaded without them.
    import numpy
    from onnx import numpy_helper
    weights = numpy.full(padding * 1024 * 1024 // 4, 1e-9, dtype=numpy.float32)
    initializers.append(numpy_helper.from_array(weights, "padding"))
    nodes += [
        helper.make_node("ReduceSum", ["padding"], ["padding_sum"], keepdims=0),
        helper.make_node("Mul", ["padding_sum", "zero"], ["padding_zero"]),
        helper.make_node("Add", ["scaled", "padding_zero"], ["scaled_padded"]),
    ]
    nodes.append(helper.make_node("Identity", ["scaled_padded"], ["scaled_out"]))
else:
    nodes.append(helper.make_node("Identity", ["scaled"], ["scaled_out"]))
if slow:
    # Seconds of pointless work, for ending a run from outside: a large matrix squared many times.
    nodes.append(const("big_shape", TensorProto.INT64, [1024, 1024], [2]))
    nodes.append(helper.make_node("ConstantOfShape", ["big_shape"], ["ones"],
                                  value=helper.make_tensor("c", TensorProto.FLOAT, [1], [0.001])))
    # Made from the input, so that it cannot be computed once when the model loads.
    nodes.append(helper.make_node("Mul", ["ones", "total_frames"], ["m0"]))
    for index in range(200):
        nodes.append(helper.make_node("MatMul", [f"m{index}", f"m{index}"], [f"m{index + 1}"]))
    nodes.append(helper.make_node("ReduceSum", ["m200"], ["junk"], keepdims=0))
    nodes.append(helper.make_node("Mul", ["junk", "zero"], ["nothing"]))
    nodes.append(helper.make_node("Add", ["scaled_out", "nothing"], ["scaled2"]))
    nodes.append(helper.make_node("Reshape", ["scaled2", "shape4"], ["output"]))
else:
    nodes.append(helper.make_node("Reshape", ["scaled_out", "shape4"], ["output"]))
nodes.append(helper.make_node("Identity", ["input_lengths"], ["lengths_seen"]))
graph = helper.make_graph(
    nodes, "tiny_piper",
    [helper.make_tensor_value_info(input_name, TensorProto.INT64, [1, "phonemes"]),
     helper.make_tensor_value_info("input_lengths", TensorProto.INT64, [1]),
     helper.make_tensor_value_info("scales", TensorProto.FLOAT, [3])],
    [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 1, 1, "samples"]),
     helper.make_tensor_value_info("lengths_seen", TensorProto.INT64, [1])],
    initializers)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 7
onnx.checker.check_model(model)
onnx.save(model, out)
