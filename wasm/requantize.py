"""Writes the pinned 0.5B with its Q5_0 tensors (and, with --all, its Q4_K and Q6_K ones) in another type, to
measure which quantization llama.cpp's WebAssembly kernels run fastest. Weights are dequantized and quantized
again with PyPI's `gguf` package (pip install gguf numpy); metadata and the other tensors are copied as they
are. The output goes next to the input, in the model cache: never into the repository.

    python wasm/requantize.py Q8_0 [--all] [--model PATH]
"""
import argparse
import os

import numpy as np
from gguf import GGMLQuantizationType as T
from gguf import GGUFReader, GGUFValueType, GGUFWriter
from gguf.quants import dequantize, quantize

CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "inpage-agent")
DEFAULT = os.path.join(CACHE, "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf")

parser = argparse.ArgumentParser()
parser.add_argument("type", choices=["Q4_0", "Q5_0", "Q8_0"])
parser.add_argument("--all", action="store_true", help="also the Q4_K and Q6_K tensors")
parser.add_argument("--model", default=DEFAULT)
args = parser.parse_args()

target = T[args.type]
convert = {T.Q5_0} | ({T.Q4_K, T.Q6_K} if args.all else set())
out = args.model.replace(".gguf", f".{args.type.lower()}{'-all' if args.all else ''}.gguf")

reader = GGUFReader(args.model)
arch = reader.fields["general.architecture"].contents()
writer = GGUFWriter(out, arch)
for field in reader.fields.values():
    if field.name.startswith("GGUF.") or field.name == "general.architecture":
        continue
    kind = field.types[0]
    sub = field.types[-1] if kind == GGUFValueType.ARRAY else None
    writer.add_key_value(field.name, field.contents(), kind, sub)

converted = 0
for tensor in reader.tensors:
    # gguf lists a tensor's dimensions innermost first; numpy's shape is the other way round.
    shape = [int(n) for n in reversed(tensor.shape)]
    if tensor.tensor_type in convert and shape[-1] % 32 == 0:
        weights = dequantize(tensor.data, tensor.tensor_type).reshape(shape)
        # Quantized data is bytes, row by row: gguf derives the weights' shape from it.
        writer.add_tensor(tensor.name, quantize(weights, target), raw_dtype=target)
        converted += 1
    else:
        writer.add_tensor(tensor.name, tensor.data, raw_dtype=tensor.tensor_type)

writer.write_header_to_file()
writer.write_kv_data_to_file()
writer.write_tensors_to_file()
writer.close()
print(f"{out}: {converted} tensors as {args.type}")
