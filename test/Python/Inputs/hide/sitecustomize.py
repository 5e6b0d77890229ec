"""Hides the modules named in $DWC_TEST_HIDE (comma-separated, e.g.
torch,matplotlib) from this Python, as on a machine without them: with this
directory first on PYTHONPATH, importing one raises ModuleNotFoundError."""
import os
import sys

_HIDDEN = [m for m in os.environ.get("DWC_TEST_HIDE", "").split(",") if m]


class _Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in _HIDDEN:
            raise ModuleNotFoundError("No module named %r" % name, name=name)
        return None


sys.meta_path.insert(0, _Hide())
