"""Progress of dwc_torch's long loops: the AOT step's compiles, compiles on
first use, convert's tuning, explain's kernel selection.

On a terminal (stderr is a tty) one status line is redrawn in place: a bar,
the count, the seconds so far and the current item. Elsewhere (a log file, a
CI job) each step is one plain line, so the log says how far it got. Quiet
(nothing shown): quiet=True where a function takes it, --quiet on the
commands, or DWC_QUIET=1 in the environment; an explicit quiet=False wins
over the variable.

    with Progress(len(layers), "dwc_torch.convert: tuning") as bar:
        for name in layers:
            ...
            bar.step(name)

Code that runs inside such a loop without knowing it (a kernel compiled on
first use) calls `task(text)`: shown in the active bar, or on its own line.
"""

import contextlib
import os
import shutil
import sys
import threading
import time

_lock = threading.RLock()
_active = []   # Progress objects open now, innermost last
_scoped = []   # quiet settings of enclosing quiet_scope() calls


def env_quiet():
    """Whether DWC_QUIET asks for silence (anything but '', '0', 'false', 'no')."""
    return os.environ.get("DWC_QUIET", "").strip().lower() not in ("", "0", "false", "no")


def is_quiet(quiet=None):
    """quiet if given, else the innermost quiet_scope's, else DWC_QUIET."""
    if quiet is not None:
        return bool(quiet)
    with _lock:
        scoped = [q for q in _scoped if q is not None]
    return scoped[-1] if scoped else env_quiet()


@contextlib.contextmanager
def quiet_scope(quiet):
    """Progress shown inside the block follows `quiet` (None: unchanged);
    convert(quiet=...) wraps its work in one, so the compiles on first use
    it triggers follow it too. Bars opened in the block and still open at
    its end (a loop left by an error) are closed then, so that what is
    printed next starts on a line of its own."""
    with _lock:
        _scoped.append(quiet)
        opened = len(_active)
    try:
        yield
    finally:
        with _lock:
            _scoped.pop()
            left = _active[opened:]
        for p in reversed(left):
            p.close()


def _is_tty(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or closed
        return False


def _width(stream):
    """Columns of the terminal (80 where it does not say: a pty nobody
    sized reports 0)."""
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        columns = shutil.get_terminal_size((80, 24)).columns
    return columns if columns > 0 else 80


class Progress:
    """A bar on a terminal, a line per step elsewhere, nothing when quiet.
    total None: a count without a bar. log(done, total, text) writes a step's
    line where it is not a terminal (default: `label [done/total] text` on
    the stream); the AOT step passes its own, whose lines it printed before
    there was a bar."""

    BAR = 24

    def __init__(self, total, label, quiet=None, stream=None, log=None):
        self.total, self.label, self.done = total, label, 0
        self.stream = stream if stream is not None else sys.stderr
        self.quiet = is_quiet(quiet)
        self.bar = not self.quiet and _is_tty(self.stream)
        self.log = log or self._default_log
        self.t0 = time.monotonic()
        self.drawn = False
        with _lock:
            _active.append(self)

    def _default_log(self, done, total, text):
        count = "%d/%d" % (done, total) if total else "%d" % done
        self._write("%s [%s] %s\n" % (self.label, count, text))

    def _write(self, s):
        self.stream.write(s)
        self.stream.flush()

    def status_line(self, text):
        """The bar's line (no newline), cut to the terminal's width."""
        elapsed = "%.0fs" % (time.monotonic() - self.t0)
        text = " ".join(text.split())  # a log line's column padding wastes the line
        if self.total:
            full = min(self.BAR, self.BAR * self.done // self.total)
            line = "%s [%s%s] %d/%d %s %s" % (self.label, "#" * full, "." * (self.BAR - full),
                                            self.done, self.total, elapsed, text)
        else:
            line = "%s [%d] %s %s" % (self.label, self.done, elapsed, text)
        return line[:max(_width(self.stream) - 1, 20)]

    def _draw(self, text):
        # \r + erase-to-end-of-line: the line is redrawn in place.
        self._write("\r\x1b[K" + self.status_line(text))
        self.drawn = True

    def step(self, text="", n=1):
        """n more items done; text names the last one."""
        self.done += n
        if self.bar:
            self._draw(text)
        elif not self.quiet:
            self.log(self.done, self.total, text)

    def note(self, text):
        """Something happening within the current step (the count stays)."""
        if self.bar:
            self._draw(text)
        elif not self.quiet:
            self._write("%s: %s\n" % (self.label, text))

    def close(self):
        """On a terminal, the bar is replaced by one summary line (once)."""
        with _lock:
            if self in _active:
                _active.remove(self)
        if self.bar and self.drawn:
            count = "%d/%d" % (self.done, self.total) if self.total else "%d" % self.done
            self._write("\r\x1b[K%s: %s in %.1f s\n" % (self.label, count,
                                                        time.monotonic() - self.t0))
            self.drawn = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def current():
    """The innermost open Progress, or None."""
    with _lock:
        return _active[-1] if _active else None


@contextlib.contextmanager
def task(text, label="dwc_torch"):
    """A piece of work of unknown length inside whatever loop runs it (a
    kernel compiled on first use): a note in the open bar, else a status
    line of its own on a terminal (erased when done), else one log line."""
    outer = current()
    if outer is not None:
        outer.note(text)
        yield
        return
    p = Progress(None, label)
    p.close()  # not a loop: tasks inside this one get lines of their own
    if p.bar:
        p._draw(text)
    elif not p.quiet:
        p._write("%s: %s\n" % (label, text))
    try:
        yield
    finally:
        if p.bar:
            p._write("\r\x1b[K")
