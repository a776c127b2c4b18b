import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]
PINNED = ROOT / "crates" / "wonders-core" / "tests" / "pinned"
