"""`cmake --install BUILD --prefix TMP` puts an importable irlint into TMP's site directory.

    install_test.py --build BUILD --site-dir IRLINT_PYTHON_INSTALL_DIR
"""

import argparse
import os
import pathlib
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--site-dir", required=True, help="relative to the prefix, or absolute")
    ap.add_argument("--cmake", default="cmake")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        site = pathlib.Path(args.site_dir)
        if site.is_absolute():
            env["DESTDIR"] = str(root / "dest")
            command = [args.cmake, "--install", args.build]
            site = root / "dest" / site.relative_to("/")
        else:
            command = [args.cmake, "--install", args.build, "--prefix", str(root / "prefix")]
            site = root / "prefix" / site
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
        for name in ("__init__.py", "_irlint.pyi", "py.typed"):
            if not (site / "irlint" / name).exists():
                sys.exit(f"install test: {site / 'irlint' / name} is missing")
        env["PYTHONPATH"] = str(site)
        proc = subprocess.run(
            [sys.executable, "-c", "import irlint; print(irlint.__file__); print(irlint.__version__)"],
            capture_output=True, text=True, env=env, cwd=root)
        if proc.returncode != 0:
            sys.exit(f"install test: import irlint failed: {proc.stderr}")
        where, version = proc.stdout.split()
        if not pathlib.Path(where).is_relative_to(site):
            sys.exit(f"install test: imported {where}, not the installed copy under {site}")
        print(f"installed irlint {version} imports from {site}")


if __name__ == "__main__":
    main()
