#!/usr/bin/env python3
"""Exports ACE-Step 1.5's VAE *encoder* (diffusers AutoencoderOobleck) to ONNX for uploaded audio.

The public ONNX exports ship only the decoder. Songmint's ACE-Step backend takes an optional
`vae_encoder` graph role (inference/src/model/acestep/layouts.ts, both layouts) to turn audio a person uploads
into kept latents an edit starts from. Its tensors mirror the public vae_decoder export:

    audio    float32 [B, 2, T_audio]   48 kHz stereo in [-1, 1]; T_audio a multiple of 1920
    latents  float32 [B, 64, T_latent] the latent distribution's mean, 25 frames a second

(the reference samples `latent_dist`; the mean makes the same upload the same source).

Usage, on a host with the checkpoint (ACE-Step/Ace-Step1.5, its `vae/` folder), torch, diffusers
and onnx; then `npm run model:import -- <export_dir>` takes the new role:

    python3 scripts/export_acestep_vae_encoder.py --checkpoint <checkpoints>/vae --out <export_dir>

It writes <export_dir>/vae_encoder.onnx (weights in vae_encoder.onnx.data when the protobuf
limit needs it) and records the file, its sha256 and its names where the directory's layout keeps
them: the public exporter's manifest.json (a `vae_encoder` group); in an XL Turbo folder there is
no such record (songmint-hub-files.json holds what came from the Hub), and model:import hashes the
new file and records it in songmint-acestep.json. The weights are the checkpoint repository's
(ACE-Step/Ace-Step1.5, vae/), published under MIT as a whole; check its model card at your revision.

Not run in Songmint's CI: it needs the 1.5 checkpoint, which the test machines cannot download.
The tiny fixture encoder (scripts/fixtures/export_acestep_tiny.py) has the same names and axes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import onnx
import torch

SAMPLES_PER_FRAME = 1920
OPSET = 17


class EncoderMean(torch.nn.Module):
    """AutoencoderOobleck.encode(audio).latent_dist.mean: [B, 2, T x 1920] -> [B, 64, T]."""

    def __init__(self, vae):
        super().__init__()
        self.vae = vae

    def forward(self, audio):
        return self.vae.encode(audio).latent_dist.mean


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def export(checkpoint: Path, out: Path, seconds: int) -> tuple[Path, list[Path]]:
    from diffusers.models import AutoencoderOobleck

    vae = AutoencoderOobleck.from_pretrained(str(checkpoint)).float().eval()
    module = EncoderMean(vae).eval()
    sample = torch.zeros(1, 2, seconds * 25 * SAMPLES_PER_FRAME)
    path = out / "vae_encoder.onnx"
    with torch.no_grad():
        latents = module(sample)
        if latents.shape[1] != 64 or latents.shape[2] * SAMPLES_PER_FRAME != sample.shape[2]:
            raise SystemExit(f"the encoder gives {list(latents.shape)} for {list(sample.shape)}: not 64 channels at 1920 samples a frame")
        torch.onnx.export(module, (sample,), str(path), input_names=["audio"], output_names=["latents"],
                          dynamic_axes={"audio": {0: "B", 2: "T_audio"}, "latents": {0: "B", 2: "T_latent"}},
                          opset_version=OPSET, do_constant_folding=True)
    # Large weights go to one sidecar, as the public exporter does past protobuf's 2 GB.
    sidecars: list[Path] = []
    if path.stat().st_size > 1_800_000_000:
        model = onnx.load(str(path))
        onnx.save_model(model, str(path), save_as_external_data=True, all_tensors_to_one_file=True,
                        location="vae_encoder.onnx.data", size_threshold=1024)
        sidecars.append(out / "vae_encoder.onnx.data")
    onnx.checker.check_model(str(path))
    return path, sidecars


def record(out: Path, path: Path, sidecars: list[Path]) -> str:
    manifest = out / "manifest.json"
    hub = out / "songmint-hub-files.json"
    if manifest.exists():
        data = json.loads(manifest.read_text(encoding="utf-8"))
        data.setdefault("models", {})["vae_encoder"] = {path.name: {
            "path": path.name, "external_data": bool(sidecars), "external_files": [s.name for s in sidecars],
            "inputs": ["audio"], "outputs": ["latents"], "sha256": sha256(path), "size_bytes": path.stat().st_size,
        }}
        manifest.write_text(json.dumps(data, indent=2), encoding="utf-8")
        return str(manifest)
    if hub.exists() or (out / "dit_decoder_xl_turbo_q4.onnx").exists() or (out / "dit_decoder_xl_turbo_q8.onnx").exists():
        return "nothing (an XL Turbo folder: npm run model:import hashes vae_encoder.onnx and records it)"
    raise SystemExit(f"{out} is neither the exporter's directory (manifest.json) nor an XL Turbo folder")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoint", type=Path, required=True, help="the checkpoint's vae/ folder (AutoencoderOobleck)")
    parser.add_argument("--out", type=Path, required=True, help="the ONNX export directory to add vae_encoder.onnx to")
    parser.add_argument("--trace-seconds", type=int, default=10, help="length of the tracing input (the axes stay dynamic)")
    args = parser.parse_args()
    path, sidecars = export(args.checkpoint, args.out, args.trace_seconds)
    where = record(args.out, path, sidecars)
    print(f"wrote {path} ({path.stat().st_size} bytes), recorded in {where}; now: npm run model:import -- {args.out}")


if __name__ == "__main__":
    main()
