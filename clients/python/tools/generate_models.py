"""Regenerate tetrad_client/models.py from the server's OpenAPI document, or check it.

    python clients/python/tools/generate_models.py          # rewrite models.py
    python clients/python/tools/generate_models.py --check  # fail if it is out of date

Run from the repository's dev environment (`make python-client-models`): it reads the
document from the server's app, as the web client's gen-api script does, and hands it to
datamodel-code-generator (a dev dependency, pinned in constraints.txt), then formats the
result with the repository's ruff so the file is the same on every machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from server.app import create_app
from server.settings import Settings

PACKAGE = Path(__file__).resolve().parents[1] / "tetrad_client"
TARGET = PACKAGE / "models.py"
HEADER = (
    "# Generated from tetrad's /openapi.json by datamodel-code-generator: do not edit.\n"
    "# Regenerate with `make python-client-models` (clients/python/tools/generate_models.py)."
)
OPTIONS = [
    "--input-file-type", "openapi",
    "--output-model-type", "pydantic_v2.BaseModel",
    "--target-python-version", "3.11",
    "--use-annotated",
    "--use-standard-collections",
    "--use-union-operator",
    "--enum-field-as-literal", "all",
    "--use-double-quotes",
    "--use-schema-description",
    "--use-field-description",
    "--use-tuple-for-fixed-items",
    "--collapse-root-models",
    "--field-constraints",
    "--use-type-alias",
    "--disable-timestamp",
    "--formatters", "builtin",
]  # fmt: skip


def openapi_document() -> str:
    app = create_app(Settings(log_json=False, log_level="WARNING"))
    return json.dumps(app.openapi(), sort_keys=True)


def generate(into: Path) -> None:
    """Write the models generated from the server's document to ``into``."""
    bin_dir = Path(sys.executable).parent
    with tempfile.TemporaryDirectory(prefix="tetrad-openapi-") as folder:
        document = Path(folder) / "openapi.json"
        document.write_text(openapi_document(), encoding="utf-8")
        subprocess.run(
            [str(bin_dir / "datamodel-codegen"), "--input", str(document), "--output",
             str(into), "--custom-file-header", HEADER, *OPTIONS],
            check=True,
        )  # fmt: skip
    ruff = str(bin_dir / "ruff")
    tidy = [ruff, "check", "--fix-only", "--select", "I,F401,UP", str(into)]
    subprocess.run(tidy, check=True, stdout=subprocess.DEVNULL)
    subprocess.run([ruff, "format", str(into)], check=True, stdout=subprocess.DEVNULL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check models.py is current")
    args = parser.parse_args()
    if not args.check:
        generate(TARGET)
        return 0
    with tempfile.TemporaryDirectory(prefix="tetrad-models-") as folder:
        fresh = Path(folder) / "models.py"
        generate(fresh)
        if fresh.read_text(encoding="utf-8") != TARGET.read_text(encoding="utf-8"):
            print(
                "clients/python/tetrad_client/models.py is out of date with the server's "
                "models: run `make python-client-models`",
                file=sys.stderr,
            )
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
