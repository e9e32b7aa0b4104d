import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
SPECS = ROOT / "game_specs"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
